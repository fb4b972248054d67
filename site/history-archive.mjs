// Keeps dev/bench/data.js bounded without losing history:
//   node site/history-archive.mjs <historyDir> --keep <N>
// moves every entry of a suite beyond its newest N, unchanged, from data.js to dev/bench/archive/YYYY-MM.json (the
// month of the entry's date, UTC). data.js keeps github-action-benchmark's exact format
// ("window.BENCHMARK_DATA = " + JSON.stringify(data, null, 2)) and its lastUpdate; site/pack.mjs joins the archive
// and data.js again, so the packed site still draws every run. Idempotent: an entry is keyed by commit id and date,
// so running it again, or after an interrupted run (archive written, data.js not yet), moves nothing twice.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDataJs } from './js/history.js';
import { benchDirOf } from './serve.mjs';

export const ARCHIVE_DIR = 'archive';
const DATA_JS_PREFIX = 'window.BENCHMARK_DATA = ';
const MONTH_FILE = /^\d{4}-\d{2}\.json$/;

const keyOf = (entry) => `${entry?.commit?.id}@${entry?.date}`;

function writeAtomically(file, text) {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Every archived entry per suite, oldest month first: {suite: [entry, …]}. */
export function readArchive(benchDir) {
  const dir = join(benchDir, ARCHIVE_DIR);
  const suites = {};
  if (!existsSync(dir)) return suites;
  for (const file of readdirSync(dir).filter((f) => MONTH_FILE.test(f)).sort()) {
    const month = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const [suite, entries] of Object.entries(month.entries ?? {})) {
      (suites[suite] ??= []).push(...entries);
    }
  }
  return suites;
}

/**
 * The archived entries followed by data.js's, each (commit id, date) once: the whole history of each suite. Without
 * an archive, data is returned as it is (malformed suites and entries are left for buildModel to report).
 */
export function joinArchive(benchDir, data) {
  const archived = readArchive(benchDir);
  if (Object.keys(archived).length === 0) return data;
  const entries = { ...data.entries };
  for (const [suite, old] of Object.entries(archived)) {
    const current = entries[suite] ?? [];
    if (!Array.isArray(current)) continue;
    const seen = new Set(old.map(keyOf));
    entries[suite] = [...old, ...current.filter((e) => !seen.has(keyOf(e)))];
  }
  return { ...data, entries };
}

export function archiveOldEntries(historyDir, keep) {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`--keep must be a positive integer, was ${keep}`);
  const bench = benchDirOf(historyDir);
  const dataFile = join(bench, 'data.js');
  if (!existsSync(dataFile)) return { moved: 0, months: [] };
  const data = parseDataJs(readFileSync(dataFile, 'utf8'));
  const moving = {}; // month -> suite -> entries
  let moved = 0;
  for (const [suite, entries] of Object.entries(data.entries)) {
    if (!Array.isArray(entries) || entries.length <= keep) continue;
    for (const entry of entries.slice(0, entries.length - keep)) {
      const month = new Date(Number(entry.date)).toISOString().slice(0, 7);
      ((moving[month] ??= {})[suite] ??= []).push(entry);
      moved++;
    }
    data.entries[suite] = entries.slice(entries.length - keep);
  }
  if (moved === 0) return { moved, months: [] };
  const dir = join(bench, ARCHIVE_DIR);
  mkdirSync(dir, { recursive: true });
  // The archive first: an interruption before data.js is rewritten leaves the entries in both, never in neither.
  for (const [month, suites] of Object.entries(moving)) {
    const file = join(dir, `${month}.json`);
    const archive = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { schemaVersion: 1, entries: {} };
    for (const [suite, entries] of Object.entries(suites)) {
      const list = (archive.entries[suite] ??= []);
      const present = new Set(list.map(keyOf));
      list.push(...entries.filter((e) => !present.has(keyOf(e))));
      list.sort((a, b) => Number(a.date) - Number(b.date));
    }
    writeAtomically(file, JSON.stringify(archive));
  }
  writeAtomically(dataFile, DATA_JS_PREFIX + JSON.stringify(data, null, 2));
  return { moved, months: Object.keys(moving).sort() };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, flag, value] = process.argv.slice(2);
  if (!dir || flag !== '--keep' || !/^[1-9][0-9]*$/.test(value ?? '')) {
    console.error('usage: node site/history-archive.mjs <historyDir> --keep <N>');
    process.exit(2);
  }
  try {
    const r = archiveOldEntries(dir, Number(value));
    console.log(r.moved ? `archived ${r.moved} data.js entries into ${r.months.join(', ')}` : 'data.js within bounds, nothing archived');
  } catch (e) {
    console.error(`site/history-archive.mjs: ${e.message}`);
    process.exit(1);
  }
}
