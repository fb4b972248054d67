// Overview: the newest run in the reference report's shape — scenario × measure × variant, variant × resources,
// startup per variant, and the environment. Values, spreads, deltas and verdicts are read from latest.json; with
// data.js alone the newest entry's values and spreads are shown and deltas/verdicts are marked unavailable.
import { h } from './dom.js';
import { scenarioBarCharts, startupBarCharts } from './bars.js';
import { sweepCharts } from './sweep.js';
import { admits } from './state.js';
import { pointSpread } from './history.js';
import { VERDICTS, byMetricPosition, differingKeys, firstLine, formatDate, formatNumber, formatPct, formatValue, inMetricTable, metricHeader, metricLabel, shortSha, variantInfoOf, variantLabel, variantOrder, variantTitle } from './format.js';

const BOUND = { database: 'db-bound', 'load-generator': 'load-generator-bound', unknown: 'bound: unknown', mixed: 'bound: mixed' };
/** The newest run as {source, commit, cells: Map("v|s|r" → cell), variants, startup, environment}. */
export function newestRun(model) {
  const latest = model.latest;
  if (latest) {
    const cells = new Map();
    for (const c of latest.cells) {
      if (!c || typeof c.variant !== 'string') continue;
      const metrics = {};
      for (const [metric, m] of Object.entries(c.metrics ?? {})) {
        if (!m || typeof m !== 'object') continue;
        // v2 (the runner's LatestJson): value, baseline {value, runs}, lowPct/highPct; v1: median, noiseBandPct.
        metrics[metric] = {
          value: m.value ?? m.median, unit: m.unit, n: m.n, spread: m.spreadPct != null ? `spread ${formatNumber(m.spreadPct)} %` : '',
          min: m.min, max: m.max, deltaPct: m.deltaPct, lowPct: m.lowPct, highPct: m.highPct, verdict: m.verdict,
          noiseBandPct: m.noiseBandPct, reason: m.reason, primary: m.primary === true, direction: m.direction, ci95: m.ci95,
          baseline: m.baseline ? { value: m.baseline.value ?? m.baseline.median, n: m.baseline.runs ?? m.baseline.n } : null,
          // Cell qualifiers, shown once per cell: on its throughput, the figure they qualify most.
          steady: metric !== 'throughput' || c.steady !== false, bottleneck: metric === 'throughput' ? c.bottleneck ?? null : null,
        };
      }
      cells.set(`${c.variant}|${c.scenario}|${c.regime}`, { variant: c.variant, scenario: c.scenario, regime: c.regime, status: c.status, reason: c.reason, steady: c.steady !== false, bottleneck: c.bottleneck ?? null, metrics, flameGraphs: flameGraphsOf(c, model.base ?? '') });
    }
    const startup = new Map();
    for (const v of Array.isArray(latest.variants) ? latest.variants : []) {
      const metrics = {};
      for (const [metric, m] of Object.entries(v?.startup ?? {})) {
        metrics[metric] = { value: m?.value ?? m?.median, unit: m?.unit ?? '', n: m?.n, ci95: m?.ci95, spread: m?.spreadPct != null ? `spread ${formatNumber(m.spreadPct)} %` : '', min: m?.min, max: m?.max };
      }
      startup.set(v.name, metrics);
    }
    return { source: 'latest.json', latest, cells, startup, environment: latest.environment ?? null };
  }
  // data.js only: the newest run's entry of every series.
  const last = model.runs.length - 1;
  const cells = new Map();
  const startup = new Map();
  const env = {};
  for (const s of model.series.values()) {
    const i = s.runIdx.length - 1;
    if (i < 0 || s.runIdx[i] !== last) continue;
    const spread = pointSpread(s, i);
    const entry = { value: s.values[i], unit: s.unit, n: spread.n, spread: spread.text, deltaPct: null, verdict: null };
    for (const token of (s.extra[i] ?? '').split(/\s+/)) {
      const [k, v] = token.split('=');
      if ((k === 'profile' || k === 'env') && v) env[k === 'env' ? 'fingerprint' : k] = v;
    }
    if (s.scenario === 'startup') {
      if (!startup.has(s.variant)) startup.set(s.variant, {});
      startup.get(s.variant)[s.metric] = entry;
      continue;
    }
    const key = `${s.variant}|${s.scenario}|${s.regime}`;
    if (!cells.has(key)) cells.set(key, { variant: s.variant, scenario: s.scenario, regime: s.regime, status: 'ok', reason: null, metrics: {} });
    cells.get(key).metrics[s.metric] = entry;
  }
  return { source: 'data.js', run: model.runs[last], cells, startup, environment: Object.keys(env).length ? env : null };
}

function valueCell(m, testid) {
  if (!m) return h('td', { class: 'na' }, '—');
  const verdict = m.verdict ? VERDICTS[m.verdict] ?? { symbol: '', label: m.verdict } : null;
  const title = [
    m.min != null && m.max != null ? `min ${formatNumber(m.min)} – max ${formatNumber(m.max)}` : null,
    m.baseline ? `previous: ${formatValue(m.baseline.value, m.unit)} (n=${m.baseline.n})` : null,
    m.lowPct != null && m.highPct != null ? `change ${formatPct(m.lowPct)} … ${formatPct(m.highPct)}` : null,
    m.noiseBandPct != null ? `noise band ± ${formatNumber(m.noiseBandPct)} %` : null,
    m.reason ? String(m.reason) : null,
    m.bottleneck ? `bound by ${m.bottleneck}` : null,
  ].filter(Boolean).join('; ');
  // What bound the cell and whether it was measured in steady state, next to the number they qualify.
  const bound = m.bottleneck && m.bottleneck !== 'service' && m.bottleneck !== 'none' ? BOUND[m.bottleneck] ?? `${m.bottleneck}-bound` : null;
  return h('td', { class: 'cell', dataset: { verdict: m.verdict ?? 'none', testid }, title: title || null },
    h('span', { class: 'value' }, formatValue(m.value, m.unit)),
    h('span', { class: 'meta' }, [m.n != null ? `n=${m.n}` : null, m.spread || null].filter(Boolean).join(' · ')),
    bound || m.steady === false
      ? h('span', { class: 'qualifiers' },
        bound ? h('span', { class: 'bound', title: `the ${m.bottleneck}, not the service, was at its limit: compare CPU and allocation per request` }, bound) : null,
        m.steady === false ? h('span', { class: 'unsteady', title: 'not steady: the warmup reached its cap, the compilers were busy in the windows, or (latency regime) the queue grew or drained through them' }, 'unsteady') : null)
      : null,
    m.deltaPct != null || m.verdict
      ? h('span', { class: 'delta' },
        m.deltaPct != null ? `${formatPct(m.deltaPct)} ` : '',
        verdict ? h('span', { class: `verdict verdict-${m.verdict}` }, `${verdict.symbol} ${verdict.label}`) : h('span', { class: 'verdict' }, 'no verdict'))
      : null);
}

function scenarioRows(run, state, variants) {
  const groups = new Map();
  for (const cell of run.cells.values()) {
    if (!admits(state.scenarios, cell.scenario)) continue;
    const key = `${cell.scenario}|${cell.regime}`;
    if (!groups.has(key)) groups.set(key, { scenario: cell.scenario, regime: cell.regime, byVariant: new Map() });
    groups.get(key).byVariant.set(cell.variant, cell);
  }
  return [...groups.values()];
}

/**
 * A group's metrics in one table, in catalogue order (benchmarks.json places each one: its `tables`). The page shows
 * each value once: a metric of both tables (CPU and allocation per request) is in the resources table. The measures
 * table also shows what no table claims, so that nothing a run measured is hidden.
 */
function measuresOf(group, resources) {
  const present = new Set();
  for (const cell of group.byVariant.values()) for (const m of Object.keys(cell.metrics)) present.add(m);
  const shown = [...present].filter((m) => inMetricTable(m, 'resources') === resources);
  return shown.sort(byMetricPosition);
}

/** Failure reasons can carry a log tail: the cell shows the start, the tooltip all of it. */
function shortReason(reason) {
  const text = String(reason ?? '');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function failedCell(cell) {
  return h('td', { class: 'cell failed', dataset: { verdict: 'failed' }, title: cell.reason ?? null },
    h('span', { class: 'verdict verdict-failed' }, '✗ failed'), h('span', { class: 'meta reason' }, shortReason(cell.reason)));
}

/** A cell never begun (no runtime on the runner, no budget left): no number and no failure, with why. */
function notMeasuredCell(cell) {
  return h('td', { class: 'cell not-measured', dataset: { verdict: 'not-measured' }, title: cell.reason ?? null },
    h('span', { class: 'verdict verdict-not-measured' }, '– not measured'), h('span', { class: 'meta reason' }, shortReason(cell.reason)));
}

/** A cell without numbers, as its status says; null for a measured one. */
const unmeasured = (cell) => (cell?.status === 'failed' ? failedCell(cell) : cell?.status === 'not-measured' ? notMeasuredCell(cell) : null);

/**
 * latest.json's flame-graph links of a cell: paths in the history (the runner's --flamegraphs, kept by `history
 * append`), resolved against the history's base. Only relative paths inside it are linked.
 */
function flameGraphsOf(c, base) {
  const g = c?.flameGraphs;
  const inside = (p) => typeof p === 'string' && /^flamegraphs\/[A-Za-z0-9._\/-]+\.html$/.test(p) && !p.includes('..');
  return g && inside(g.cpu) && inside(g.alloc) ? { cpu: base + g.cpu, alloc: base + g.alloc } : null;
}

/** The row under a scenario's measures: each variant's CPU and allocation flame graphs of the newest run. */
function flameGraphRow(group, variants) {
  return h('tr', { class: 'flamegraphs' },
    h('th', { scope: 'row' }, 'Flame graphs', h('span', { class: 'metric-id' }, 'profiling window')),
    variants.map((v) => {
      const graphs = group.byVariant.get(v)?.flameGraphs;
      if (!graphs) return h('td', { class: 'cell', title: 'no flame graphs for this cell in the newest run' }, '—');
      const testid = `${v}/${group.scenario}/${group.regime}/flamegraphs`;
      return h('td', { class: 'cell', dataset: { testid } },
        h('a', { href: graphs.cpu, target: '_blank', rel: 'noopener', class: 'flamegraph-cpu' }, 'CPU'), ' · ',
        h('a', { href: graphs.alloc, target: '_blank', rel: 'noopener', class: 'flamegraph-alloc' }, 'allocation'));
    }));
}

function measuresTable(run, state, variants) {
  const rows = [];
  for (const group of scenarioRows(run, state, variants)) {
    const measures = measuresOf(group, false).filter((m) => admits(state.metrics, m));
    const anyFailed = variants.some((v) => ['failed', 'not-measured'].includes(group.byVariant.get(v)?.status));
    const lines = measures.length ? measures : anyFailed ? ['—'] : [];
    const graphs = lines.length > 0 && variants.some((v) => group.byVariant.get(v)?.flameGraphs);
    lines.forEach((metric, i) => {
      rows.push(h('tr', null,
        i === 0 ? h('th', { scope: 'rowgroup', rowspan: lines.length + (graphs ? 1 : 0), class: 'scenario' }, group.scenario, h('span', { class: 'regime' }, group.regime)) : null,
        h('th', { scope: 'row' }, metric === '—' ? '' : metricLabel(metric), metric !== '—' ? h('span', { class: 'metric-id' }, metric) : null),
        variants.map((v) => {
          const cell = group.byVariant.get(v);
          const without = unmeasured(cell);
          if (without) return without;
          return valueCell(cell?.metrics[metric], `${v}/${group.scenario}/${group.regime}/${metric}`);
        })));
    });
    if (graphs) rows.push(flameGraphRow(group, variants));
  }
  if (!rows.length) return h('p', { class: 'empty' }, 'No scenario matches the filters.');
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Scenarios and measures' },
    h('table', { class: 'compare', id: 'table-measures' },
      h('caption', null, 'Scenarios & measures (value over the starts of the newest run; change and verdict against the history)'),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Scenario'), h('th', { scope: 'col' }, 'Measure'), variants.map((v) => h('th', { scope: 'col', title: variantTitle(v) }, variantLabel(v))))),
      h('tbody', null, rows)));
}

function resourcesTable(run, state, variants) {
  const tables = [];
  for (const group of scenarioRows(run, state, variants)) {
    const measures = measuresOf(group, true).filter((m) => admits(state.metrics, m));
    if (!measures.length) continue;
    tables.push(h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': `Resources, ${group.scenario} ${group.regime}` },
      h('table', { class: 'compare resources' },
        h('caption', null, `Resources — ${group.scenario} (${group.regime})`),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Variant'), measures.map((m) => h('th', { scope: 'col', title: metricLabel(m) }, metricHeader(m))))),
        h('tbody', null, variants.filter((v) => group.byVariant.has(v)).map((v) => {
          const cell = group.byVariant.get(v);
          return h('tr', null, h('th', { scope: 'row' }, variantLabel(v)),
            cell.status === 'failed' ? h('td', { colspan: measures.length, class: 'cell failed', title: cell.reason ?? null }, `✗ failed: ${shortReason(cell.reason)}`)
              : cell.status === 'not-measured' ? h('td', { colspan: measures.length, class: 'cell not-measured', title: cell.reason ?? null }, `– not measured: ${shortReason(cell.reason)}`)
              : measures.map((m) => valueCell(cell.metrics[m], `${v}/${group.scenario}/${group.regime}/${m}`)));
        })))));
  }
  return tables.length ? tables : [h('p', { class: 'empty' }, 'No resource measures for the selected scenarios and metrics.')];
}

function startupTable(run, variants) {
  const metrics = [...new Set([...run.startup.values()].flatMap((m) => Object.keys(m)))];
  const shown = variants.filter((v) => run.startup.has(v));
  if (!metrics.length || !shown.length) return h('p', { class: 'empty' }, 'No startup measures in the newest run.');
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Startup' },
    h('table', { class: 'compare', id: 'table-startup' },
      h('caption', null, 'Startup per variant'),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Variant'), metrics.map((m) => h('th', { scope: 'col' }, metricLabel(m))))),
      h('tbody', null, shown.map((v) => h('tr', null, h('th', { scope: 'row' }, variantLabel(v)),
        metrics.map((m) => valueCell(run.startup.get(v)[m], `${v}/startup/-/${m}`)))))));
}

/** What each shown variant is (benchmarks.json as the newest run recorded it): label, description, classification. */
function variantsTable(variants) {
  const described = variants.filter((v) => variantInfoOf(v));
  if (!described.length) return h('p', { class: 'empty' }, 'The history does not describe its variants (runs written before run.json recorded them).');
  const keys = [...new Set(described.flatMap((v) => Object.keys(variantInfoOf(v).classification)))];
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Variants' },
    h('table', { class: 'compare', id: 'table-variants' },
      h('caption', null, 'Variants as benchmarks.json describes them'),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Variant'), h('th', { scope: 'col' }, 'What it is'), keys.map((k) => h('th', { scope: 'col' }, k)))),
      h('tbody', null, described.map((v) => h('tr', { dataset: { variant: v } }, h('th', { scope: 'row' }, variantLabel(v), h('span', { class: 'metric-id' }, v)),
        h('td', null, variantInfoOf(v).description), keys.map((k) => h('td', null, variantInfoOf(v).classification[k] ?? '—')))))));
}

function environmentList(env) {
  if (!env) return h('p', { class: 'empty' }, 'The history does not record the environment.');
  const rows = Object.entries(env).map(([k, v]) => {
    let text = v;
    if (v && typeof v === 'object') text = Object.entries(v).map(([a, b]) => `${a} → ${b}`).join(', ');
    if (v == null) text = '—';
    return [h('dt', null, k), h('dd', null, String(text))];
  });
  return h('dl', { class: 'env', id: 'environment' }, rows);
}

/** A commit's short hash, linked when the history knows its URL (local histories often do not). */
function commitRef(sha, url) {
  return url ? h('a', { href: url, rel: 'noopener' }, shortSha(sha)) : h('code', null, shortSha(sha));
}

function runHeader(model, run) {
  if (run.source === 'latest.json') {
    const l = run.latest;
    const base = l.baseline;
    return h('p', { class: 'run-summary' },
      'Run ', h('code', null, String(l.runId ?? '')), ' (profile ', String(l.profile ?? '?'), ') of commit ',
      commitRef(l.commit?.id, l.commit?.url), ' ', h('q', { class: 'commit-message' }, firstLine(l.commit?.message)),
      ' by ', h('span', { class: 'author' }, String(l.commit?.author ?? '')), ', ', formatDate(Date.parse(l.commit?.timestamp ?? '')), '. ',
      base ? ['Compared with run ', h('code', null, String(base.runId ?? '')), ' (commit ', shortSha(base.commit?.id), ').'] : 'No comparable previous run: deltas and verdicts are not available.');
  }
  const r = run.run;
  return [
    h('p', { class: 'run-summary' }, 'Newest entry of data.js: commit ', commitRef(r.commitId, r.url), ' ',
      h('q', { class: 'commit-message' }, firstLine(r.message)), ' by ', h('span', { class: 'author' }, r.author), ', ', formatDate(r.date), '.'),
    h('p', { class: 'note' }, 'This history has no latest.json, so deltas and verdicts against the previous run are not shown (the site computes no statistics of its own).'),
  ];
}

/**
 * The answer first: per scenario (capacity regime), which variant needs the least service CPU per request and how
 * many times that the others need, from the newest run's values; with each the figure's spread over starts, and
 * "one start each: indicative" when that is all there is. CPU per request, not throughput: on a small runner the
 * database or the load generator often holds the throughput (the cells say which), while CPU per request is the
 * stack's own cost whatever bound the cell.
 */
function summarySentences(run, state, variants) {
  const items = [];
  const scenarios = [...new Set([...run.cells.values()].map((c) => c.scenario))];
  for (const scenario of scenarios) {
    if (!admits(state.scenarios, scenario)) continue;
    const cells = variants.map((v) => run.cells.get(`${v}|${scenario}|capacity`))
      .filter((c) => c && c.status === 'ok' && Number.isFinite(c.metrics.cpu_us_per_req?.value) && c.metrics.cpu_us_per_req.value > 0)
      .sort((a, b) => a.metrics.cpu_us_per_req.value - b.metrics.cpu_us_per_req.value);
    if (cells.length < 2) continue;
    const best = cells[0].metrics.cpu_us_per_req;
    const single = cells.every((c) => (c.metrics.cpu_us_per_req.n ?? 1) < 2);
    items.push(h('li', { dataset: { scenario } },
      h('strong', null, scenario), ': ', variantLabel(cells[0].variant), ' needs the least CPU per request (',
      formatValue(best.value, best.unit),
      // The interval the runner wrote for that cell, when it wrote one (the site computes none of its own).
      Array.isArray(best.ci95) ? `, 95 % CI ${formatNumber(best.ci95[0])}–${formatNumber(best.ci95[1])}` : '', ')',
      cells.slice(1).map((c) => [', ', variantLabel(c.variant), ' ',
        h('span', { class: 'ratio' }, `${(c.metrics.cpu_us_per_req.value / best.value).toFixed(1)}×`),
        ratioInterval(run, scenario, cells[0].variant, c.variant), differsNote(cells[0].variant, c.variant)]),
      single ? ' — one start each: indicative' : ` — values over ${best.n} starts, spread in the table`, '.',
      heldFixedList(run, scenario, variants)));
  }
  return items.length ? h('ul', { class: 'answer', id: 'answer' }, items) : null;
}

/**
 * Under a scenario's sentence, when the run's variants read through more than one data access: the runner's ratios
 * with it held fixed ("with dataAccess jdbc: …") and of it alone, in variants alike in all else (latest.json
 * `comparisons` of kind within and along; the site groups nothing itself). Only comparisons whose variants are all shown.
 */
function heldFixedList(run, scenario, variants) {
  const shown = new Set(variants);
  const items = (Array.isArray(run.latest?.comparisons) ? run.latest.comparisons : [])
    .filter((c) => c && c.scenario === scenario && c.metric === 'cpu_us_per_req' && (c.kind === 'within' || c.kind === 'along')
      && Array.isArray(c.ratios) && shown.has(c.best) && c.ratios.every((r) => r && shown.has(r.variant)))
    .map((c) => h('li', { class: `held-${c.kind}`, dataset: { kind: c.kind } },
      c.kind === 'within' ? ['with ', String(c.key), ' ', h('code', null, String(c.value)), ': ', variantLabel(c.best), ' needs the least']
        : [String(c.key), ' alone (all else alike): ', variantLabel(c.best), ' needs the least'],
      c.ratios.map((r) => [', ', variantLabel(r.variant), ' ', h('span', { class: 'ratio' }, `${Number(r.ratio).toFixed(1)}×`),
        intervalOf(r, r.variant), differsNote(c.best, r.variant)])));
  return items.length ? h('ul', { class: 'held-fixed' }, items) : null;
}

/** Seed 004's concurrency sweep, when the newest run measured users-N steps. */
function sweepSection(run, state, variants) {
  const charts = sweepCharts(run, state, variants);
  return charts ? [h('h3', null, 'Concurrency sweep: throughput and p99 per number of users'), charts] : [];
}

/** " [framework, server, dataAccess]": every key the ratio compares besides the stack it names, or nothing. */
function differsNote(best, variant) {
  const keys = differingKeys(best, variant);
  return keys.length ? h('span', { class: 'differs', dataset: { variant }, title: 'classification keys that differ' },
    ` [${keys.join(', ')}]`) : null;
}

/**
 * The runner's 95 % interval of one ratio (latest.json `comparisons`, run.json's CpuComparisons), when it wrote one for
 * this pair: " (95 % CI 1.9–2.4×)", flagged when it rests on one start's windows only. The site computes none itself.
 */
function ratioInterval(run, scenario, best, variant) {
  const cmp = (Array.isArray(run.latest?.comparisons) ? run.latest.comparisons : [])
    .find((c) => c && c.scenario === scenario && c.regime === 'capacity' && c.metric === 'cpu_us_per_req' && c.best === best
      && (c.kind ?? 'across') === 'across');
  const r = Array.isArray(cmp?.ratios) ? cmp.ratios.find((x) => x && x.variant === variant) : null;
  return intervalOf(r, variant);
}

/** " (95 % CI 1.9–2.4×)" of one ratio the runner wrote, or nothing when it wrote no interval. */
function intervalOf(r, variant) {
  if (!r || !Array.isArray(r.ci95) || r.ci95.length !== 2 || !r.ci95.every(Number.isFinite)) return null;
  const within = r.ciCovers === 'within-one-start-only' ? ', one start only' : '';
  return h('span', { class: 'ratio-ci', dataset: { variant } }, ` (95 % CI ${r.ci95[0].toFixed(1)}–${r.ci95[1].toFixed(1)}×${within})`);
}

export function renderOverview(root, model, state) {
  const run = newestRun(model);
  const allVariants = [...new Set([...run.cells.values()].map((c) => c.variant).concat([...run.startup.keys()]))];
  const variants = orderVariants(allVariants).filter((v) => admits(state.variants, v));
  root.append(
    h('section', { 'aria-labelledby': 'h-overview', id: 'overview' },
      h('h2', { id: 'h-overview' }, 'Latest comparison'),
      summarySentences(run, state, variants),
      runHeader(model, run),
      h('h3', null, 'Primary measures, normalised to the best variant'),
      scenarioBarCharts(run, state, variants),
      ...sweepSection(run, state, variants),
      h('h3', null, 'Startup'),
      startupBarCharts(run, variants),
      // The full tables stay one click away: every value with its n, spread, delta and verdict.
      h('details', { class: 'full-tables', id: 'full-tables' },
        h('summary', null, 'Full tables: every measure with n, spread, change and verdict'),
        measuresTable(run, state, variants),
        h('h3', null, 'Resources'),
        resourcesTable(run, state, variants),
        h('h3', null, 'Startup'),
        startupTable(run, variants)),
      h('h3', null, 'Variants'),
      variantsTable(variants),
      h('h3', null, 'Environment'),
      environmentList(run.environment)));
}

/**
 * The runs' own order (the manifest's, see format.js), then names no run described in the order the data holds them
 * (data.js lists a run's series in manifest order too).
 */
export function orderVariants(names) {
  const known = variantOrder();
  const rank = (v) => (known.includes(v) ? known.indexOf(v) : known.length);
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b)); // stable: unknown names keep their order
}
