// Bar charts of the newest run: per scenario and regime, one chart per primary metric (latest.json marks them
// `primary`), a bar per variant normalised to the best variant (1× = best), with the whisker the data carries —
// the cell's 95 % confidence interval (`ci95`, written by the runner's ResultsWriter) when present, else the
// repetitions' min–max — and the cell's bottleneck and steady-state labels. Plain SVG: no chart library needed for
// a handful of bars, and it prints and scales.
import { h } from './dom.js';
import { admits } from './state.js';
import { formatNumber, formatValue, metricLabel, variantLabel, variantTitle } from './format.js';
import { sweepUsers } from './sweep.js';

const SVG = 'http://www.w3.org/2000/svg';
const BOUND_LABELS = { service: 'service-bound', database: 'db-bound', 'load-generator': 'load-generator-bound', mixed: 'bound: mixed', unknown: 'bound: unknown' };

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v != null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

/** The whisker the data gives for one value: its 95 % CI, or the min–max over the starts; null when it has neither. */
function whiskerOf(m) {
  if (Array.isArray(m.ci95) && m.ci95.length === 2 && m.ci95.every(Number.isFinite)) return { low: m.ci95[0], high: m.ci95[1], kind: 'ci95' };
  if (Number.isFinite(m.min) && Number.isFinite(m.max) && (m.n ?? 0) > 1) return { low: m.min, high: m.max, kind: 'min-max' };
  return null;
}

const WHISKER_TEXT = { ci95: '95 % CI', 'min-max': 'min–max over starts' };

/**
 * One chart: rows = [{variant, m (metric entry) | null, failed, reason, bottleneck, steady}], `smaller` = smaller is
 * better. Ratios are value / best; the axis runs from 0 to the largest ratio or whisker end.
 */
function barChart({ id, title, rows, smaller, note }) {
  const measured = rows.filter((r) => r.m && Number.isFinite(r.m.value) && r.m.value > 0);
  if (!measured.length) return null;
  const best = smaller ? Math.min(...measured.map((r) => r.m.value)) : Math.max(...measured.map((r) => r.m.value));
  const extent = Math.max(1, ...measured.map((r) => Math.max(r.m.value, whiskerOf(r.m)?.high ?? 0) / best));
  const x = (ratio) => (ratio / extent) * 100;
  const whiskerKinds = new Set();
  const body = rows.map((r) => {
    const label = h('span', { class: 'bar-label', title: variantTitle(r.variant) }, variantLabel(r.variant));
    if (r.failed || !r.m || !Number.isFinite(r.m.value)) {
      return h('div', { class: 'bar-row', dataset: { variant: r.variant, failed: String(Boolean(r.failed)) } }, label,
        h('span', { class: `bar-missing${r.failed ? ' verdict-failed' : ''}`, title: r.reason ?? null }, r.failed ? '✗ failed' : 'not measured'));
    }
    const m = r.m;
    const ratio = m.value / best;
    const w = whiskerOf(m);
    if (w) whiskerKinds.add(w.kind);
    const isBest = m.value === best;
    const track = svg('svg', { class: 'bar-track', viewBox: '0 0 100 12', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
      svg('rect', { class: isBest ? 'bar best' : 'bar', x: 0, y: 2, width: x(ratio), height: 8 }),
      svg('line', { class: 'bar-one', x1: x(1), x2: x(1), y1: 0, y2: 12, 'vector-effect': 'non-scaling-stroke' }),
      w ? svg('g', { class: 'whisker' },
        svg('line', { x1: x(w.low / best), x2: x(w.high / best), y1: 6, y2: 6, 'vector-effect': 'non-scaling-stroke' }),
        svg('line', { x1: x(w.low / best), x2: x(w.low / best), y1: 3, y2: 9, 'vector-effect': 'non-scaling-stroke' }),
        svg('line', { x1: x(w.high / best), x2: x(w.high / best), y1: 3, y2: 9, 'vector-effect': 'non-scaling-stroke' })) : null);
    const bound = r.bottleneck && r.bottleneck !== 'none' ? BOUND_LABELS[r.bottleneck] ?? `${r.bottleneck}-bound` : null;
    const title = [`${formatValue(m.value, m.unit)} = ${ratio.toFixed(2)}× the best`,
      w ? `${WHISKER_TEXT[w.kind]} ${formatValue(w.low, m.unit)} – ${formatValue(w.high, m.unit)}` : 'no interval in the data',
      m.n != null ? `n=${m.n}` : null].filter(Boolean).join('; ');
    return h('div', {
      class: 'bar-row', title, role: 'listitem',
      dataset: { variant: r.variant, ratio: ratio.toFixed(4), best: String(isBest), whisker: w?.kind ?? 'none',
        whiskerLow: w ? (w.low / best).toFixed(4) : null, whiskerHigh: w ? (w.high / best).toFixed(4) : null },
    },
    label, track,
    h('span', { class: 'bar-value' }, h('strong', null, `${ratio.toFixed(2)}×`), ' ', formatValue(m.value, m.unit),
      w ? h('span', { class: 'meta' }, `${WHISKER_TEXT[w.kind]} ${formatNumber(w.low)}–${formatNumber(w.high)}`) : null),
    bound || r.steady === false
      ? h('span', { class: 'qualifiers' },
        bound ? h('span', { class: 'bound', dataset: { bound: r.bottleneck } }, bound) : null,
        r.steady === false ? h('span', { class: 'unsteady', title: 'not steady: the warmup reached its cap, the JIT compilers were busy again in the measured windows, or (latency regime) the queue grew or drained through them (the reason per start is in run.json)' }, 'unsteady') : null)
      : null);
    // Per-cell links (e.g. the cell's flame graph) belong after the qualifiers of this row.
  });
  const whiskerNote = whiskerKinds.size ? `whiskers: ${[...whiskerKinds].map((k) => WHISKER_TEXT[k]).join(' or ')}` : 'no interval in the data';
  return h('figure', { class: 'bar-chart', id, dataset: { smaller: String(smaller) } },
    h('figcaption', null, h('strong', null, title), h('span', { class: 'chart-sub' },
      `${smaller ? 'smaller' : 'bigger'} is better · 1× = best · ${whiskerNote}${note ? ` · ${note}` : ''}`)),
    h('div', { class: 'bars', role: 'list' }, body));
}

/** Per scenario and regime, a chart for each primary metric the newest run has (latest.json only: it marks them). */
export function scenarioBarCharts(run, state, variants, idPrefix = 'bars') {
  const groups = new Map();
  for (const cell of run.cells.values()) {
    if (!admits(state.scenarios, cell.scenario) || !variants.includes(cell.variant)) continue;
    if (sweepUsers(cell.regime) != null) continue; // the sweep's steps have their own line charts (sweep.js)
    const key = `${cell.scenario}|${cell.regime}`;
    if (!groups.has(key)) groups.set(key, { scenario: cell.scenario, regime: cell.regime, cells: new Map() });
    groups.get(key).cells.set(cell.variant, cell);
  }
  const sections = [];
  for (const g of groups.values()) {
    const primary = [];
    for (const cell of g.cells.values()) {
      for (const [metric, m] of Object.entries(cell.metrics)) if (m.primary && !primary.includes(metric)) primary.push(metric);
    }
    const charts = primary.filter((metric) => admits(state.metrics, metric)).map((metric) => {
      const direction = [...g.cells.values()].map((c) => c.metrics[metric]?.direction).find(Boolean);
      return barChart({
        id: `${idPrefix}-${g.scenario}-${g.regime}-${metric}`,
        title: metricLabel(metric),
        smaller: direction === 'smaller',
        rows: variants.filter((v) => g.cells.has(v)).map((v) => {
          const c = g.cells.get(v);
          return { variant: v, m: c.metrics[metric] ?? null, failed: c.status === 'failed', reason: c.reason, bottleneck: c.bottleneck, steady: c.steady };
        }),
      });
    }).filter(Boolean);
    // A cell that failed (or was never begun) in a scenario nobody else measured has no chart to sit in: it still
    // says so.
    const failedAlone = charts.length ? [] : [...g.cells.values()].filter((c) => c.status === 'failed' || c.status === 'not-measured');
    if (charts.length || failedAlone.length) {
      sections.push(h('section', { class: 'scenario-bars', dataset: { scenario: g.scenario, regime: g.regime } },
        h('h4', null, g.scenario, ' ', h('span', { class: 'regime-inline' }, `(${g.regime})`)),
        charts.length ? h('div', { class: 'chart-grid' }, charts) : failedAlone.map((c) => h('p', { class: 'failed-cell', dataset: { variant: c.variant }, title: c.reason ?? null },
          c.status === 'failed' ? h('span', { class: 'verdict verdict-failed' }, '✗ failed') : h('span', { class: 'verdict verdict-not-measured' }, '– not measured'),
          ` ${variantLabel(c.variant)}: ${String(c.reason ?? '').slice(0, 200)}`))));
    }
  }
  if (!sections.length) {
    return h('p', { class: 'empty' }, run.source === 'latest.json'
      ? 'No primary measure in the newest run matches the filters.'
      : 'Bar charts need latest.json (it marks the primary measures and their direction); the tables below have the values.');
  }
  return h('div', { id: idPrefix === 'bars' ? 'bar-charts' : null, class: 'bar-charts' }, sections);
}

/**
 * Startup per variant, one chart per startup measure. Every startup measure (time to ready, RSS, heap, classes,
 * threads) costs: smaller is better. latest.json gives startup no direction, so this is the one assumption here.
 */
export function startupBarCharts(run, variants) {
  const metrics = [...new Set([...run.startup.values()].flatMap((m) => Object.keys(m)))];
  const charts = metrics.map((metric) => barChart({
    id: `bars-startup-${metric}`, title: metricLabel(metric), smaller: true,
    rows: variants.filter((v) => run.startup.get(v)?.[metric]).map((v) => ({ variant: v, m: run.startup.get(v)[metric] })),
  })).filter(Boolean);
  return charts.length ? h('div', { class: 'chart-grid', id: 'startup-charts' }, charts) : null;
}
