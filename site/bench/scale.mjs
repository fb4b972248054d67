// Scale benchmark (not a test): a 5,000-commit × 100-series history (data.js as github-action-benchmark writes
// it), loaded in headless Chromium; measures the time from navigation start until the first chart is drawn (the
// first uPlot draw, recorded by the page as window.__restbench.firstChartMs), median of several fresh loads —
// once with data.js alone and once after `node site/pack.mjs` packed it.
//   node site/bench/scale.mjs [--commits 5000] [--loads 5]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeScale } from '../fixtures/generate.mjs';
import { startServer } from '../serve.mjs';
import { pack } from '../pack.mjs';
import { launch, openPage } from '../test/browser.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const commits = arg('commits', 5000);
const loads = arg('loads', 5);

const root = mkdtempSync(join(tmpdir(), 'restbench-scale-'));
const bench = writeScale(join(root, 'history'), commits);
const size = statSync(join(bench, 'data.js')).size;
const browser = await launch();

async function measure(label) {
  const { server, url } = await startServer({ historyDir: join(root, 'history') });
  const samples = [];
  try {
    for (let i = 0; i < loads; i++) {
      const page = await openPage(browser);
      await page.goto(`${url}#view=trends`);
      await page.waitForFunction(() => window.__restbench.firstChartMs > 0 || window.__restbench.state === 'error', null, { timeout: 300_000 });
      const r = await page.evaluate(() => ({
        firstChartMs: window.__restbench.firstChartMs,
        timings: window.__restbench.timings,
        phases: window.__restbench.firstChartPhases,
        packed: window.__restbench.packed,
        state: window.__restbench.state,
        summary: document.getElementById('history-summary')?.textContent,
        charts: document.querySelectorAll('.chart-card').length,
        points: Number(document.querySelector('.chart-card[data-drawn="true"]')?.dataset.points),
      }));
      if (r.state === 'error') throw new Error('the page reported an error');
      samples.push(r.firstChartMs);
      const t = r.timings;
      console.log(`[${label}] load ${i + 1}: first chart at ${r.firstChartMs.toFixed(0)} ms — data.js headers ${t.response.toFixed(0)}, `
        + `${r.packed ? 'manifest' : 'body'} read ${t.text.toFixed(0)}, model ${t.model.toFixed(0)}, first draw requested ${r.phases.drawCalled.toFixed(0)}, `
        + `its series loaded ${r.phases.seriesLoaded.toFixed(0)}, chart data built ${r.phases.dataBuilt.toFixed(0)} (${r.summary}; ${r.charts} charts, first has ${r.points} points)`);
      await page.context().close();
    }
  } finally {
    server.close();
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { label, median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
}

const results = [];
try {
  results.push(await measure('data.js only'));
  const started = performance.now();
  const packed = pack(join(root, 'history'));
  console.log(`pack.mjs: ${packed.charts} chart files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  results.push(await measure('packed'));
} finally {
  await browser.close();
  rmSync(root, { recursive: true, force: true });
}
console.log(`data.js: ${(size / 1e6).toFixed(1)} MB, ${commits} commits × 100 series; load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const r of results) {
  console.log(`first chart drawn, ${r.label}: median ${r.median.toFixed(0)} ms over ${loads} loads (min ${r.min.toFixed(0)}, max ${r.max.toFixed(0)}); target < 1000 ms`);
}
