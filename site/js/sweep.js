// Seed 004's concurrency sweep in the newest run: for a scenario measured at several users-N steps (a closed model
// each, the runner's `users-<N>` regimes), one line chart per measure — throughput and p99 — with a line per variant
// across the steps, so the knee shows: where more users stop adding requests and start adding latency. Points carry
// the runner's 95 % interval as whiskers when it wrote one; a failed step is a gap with a ✗, never a zero.
import { h } from './dom.js';
import { admits } from './state.js';
import { formatNumber, formatValue, metricLabel, variantLabel } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const STEP = /^users-([1-9][0-9]*)$/;
const MEASURES = ['throughput', 'latency_p99'];
const W = 320;
const H = 180;
const PAD = { left: 48, right: 10, top: 10, bottom: 28 };

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v != null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

/** users-N → N, or null for any other regime. */
export function sweepUsers(regime) {
  const m = STEP.exec(String(regime ?? ''));
  return m ? Number(m[1]) : null;
}

function chart(scenario, metric, steps, variants, cellOf) {
  const points = [];
  for (const [vi, v] of variants.entries()) {
    for (const [si, users] of steps.entries()) {
      const c = cellOf(v, users);
      const m = c?.status === 'ok' ? c.metrics[metric] : null;
      if (m && Number.isFinite(m.value)) points.push({ v, vi, si, users, m, steady: c.steady });
    }
  }
  if (!points.length) return null;
  const top = Math.max(...points.map((p) => (Array.isArray(p.m.ci95) && Number.isFinite(p.m.ci95[1]) ? Math.max(p.m.value, p.m.ci95[1]) : p.m.value)));
  const yMax = top > 0 ? top * 1.1 : 1;
  const x = (si) => PAD.left + (steps.length === 1 ? (W - PAD.left - PAD.right) / 2 : (si / (steps.length - 1)) * (W - PAD.left - PAD.right));
  const y = (value) => H - PAD.bottom - (value / yMax) * (H - PAD.top - PAD.bottom);
  const unit = points[0].m.unit ?? '';
  const grid = [0, 0.5, 1].map((f) => svg('g', { class: 'grid' },
    svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(yMax * f), y2: y(yMax * f) }),
    svg('text', { x: PAD.left - 4, y: y(yMax * f) + 4, 'text-anchor': 'end' }, formatNumber(yMax * f))));
  const ticks = steps.map((users, si) => svg('text', { class: 'tick', x: x(si), y: H - PAD.bottom + 14, 'text-anchor': 'middle' }, String(users)));
  const series = variants.map((v, vi) => {
    const own = points.filter((p) => p.v === v);
    const failed = steps.map((users, si) => ({ users, si, c: cellOf(v, users) })).filter((s) => s.c?.status === 'failed');
    return svg('g', { class: `sweep-series series-${vi % 8}`, 'data-variant': v },
      own.length > 1 ? svg('polyline', { points: own.map((p) => `${x(p.si)},${y(p.m.value)}`).join(' ') }) : null,
      own.map((p) => svg('g', { class: 'sweep-point', 'data-users': p.users, 'data-value': p.m.value, 'data-steady': String(p.steady !== false) },
        Array.isArray(p.m.ci95) && p.m.ci95.every(Number.isFinite)
          ? svg('line', { class: 'whisker', x1: x(p.si), x2: x(p.si), y1: y(p.m.ci95[0]), y2: y(p.m.ci95[1]) }) : null,
        svg('circle', { cx: x(p.si), cy: y(p.m.value), r: p.steady === false ? 4 : 3, class: p.steady === false ? 'unsteady' : null },
          svg('title', null, `${variantLabel(v)}, ${p.users} users: ${formatValue(p.m.value, p.m.unit)}`
            + `${Array.isArray(p.m.ci95) ? ` (95 % CI ${formatNumber(p.m.ci95[0])}–${formatNumber(p.m.ci95[1])})` : ''}`
            + `${p.m.n != null ? `, n=${p.m.n}` : ''}${p.steady === false ? ', unsteady' : ''}`)))),
      failed.map((s) => svg('text', { class: 'sweep-failed', x: x(s.si), y: H - PAD.bottom - 4, 'text-anchor': 'middle', 'data-users': s.users },
        '✗', svg('title', null, `${variantLabel(v)}, ${s.users} users: failed — ${String(s.c.reason ?? '').slice(0, 200)}`))));
  });
  return h('figure', { class: 'sweep-chart', id: `sweep-${scenario}-${metric}` },
    h('figcaption', null, h('strong', null, `${metricLabel(metric)}${unit ? ` (${unit})` : ''}`),
      h('span', { class: 'chart-sub' }, 'per number of concurrent users · whiskers: 95 % CI where the run has one · larger dot: unsteady')),
    svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${metricLabel(metric)} of ${scenario} per number of users` },
      grid, ticks, svg('text', { class: 'axis-label', x: (W + PAD.left) / 2, y: H - 2, 'text-anchor': 'middle' }, 'users'), series));
}

/** The sweep charts of the newest run, or null when it measured no users-N steps. */
export function sweepCharts(run, state, variants) {
  const byScenario = new Map();
  for (const c of run.cells.values()) {
    const users = sweepUsers(c.regime);
    if (users == null || !admits(state.scenarios, c.scenario) || !variants.includes(c.variant)) continue;
    if (!byScenario.has(c.scenario)) byScenario.set(c.scenario, new Map());
    byScenario.get(c.scenario).set(`${c.variant}|${users}`, c);
  }
  const sections = [];
  for (const [scenario, cells] of byScenario) {
    const steps = [...new Set([...cells.keys()].map((k) => Number(k.split('|')[1])))].sort((a, b) => a - b);
    const shown = variants.filter((v) => steps.some((u) => cells.has(`${v}|${u}`)));
    const charts = MEASURES.filter((m) => admits(state.metrics, m))
      .map((m) => chart(scenario, m, steps, shown, (v, u) => cells.get(`${v}|${u}`))).filter(Boolean);
    if (!charts.length) continue;
    sections.push(h('section', { class: 'sweep', dataset: { scenario } },
      h('h4', null, scenario, ' ', h('span', { class: 'regime-inline' }, `(${steps.join(', ')} users)`)),
      h('ul', { class: 'sweep-legend' }, shown.map((v, vi) => h('li', { class: `series-${vi % 8}`, dataset: { variant: v } }, variantLabel(v)))),
      h('div', { class: 'chart-grid' }, charts)));
  }
  return sections.length ? h('div', { id: 'sweep-charts' }, sections) : null;
}
