// Packs a history's data.js into small files the site can load chart by chart:
//   node site/pack.mjs <historyDir>      (the gh-pages layout holding dev/bench/data.js, or dev/bench itself)
// writes dev/bench/pack/manifest.json (runs, series list, each series' newest point and profiles) and one file per
// chart (scenario, regime, metric) with that chart's series as columns. It re-lays out data.js only: same values,
// same range/extra strings, nothing computed. A 5,000-commit × 100-series data.js is ~140 MB, which no browser parses in
// under a second; with the pack the first chart needs the manifest and one chart file.
// The site uses the pack only when its recorded lastUpdate equals data.js's, so a stale pack is ignored.
// Entries moved out of data.js by site/history-archive.mjs (dev/bench/archive/) are packed too: the pack is the whole
// history even when data.js holds only its newest entries.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildModel, parseDataJs } from './js/history.js';
import { benchDirOf } from './serve.mjs';
import { joinArchive } from './history-archive.mjs';

export const PACK_DIR = 'pack';

export function pack(historyDir) {
  const bench = benchDirOf(historyDir);
  const data = parseDataJs(readFileSync(join(bench, 'data.js'), 'utf8'));
  const model = buildModel(joinArchive(bench, data));
  const out = join(bench, PACK_DIR);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const groups = new Map();
  for (const s of model.series.values()) {
    const id = `${s.scenario}|${s.regime}|${s.metric}`;
    if (!groups.has(id)) groups.set(id, { file: `g${groups.size}.json`, series: [] });
    groups.get(id).series.push(s);
  }
  for (const { file, series } of groups.values()) {
    const chunk = { schemaVersion: 1, series: {} };
    for (const s of series) chunk.series[s.key] = { runIdx: s.runIdx, values: s.values, range: s.range, extra: s.extra };
    writeFileSync(join(out, file), JSON.stringify(chunk));
  }
  const runs = model.runs;
  const manifest = {
    schemaVersion: 1,
    generator: 'site/pack.mjs',
    dataJs: { lastUpdate: data.lastUpdate ?? null },
    repoUrl: model.repoUrl,
    lastUpdate: model.lastUpdate,
    warnings: model.warnings,
    runs: {
      commitId: runs.map((r) => r.commitId),
      message: runs.map((r) => r.message),
      author: runs.map((r) => r.author),
      timestamp: runs.map((r) => r.timestamp),
      url: runs.map((r) => r.url),
      date: runs.map((r) => r.date),
      // Profiles let the page offer the profile choice and place markers before any chart's points are loaded.
      profile: runs.map((r) => r.profile),
    },
    series: [...groups.values()].flatMap(({ file, series }) => series.map((s) => {
      const i = s.runIdx.length - 1;
      return {
        key: s.key, suite: s.suite, direction: s.direction, unit: s.unit, file, profiles: s.profiles,
        last: { runIdx: s.runIdx[i], value: s.values[i], range: s.range[i], extra: s.extra[i] },
      };
    })),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
  return { dir: out, charts: groups.size, series: model.series.size, runs: runs.length };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.argv[2]) {
    console.error('usage: node site/pack.mjs <historyDir>');
    process.exit(2);
  }
  try {
    const r = pack(process.argv[2]);
    console.log(`packed ${r.runs} runs, ${r.series} series into ${r.charts} chart files under ${r.dir}`);
  } catch (e) {
    console.error(`site/pack.mjs: ${e.message}`);
    process.exit(1);
  }
}
