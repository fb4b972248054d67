// Scale benchmark (not a test): a 5,000-commit × 100-series history (data.js only, as github-action-benchmark
// writes it), loaded in headless Chromium; measures the time from navigation start until the first chart is drawn
// (the first uPlot draw, recorded by the page as window.__restbench.firstChartMs), median of several fresh loads.
//   node site/bench/scale.mjs [--commits 5000] [--loads 5]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeScale } from '../fixtures/generate.mjs';
import { startServer } from '../serve.mjs';
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
const { server, url } = await startServer({ historyDir: join(root, 'history') });
const browser = await launch();
const samples = [];
try {
  for (let i = 0; i < loads; i++) {
    const page = await openPage(browser);
    await page.goto(`${url}#view=trends`);
    await page.waitForFunction(() => window.__restbench.firstChartMs > 0 || window.__restbench.state === 'error', null, { timeout: 120_000 });
    const r = await page.evaluate(() => ({
      firstChartMs: window.__restbench.firstChartMs,
      timings: window.__restbench.timings,
      state: window.__restbench.state,
      series: document.getElementById('history-summary')?.textContent,
      charts: document.querySelectorAll('.chart-card').length,
      drawn: document.querySelectorAll('.chart-card[data-drawn="true"]').length,
      points: Number(document.querySelector('.chart-card[data-drawn="true"]')?.dataset.points),
    }));
    if (r.state === 'error') throw new Error('the page reported an error');
    samples.push(r.firstChartMs);
    console.log(`load ${i + 1}: first chart at ${r.firstChartMs.toFixed(0)} ms (${r.series}; ${r.charts} chart cards, ${r.drawn} drawn so far, first has ${r.points} points)`);
    const t = r.timings;
    console.log(`  phases (ms since navigation): response headers ${t.response.toFixed(0)}, body read ${t.text.toFixed(0)}, JSON.parse ${t.parse.toFixed(0)}, model ${t.model.toFixed(0)}, first chart ${r.firstChartMs.toFixed(0)}`);
    await page.context().close();
  }
} finally {
  await browser.close();
  server.close();
  rmSync(root, { recursive: true, force: true });
}
const sorted = [...samples].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
console.log(`data.js: ${(size / 1e6).toFixed(1)} MB, ${commits} commits × 100 series`);
console.log(`first chart drawn: median ${median.toFixed(0)} ms over ${loads} loads (min ${sorted[0].toFixed(0)}, max ${sorted[sorted.length - 1].toFixed(0)}); target < 1000 ms`);
