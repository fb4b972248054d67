// Loads a history directory (gh-pages layout: dev/bench/) into one in-memory model.
// data.js is required; index.json, latest.json and analysis.json are used when present. Every number shown comes
// from these files: this module reorganises them, it computes no statistics.

export class HistoryError extends Error {
  constructor(title, detail) {
    super(`${title}: ${detail}`);
    this.title = title;
    this.detail = detail;
  }
}

const PREFIX = /^\s*window\.BENCHMARK_DATA\s*=\s*/;

/** data.js text → the BENCHMARK_DATA object. JSON.parse, not eval: faster on big files and runs no code. */
export function parseDataJs(text) {
  const body = text.replace(/^\uFEFF/, '');
  const prefix = PREFIX.exec(body);
  if (!prefix) {
    throw new HistoryError('data.js is not a benchmark history', 'it does not start with "window.BENCHMARK_DATA =" (the github-action-benchmark format).');
  }
  const json = body.slice(prefix[0].length).replace(/;\s*$/, '');
  let data;
  try {
    data = JSON.parse(json);
  } catch (e) {
    throw new HistoryError('data.js is malformed or truncated', `${e.message} (file is ${text.length.toLocaleString('en')} characters long).`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new HistoryError('data.js is malformed', 'BENCHMARK_DATA is not an object.');
  }
  if (data.entries === null || typeof data.entries !== 'object' || Array.isArray(data.entries)) {
    throw new HistoryError('data.js is malformed', 'BENCHMARK_DATA.entries is missing or is not an object of suites.');
  }
  return data;
}

/** "{variant}/{scenario}/{regime}/{metric}"; other names are kept whole as the scenario of an "unknown" variant. */
export function parseSeriesKey(name) {
  const parts = name.split('/');
  if (parts.length < 4 || parts.some((p) => p === '')) {
    return { variant: 'unknown', scenario: name, regime: '-', metric: 'value' };
  }
  return { variant: parts[0], scenario: parts.slice(1, -2).join('/'), regime: parts[parts.length - 2], metric: parts[parts.length - 1] };
}

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

/**
 * Builds runs (one per benchmark run, ordered by date) and series (one per bench name). Entries of different suites
 * belong to the same run when they are the k-th occurrence of the same commit (re-running a commit appends a
 * duplicate entry to every suite).
 */
export function buildModel(data) {
  const warnings = [];
  const runsByKey = new Map();
  const seriesByKey = new Map();
  let skippedEntries = 0;
  let skippedBenches = 0;
  const entryLists = [];
  for (const [suite, entries] of Object.entries(data.entries)) {
    if (!Array.isArray(entries)) {
      warnings.push(`Suite "${suite}" in data.js is not a list; ignored.`);
      continue;
    }
    entryLists.push([suite, entries]);
  }
  const pending = [];
  for (const [suite, entries] of entryLists) {
    const occurrences = new Map();
    for (const entry of entries) {
      const commit = entry?.commit;
      if (!isObject(entry) || !isObject(commit) || typeof commit.id !== 'string' || !Number.isFinite(entry.date) || !Array.isArray(entry.benches)) {
        skippedEntries++;
        continue;
      }
      const k = occurrences.get(commit.id) ?? 0;
      occurrences.set(commit.id, k + 1);
      const runKey = `${commit.id}#${k}`;
      let run = runsByKey.get(runKey);
      if (!run) {
        const author = isObject(commit.author) ? commit.author : {};
        run = {
          key: runKey,
          commitId: commit.id,
          message: typeof commit.message === 'string' ? commit.message : '',
          author: String(author.name ?? author.username ?? ''),
          timestamp: typeof commit.timestamp === 'string' ? commit.timestamp : null,
          url: typeof commit.url === 'string' ? commit.url : null,
          date: entry.date,
          index: -1,
          profile: null,
        };
        runsByKey.set(runKey, run);
      } else if (entry.date < run.date) {
        run.date = entry.date;
      }
      const direction = entry.tool === 'customBiggerIsBetter' || entry.tool === 'benchmarkjs' ? 'bigger' : 'smaller';
      pending.push([suite, direction, run, entry.benches]);
    }
  }
  const runs = [...runsByKey.values()].sort((a, b) => a.date - b.date);
  runs.forEach((run, i) => { run.index = i; });
  for (const [suite, direction, run, benches] of pending) {
    for (const bench of benches) {
      if (!isObject(bench) || typeof bench.name !== 'string' || typeof bench.value !== 'number' || !Number.isFinite(bench.value)) {
        skippedBenches++;
        continue;
      }
      let series = seriesByKey.get(bench.name);
      if (!series) {
        series = { key: bench.name, ...parseSeriesKey(bench.name), suite, direction, unit: typeof bench.unit === 'string' ? bench.unit : '', runIdx: [], values: [], range: [], extra: [] };
        seriesByKey.set(bench.name, series);
      }
      series.runIdx.push(run.index);
      series.values.push(bench.value);
      series.range.push(typeof bench.range === 'string' ? bench.range : null);
      series.extra.push(typeof bench.extra === 'string' ? bench.extra : null);
      // One `./bench run` writes one profile into every point; the run keeps the first it sees (markers of a packed
      // history need it before the chart's points are loaded).
      run.profile ??= pointProfile(series, series.extra.length - 1);
    }
  }
  // Points were appended suite by suite; keep each series in run order (the position analysis.json indexes).
  for (const series of seriesByKey.values()) {
    sortSeries(series);
    series.profiles = seriesProfiles(series);
  }
  if (skippedEntries) warnings.push(`${skippedEntries} malformed entr${skippedEntries === 1 ? 'y' : 'ies'} in data.js ignored.`);
  if (skippedBenches) warnings.push(`${skippedBenches} malformed benchmark value${skippedBenches === 1 ? '' : 's'} in data.js ignored.`);
  return { runs, series: seriesByKey, repoUrl: typeof data.repoUrl === 'string' ? data.repoUrl : null, lastUpdate: data.lastUpdate, warnings };
}

function sortSeries(s) {
  let sorted = true;
  for (let i = 1; i < s.runIdx.length; i++) if (s.runIdx[i] < s.runIdx[i - 1]) { sorted = false; break; }
  if (sorted) return;
  const order = s.runIdx.map((_, i) => i).sort((a, b) => s.runIdx[a] - s.runIdx[b]);
  for (const field of ['runIdx', 'values', 'range', 'extra']) s[field] = order.map((i) => s[field][i]);
}

/** Points whose `extra` names no profile (entries older than the runner's profiles) form a profile of their own. */
export const UNKNOWN_PROFILE = 'unknown';
const EXTRA_PROFILE = /(?:^|\s)profile=(\S+)/;

/** The benchmark profile (smoke, quick, full, …) one point was measured with, from the `profile=` its extra carries. */
export function pointProfile(series, i) {
  const m = series.extra[i] && EXTRA_PROFILE.exec(series.extra[i]);
  return m ? m[1] : UNKNOWN_PROFILE;
}

/** The distinct profiles of a series' points. */
function seriesProfiles(series) {
  const set = new Set();
  for (let i = 0; i < series.extra.length; i++) set.add(pointProfile(series, i));
  return [...set];
}

const NUM = '(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)';
const EXTRA_MIN = new RegExp(`(?:^|\\s)min=${NUM}`);
const EXTRA_MAX = new RegExp(`(?:^|\\s)max=${NUM}`);
const EXTRA_N = /(?:^|\s)n=(\d+)/;
const RANGE = new RegExp(`^\\s*±\\s*${NUM}`);

/**
 * The spread of one point as the producer wrote it: min/max from `extra` (the repetitions' extremes) when present,
 * otherwise value ± the `range` the action stores. Parsed lazily: only charts that are drawn need it.
 */
export function pointSpread(series, i) {
  const extra = series.extra[i];
  const value = series.values[i];
  const out = { n: null, lo: null, hi: null, text: '' };
  if (extra) {
    const n = EXTRA_N.exec(extra);
    if (n) out.n = Number(n[1]);
    const lo = EXTRA_MIN.exec(extra);
    const hi = EXTRA_MAX.exec(extra);
    if (lo && hi) {
      out.lo = Number(lo[1]);
      out.hi = Number(hi[1]);
      out.text = `min ${lo[1]} – max ${hi[1]}`;
      return out;
    }
  }
  const range = series.range[i] && RANGE.exec(series.range[i]);
  if (range) {
    out.lo = value - Number(range[1]);
    out.hi = value + Number(range[1]);
    out.text = `± ${range[1]}`;
  }
  return out;
}

/** A download index.html already started for this URL, or a new one. */
function prefetched(base, name, url) {
  const early = window.__restbenchPrefetch;
  if (early?.base === base && early[name]) {
    const p = early[name];
    early[name] = null; // a response body can be read once
    return p;
  }
  return fetch(url, { cache: 'no-cache' });
}

async function fetchText(url, early) {
  let res;
  try {
    res = await (early ?? fetch(url, { cache: 'no-cache' }));
  } catch (e) {
    const hint = location.protocol === 'file:' ? ' Pages opened from file:// cannot read data files; serve the site with `node site/serve.mjs <historyDir>`.' : '';
    throw new HistoryError(`Could not load ${url}`, `${e.message}.${hint}`);
  }
  return res;
}

/** An optional JSON file: absent → null; unreadable → null plus a warning (the site falls back to data.js). */
async function optionalJson(url, warnings, validate) {
  let res;
  try {
    res = await fetch(url, { cache: 'no-cache' });
  } catch {
    return null;
  }
  if (res.status === 404 || !res.ok) return null;
  try {
    const json = JSON.parse(await res.text());
    if (!isObject(json) || !validate(json)) throw new Error('unexpected shape');
    return json;
  } catch (e) {
    warnings.push(`${url} is malformed (${e.message}); ignored.`);
    return null;
  }
}

const LAST_UPDATE = /"lastUpdate"\s*:\s*(-?\d+)/;

/**
 * Reads a response body as text, handing its first 512 characters (or all of it, if shorter) to `peek` once;
 * peek returning true stops the download.
 */
async function readBody(res, peek) {
  const parts = [];
  let length = 0;
  let peeked = false;
  const decide = async () => {
    peeked = true;
    return peek(parts.join(''));
  };
  if (!res.body?.getReader) {
    parts.push(await res.text());
    return (await decide()) ? null : parts[0];
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    parts.push(text);
    length += text.length;
    if (!peeked && length >= 512 && (await decide())) {
      await reader.cancel();
      return null;
    }
  }
  parts.push(decoder.decode());
  if (!peeked && (await decide())) return null;
  return parts.join('');
}

/** The model from pack/manifest.json (written by site/pack.mjs); series data arrives per chart via ensureSeries. */
function modelFromPack(manifest, base) {
  const r = manifest.runs;
  const runs = r.commitId.map((commitId, i) => ({
    key: `${commitId}#${i}`, commitId, message: r.message[i] ?? '', author: r.author[i] ?? '', timestamp: r.timestamp[i] ?? null,
    url: r.url[i] ?? null, date: r.date[i], index: i, profile: r.profile?.[i] ?? null,
  }));
  const series = new Map();
  for (const s of manifest.series) {
    const l = s.last;
    const entry = {
      key: s.key, ...parseSeriesKey(s.key), suite: s.suite, direction: s.direction, unit: s.unit,
      runIdx: [l.runIdx], values: [l.value], range: [l.range], extra: [l.extra], chunk: `${base}pack/${s.file}`,
    };
    // A pack written before profiles were recorded knows only the newest point's.
    entry.profiles = Array.isArray(s.profiles) ? s.profiles : seriesProfiles(entry);
    series.set(s.key, entry);
  }
  return { runs, series, repoUrl: manifest.repoUrl ?? null, lastUpdate: manifest.lastUpdate, warnings: [...(manifest.warnings ?? [])], packed: true };
}

/** Makes sure the full history of these series is in memory (a no-op unless the model came from a pack). */
export async function ensureSeries(model, seriesList) {
  const files = [...new Set(seriesList.filter((s) => s.chunk).map((s) => s.chunk))];
  await Promise.all(files.map(async (file) => {
    model.chunks ??= new Map();
    if (!model.chunks.has(file)) {
      model.chunks.set(file, fetch(file).then(async (res) => {
        if (!res.ok) throw new Error(`${file}: HTTP ${res.status}`);
        const chunk = await res.json();
        for (const [key, cols] of Object.entries(chunk.series)) {
          const s = model.series.get(key);
          if (!s) continue;
          Object.assign(s, { runIdx: cols.runIdx, values: cols.values, range: cols.range, extra: cols.extra });
          delete s.chunk;
        }
      }));
    }
    await model.chunks.get(file);
  }));
}

/**
 * Loads everything under base (e.g. "dev/bench/"). Throws HistoryError when data.js is absent or unusable.
 * When pack/manifest.json exists and was packed from this very data.js (same lastUpdate, read from data.js's first
 * chunk), the rest of data.js is not downloaded: charts then load their own small file on demand.
 */
export async function loadHistory(base) {
  // The optional files are small: ask for them at once, alongside data.js and the pack manifest.
  const optionalWarnings = [];
  const optional = Promise.all([
    optionalJson(`${base}index.json`, optionalWarnings, (j) => Array.isArray(j.runs)),
    optionalJson(`${base}latest.json`, optionalWarnings, (j) => Array.isArray(j.cells) && isObject(j.commit)),
    optionalJson(`${base}analysis.json`, optionalWarnings, (j) => isObject(j.series) || Array.isArray(j.regressions)),
  ]);
  const res = await fetchText(`${base}data.js`, prefetched(base, 'dataJs', `${base}data.js`));
  if (res.status === 404) {
    throw new HistoryError('No benchmark history yet', `${base}data.js does not exist. Run \`./bench run\` and \`./bench history append\` (or let CI publish to gh-pages), then reload.`);
  }
  if (!res.ok) throw new HistoryError(`Could not load ${base}data.js`, `HTTP ${res.status} ${res.statusText}.`);
  const timings = { response: performance.now() };
  const manifestPromise = prefetched(base, 'manifest', `${base}pack/manifest.json`)
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  const packWarnings = [];
  let manifest = null;
  const text = await readBody(res, async (head) => {
    const m = await manifestPromise;
    if (!m || !Array.isArray(m.series) || !m.runs || !Array.isArray(m.runs.commitId)) return false;
    const lastUpdate = LAST_UPDATE.exec(head);
    if (lastUpdate && Number(lastUpdate[1]) === m.dataJs?.lastUpdate) {
      manifest = m;
      return true;
    }
    packWarnings.push('pack/manifest.json was not made from the current data.js (run `node site/pack.mjs <history>` again); reading data.js instead.');
    return false;
  });
  timings.text = performance.now();
  let model;
  if (manifest) {
    model = modelFromPack(manifest, base);
    timings.parse = timings.model = performance.now();
  } else {
    const data = parseDataJs(text);
    timings.parse = performance.now();
    model = buildModel(data);
    timings.model = performance.now();
    model.bytes = text.length;
  }
  model.timings = timings;
  model.warnings.push(...packWarnings);
  const [index, latest, analysis] = await optional;
  model.warnings.push(...optionalWarnings);
  model.index = index;
  model.latest = latest;
  // Files latest.json names (flame graphs) are relative to the history directory, not to the page.
  model.base = base;
  model.analysis = analysis;
  return model;
}

/** Run index of a commit in the model (its newest run when a commit was benchmarked more than once). */
export function runOfCommit(model, sha) {
  if (!sha) return -1;
  for (let i = model.runs.length - 1; i >= 0; i--) {
    const id = model.runs[i].commitId;
    if (id === sha || (sha.length >= 7 && id.startsWith(sha))) return i;
  }
  return -1;
}

/**
 * The history's profiles, the one used most recently first: element 0 is the newest run's profile, which the
 * overview shows and the trends default to. From the runs and each series' profiles, so a packed history knows its
 * profiles before any chart loads its points.
 */
export function profilesOf(model) {
  if (model.profileList) return model.profileList;
  const lastRun = new Map();
  const seen = (profile, run) => { if (profile && !(lastRun.get(profile) >= run)) lastRun.set(profile, run); };
  for (const run of model.runs) seen(run.profile, run.index);
  for (const s of model.series.values()) {
    for (const profile of s.profiles ?? []) seen(profile, -1);
    const i = s.runIdx.length - 1;
    if (i >= 0) seen(pointProfile(s, i), s.runIdx[i]);
  }
  model.profileList = [...lastRun].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([profile]) => profile);
  return model.profileList;
}

/** The profile to plot: the one the URL asks for when the history has it, else the newest run's. */
export function activeProfile(model, requested) {
  const profiles = profilesOf(model);
  return profiles.includes(requested) ? requested : profiles[0] ?? UNKNOWN_PROFILE;
}

/**
 * Whether a series' point at a run (a marker, a listed change) belongs to a profile: exact once the series' points
 * are loaded, else by the run's profile (a packed history before its chart loads). A change whose run data.js does
 * not hold cannot be placed; it is kept only when the history has one profile (nothing to mix it with).
 */
export function inProfile(model, seriesKey, run, profile) {
  const s = model.series.get(seriesKey);
  const i = s && !s.chunk ? s.runIdx.lastIndexOf(run) : -1;
  const found = i >= 0 ? pointProfile(s, i) : model.runs[run]?.profile;
  return found ? found === profile : profilesOf(model).length <= 1;
}

/** Change points and flagged regressions as markers: [{seriesKey, run, kind, deltaPct, source}]. */
export function markersOf(model) {
  const markers = [];
  for (const [key, entry] of Object.entries(model.analysis?.series ?? {})) {
    const series = model.series.get(key);
    for (const cp of Array.isArray(entry?.changePoints) ? entry.changePoints : []) {
      let run = runOfCommit(model, cp.commit);
      if (run < 0 && series && Number.isInteger(cp.index) && cp.index >= 0 && cp.index < series.runIdx.length) run = series.runIdx[cp.index];
      if (run < 0) continue;
      markers.push({ seriesKey: key, run, kind: cp.kind === 'improvement' ? 'improvement' : 'regression', deltaPct: cp.deltaPct, source: 'change-point', commit: cp.commit });
    }
  }
  const latest = model.latest;
  const run = latest ? runOfCommit(model, latest.commit?.id) : -1;
  // A latest.json whose commit data.js does not hold (yet) has nothing to mark on the charts.
  if (latest && run >= 0) {
    for (const cell of latest.cells) {
      if (!isObject(cell?.metrics)) continue;
      for (const [metric, m] of Object.entries(cell.metrics)) {
        if (m?.verdict !== 'regression' && m?.verdict !== 'improvement') continue;
        markers.push({
          seriesKey: `${cell.variant}/${cell.scenario}/${cell.regime}/${metric}`, run, kind: m.verdict, deltaPct: m.deltaPct,
          source: 'latest-run', commit: latest.commit.id,
        });
      }
    }
  }
  return markers;
}

/** Every detected change, newest first: analysis.json's list plus the newest run's flagged verdicts. */
export function changesOf(model) {
  const list = [];
  for (const r of Array.isArray(model.analysis?.regressions) ? model.analysis.regressions : []) {
    if (!isObject(r) || typeof r.series !== 'string') continue;
    list.push({ series: r.series, commit: String(r.commit ?? ''), date: Date.parse(r.date), deltaPct: r.deltaPct, kind: r.kind === 'improvement' ? 'improvement' : 'regression', source: r.source ?? 'change-point' });
  }
  const latest = model.latest;
  if (latest) {
    const date = Date.parse(latest.commit?.timestamp ?? '') || model.runs[runOfCommit(model, latest.commit?.id)]?.date;
    for (const cell of latest.cells) {
      for (const [metric, m] of Object.entries(isObject(cell?.metrics) ? cell.metrics : {})) {
        if (m?.verdict !== 'regression' && m?.verdict !== 'improvement') continue;
        list.push({ series: `${cell.variant}/${cell.scenario}/${cell.regime}/${metric}`, commit: String(latest.commit.id ?? ''), date, deltaPct: m.deltaPct, kind: m.verdict, source: 'latest run vs previous' });
      }
    }
  }
  return list.sort((a, b) => (b.date || 0) - (a.date || 0));
}
