// Trends: one uPlot chart per (scenario, regime, metric) with a line per variant across commits, the noise band
// from each point's spread, and markers at change points and flagged regressions (both read from the data files).
// Charts are created when they scroll near the viewport, so a long history draws its first chart quickly.
import uPlot from '../vendor/uplot/uPlot.esm.js';
import { h, clear } from './dom.js';
import { admits, toHash } from './state.js';
import { activeProfile, ensureSeries, inProfile, pointProfile, pointSpread } from './history.js';
import { orderVariants } from './overview.js';
import { VERDICTS, byMetricPosition, firstLine, formatDate, formatNumber, formatPct, formatValue, metricLabel, shortSha, variantLabel } from './format.js';

// Okabe–Ito: distinguishable with the common colour-vision deficiencies; each line also gets its own dash pattern.
const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#F0E442'];
const DASHES = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [1, 2], [12, 6]];

const DASH_NAMES = ['solid', 'dashed', 'dotted', 'dashed', 'dashed', 'dotted', 'dashed'];

function isDark() {
  const theme = document.documentElement.dataset.theme;
  return theme ? theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export function variantStyle(model, variant) {
  const all = orderVariants([...model.series.values()].map((s) => s.variant));
  const i = Math.max(0, all.indexOf(variant)) % OKABE_ITO.length;
  // Okabe–Ito's blue is too dark on the dark background: swap it with the palette's sky blue there.
  const palette = isDark() ? ['#56B4E9', ...OKABE_ITO.slice(1, 5), '#0072B2', OKABE_ITO[6]] : OKABE_ITO;
  return { color: palette[i], dash: DASHES[i], dashName: DASH_NAMES[i] };
}

/**
 * Charts to draw for the current filters: [{id, scenario, regime, metric, unit, direction, series[]}]. A series with no
 * point in the shown profile has no line to draw, so it gets no legend entry and no chart of its own.
 */
export function groupsOf(model, state) {
  const groups = new Map();
  const profile = activeProfile(model, state.profile);
  for (const s of model.series.values()) {
    if (!admits(state.variants, s.variant) || !admits(state.scenarios, s.scenario) || !admits(state.metrics, s.metric)) continue;
    if (!s.profiles.includes(profile)) continue;
    const id = `${s.scenario}|${s.regime}|${s.metric}`;
    if (!groups.has(id)) groups.set(id, { id, scenario: s.scenario, regime: s.regime, metric: s.metric, unit: s.unit, direction: s.direction, series: [] });
    groups.get(id).series.push(s);
  }
  const scenarioOrder = [...new Set([...model.series.values()].map((s) => s.scenario))];
  const list = [...groups.values()];
  for (const g of list) {
    const order = orderVariants(g.series.map((s) => s.variant));
    g.series.sort((a, b) => order.indexOf(a.variant) - order.indexOf(b.variant));
  }
  return list.sort((a, b) => (a.scenario === 'startup') - (b.scenario === 'startup')
    || scenarioOrder.indexOf(a.scenario) - scenarioOrder.indexOf(b.scenario)
    || a.regime.localeCompare(b.regime) || byMetricPosition(a.metric, b.metric));
}

function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function withAlpha(hex, alpha) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}

/** Index of a series' point at a run in a profile, or -1 (the run is another profile's, or has no such point). */
function pointAt(s, run, profile) {
  for (let i = s.runIdx.indexOf(run); i >= 0 && s.runIdx[i] === run; i++) if (pointProfile(s, i) === profile) return i;
  return -1;
}

/**
 * uPlot's aligned data for a group: x = run positions (commit order) or run dates, then value/lo/hi per series.
 * Only the profile's points: smoke and full numbers on one line would look like a change where there is none, and
 * runs of other profiles get no x position (their commits still count in commit order, so zoom ranges keep meaning).
 */
function chartData(model, group, axis, profile) {
  const runSet = new Set();
  for (const s of group.series) for (let i = 0; i < s.runIdx.length; i++) if (pointProfile(s, i) === profile) runSet.add(s.runIdx[i]);
  const runs = [...runSet].sort((a, b) => a - b);
  const pos = new Map(runs.map((r, i) => [r, i]));
  const xs = runs.map((r) => (axis === 'date' ? model.runs[r].date / 1000 : r));
  const data = [xs];
  let points = 0;
  for (const s of group.series) {
    const v = new Array(runs.length).fill(null);
    const lo = new Array(runs.length).fill(null);
    const hi = new Array(runs.length).fill(null);
    for (let i = 0; i < s.runIdx.length; i++) {
      if (pointProfile(s, i) !== profile) continue;
      const p = pos.get(s.runIdx[i]);
      v[p] = s.values[i];
      const spread = pointSpread(s, i);
      lo[p] = spread.lo ?? s.values[i];
      hi[p] = spread.hi ?? s.values[i];
      points++;
    }
    data.push(v, lo, hi);
  }
  return { data, runs, pos, points };
}

const SHAPES = {
  regression(ctx, x, y, r) { ctx.moveTo(x, y - r * 1.2); ctx.lineTo(x + r, y + r * 0.8); ctx.lineTo(x - r, y + r * 0.8); ctx.closePath(); },
  improvement(ctx, x, y, r) { ctx.arc(x, y, r * 0.9, 0, Math.PI * 2); },
};

/** Controller of the trends view: creates charts lazily and keeps their x ranges, the URL and the cursor in sync. */
export class TrendsView {
  constructor(root, model, state, markers, onStateChange) {
    this.root = root;
    this.model = model;
    this.state = state;
    this.markers = markers;
    this.onStateChange = onStateChange;
    this.profile = activeProfile(model, state.profile);
    this.charts = [];
    this.syncing = false;
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) this.draw(e.target.closest('.chart-card')).catch(() => {});
    }, { rootMargin: '300px 0px' });
    this.resizer = new ResizeObserver((entries) => {
      for (const e of entries) {
        const u = e.target.uplot;
        if (u && e.contentRect.width > 0 && Math.abs(u.width - e.contentRect.width) > 2) u.setSize({ width: e.contentRect.width, height: u.height });
      }
    });
  }

  destroy() {
    this.observer.disconnect();
    this.resizer.disconnect();
    for (const u of this.charts) u.destroy();
    this.charts = [];
  }

  render() {
    const groups = groupsOf(this.model, this.state);
    const axisSwitch = h('fieldset', { class: 'axis-switch' }, h('legend', null, 'X axis'),
      ['commit', 'date'].map((axis) => h('label', null,
        h('input', { type: 'radio', name: 'axis', value: axis, checked: this.state.axis === axis, onchange: () => this.onStateChange({ axis, x: convertRange(this.model, this.state.x, this.state.axis, axis) }) }),
        axis === 'commit' ? ' commit order' : ' date')));
    const reset = h('button', { type: 'button', class: 'reset-zoom', onclick: () => this.setRange(null, null), disabled: !this.state.x }, 'Reset zoom');
    this.resetButton = reset;
    const help = h('p', { class: 'help' }, 'Drag across a chart to zoom (all charts follow); double-click, “Reset zoom” or Esc to reset. ',
      'On a focused chart: ←/→ step through commits, Shift+←/→ pan, +/− zoom, Enter pins the commit. Click a point to pin it.');
    const section = h('section', { id: 'trends', 'aria-labelledby': 'h-trends' },
      h('div', { class: 'trends-head' }, h('h2', { id: 'h-trends' }, 'Trends'), axisSwitch, reset), help);
    if (!groups.length) section.append(h('p', { class: 'empty', id: 'no-charts' }, 'No series match the filters.'));
    let focusCard = null;
    let lastScenario = null;
    groups.forEach((group, i) => {
      if (group.scenario !== lastScenario) {
        section.append(h('h3', { class: 'scenario-heading' }, group.scenario === 'startup' ? 'Startup' : `Scenario ${group.scenario}`));
        lastScenario = group.scenario;
      }
      const card = this.card(group, i);
      section.append(card);
      if (this.state.focus && group.series.some((s) => s.key === this.state.focus)) focusCard = card;
    });
    this.root.append(section);
    for (const card of section.querySelectorAll('.chart-card')) this.observer.observe(card.querySelector('.chart'));
    // The first chart is on screen anyway: start it now rather than on the observer's first callback.
    const first = section.querySelector('.chart-card');
    if (first && !focusCard) this.draw(first).catch(() => {});
    if (focusCard) {
      focusCard.classList.add('focused');
      focusCard.scrollIntoView({ block: 'start' });
      const at = this.state.at ? this.model.runs.findLastIndex((r) => r.commitId.startsWith(this.state.at)) : -1;
      if (at >= 0) this.pin(focusCard, at, this.state.focus);
      else this.draw(focusCard).catch(() => {});
    }
  }

  card(group, i) {
    // Change points are found within one profile; a marker from another profile's run has no point here.
    const markers = this.markers.filter((m) => group.series.some((s) => s.key === m.seriesKey) && inProfile(this.model, m.seriesKey, m.run, this.profile));
    const title = `${group.scenario === 'startup' ? 'startup' : `${group.scenario} · ${group.regime}`} — ${metricLabel(group.metric)}`;
    const card = h('article', { class: 'chart-card', id: `chart-${i}`, 'aria-labelledby': `chart-${i}-title` },
      h('h4', { id: `chart-${i}-title` }, title,
        h('span', { class: 'chart-sub' }, `${group.unit ? `${group.unit}, ` : ''}${group.direction === 'bigger' ? 'bigger' : 'smaller'} is better`)),
      h('ul', { class: 'legend' }, group.series.map((s) => {
        const st = variantStyle(this.model, s.variant);
        return h('li', null, h('span', { class: 'swatch', style: `--c:${st.color}`, dataset: { dash: st.dashName } }), variantLabel(s.variant));
      })),
      h('div', { class: 'chart', tabindex: 0, role: 'application', 'aria-label': `${title}: chart. Arrow keys step through commits, Enter pins.`, 'aria-describedby': `chart-${i}-pinned` }),
      h('div', { class: 'chart-tools' },
        h('button', { type: 'button', onclick: () => this.pan(card, -0.5), 'aria-label': 'Pan left' }, '◀'),
        h('button', { type: 'button', onclick: () => this.zoom(card, 0.5), 'aria-label': 'Zoom in' }, '+'),
        h('button', { type: 'button', onclick: () => this.zoom(card, 2), 'aria-label': 'Zoom out' }, '−'),
        h('button', { type: 'button', onclick: () => this.pan(card, 0.5), 'aria-label': 'Pan right' }, '▶')),
      h('p', { class: 'chart-error', hidden: true, role: 'alert' }),
      markers.length ? h('ul', { class: 'markers', 'aria-label': 'Detected changes in this chart' }, markers.map((m) => {
        const v = VERDICTS[m.kind];
        const run = this.model.runs[m.run];
        return h('li', { dataset: { kind: m.kind, testid: 'marker' } },
          h('button', { type: 'button', class: `marker-link verdict-${m.kind}`, onclick: () => this.pin(card, m.run, m.seriesKey) },
            `${v.symbol} ${v.label} ${formatPct(m.deltaPct)}`),
          ` ${variantLabel(m.seriesKey.split('/')[0])} at ${shortSha(run?.commitId)} (${formatDate(run?.date)}) — ${m.source === 'change-point' ? 'change point' : 'newest run vs previous'}`);
      })) : null,
      h('div', { class: 'pinned', id: `chart-${i}-pinned`, 'aria-live': 'polite' }));
    card.group = group;
    card.groupMarkers = markers;
    card.setAttribute('data-group', group.id);
    return card;
  }

  /** Creates the uPlot chart of a card once, after loading its series when they come from a pack; → Promise<uPlot>. */
  draw(card) {
    const phases = window.__restbench.firstChartPhases ??= { drawCalled: performance.now() };
    card.drawing ??= ensureSeries(this.model, card.group.series).then(() => {
      phases.seriesLoaded ??= performance.now();
      return this.create(card);
    }, (e) => {
      const error = card.querySelector('.chart-error');
      error.textContent = `This chart's data could not be loaded: ${e.message}`;
      error.hidden = false;
      throw e;
    });
    return card.drawing;
  }

  create(card) {
    if (card.uplot || !card.isConnected) return card.uplot;
    const { group } = card;
    const el = card.querySelector('.chart');
    const axis = this.state.axis;
    const { data, runs, pos, points } = chartData(this.model, group, axis, this.profile);
    window.__restbench.firstChartPhases.dataBuilt ??= performance.now();
    const fg = cssVar('--fg') || '#222';
    const grid = cssVar('--grid') || '#ddd';
    const series = [{ label: axis === 'date' ? 'date' : 'commit' }];
    const bands = [];
    group.series.forEach((s, i) => {
      const st = variantStyle(this.model, s.variant);
      series.push({ label: variantLabel(s.variant), stroke: st.color, width: 2, dash: st.dash, spanGaps: true, points: { show: runs.length <= 60, size: 5, fill: st.color } });
      series.push({ label: `${s.variant} low`, stroke: 'transparent', width: 0, points: { show: false }, spanGaps: true });
      series.push({ label: `${s.variant} high`, stroke: 'transparent', width: 0, points: { show: false }, spanGaps: true });
      bands.push({ series: [3 * i + 3, 3 * i + 2], fill: withAlpha(st.color, 0.16) });
    });
    const runsModel = this.model.runs;
    const profile = this.profile;
    const width = el.clientWidth || 600;
    const small = window.matchMedia('(max-width: 600px)').matches;
    const opts = {
      width,
      height: small ? 200 : 240,
      series,
      bands,
      legend: { show: false },
      // Dates in UTC, as in the tooltips and tables (runners and readers sit in different time zones).
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
      // A single run (or one commit in view) would collapse the x scale to nothing: pad it by a commit / a day.
      scales: {
        x: {
          time: axis === 'date',
          range: (u, min, max) => {
            const xs = u.data[0];
            const pad = axis === 'date' ? 86400 : 1;
            return xs.length === 1 ? [xs[0] - pad, xs[0] + pad] : min === max ? [min - pad, max + pad] : [min, max];
          },
        },
      },
      cursor: { drag: { x: true, y: false, setScale: true }, points: { size: 7 } },
      axes: [
        {
          stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 },
          ...(axis === 'commit' ? {
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000],
            // A commit measured in another profile has no point here: naming it under the axis would suggest one.
            values: (u, splits) => splits.map((x) => (Number.isInteger(x) && runsModel[x] && [null, profile].includes(runsModel[x].profile) ? shortSha(runsModel[x].commitId) : '')),
            space: 64,
          } : {}),
        },
        { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, size: 56, values: (u, splits) => splits.map((v) => formatNumber(v)) },
      ],
      hooks: {
        setCursor: [(u) => this.tooltip(card, u)],
        setScale: [(u, key) => { if (key === 'x') this.scaleChanged(u); }],
        draw: [(u) => {
          this.drawMarkers(card, u);
          if (!window.__restbench.firstChartMs) window.__restbench.firstChartMs = performance.now();
        }],
      },
    };
    // uPlot fires setScale while it initialises; that is not a user zoom and must not clear the URL's range.
    const wasSyncing = this.syncing;
    this.syncing = true;
    let u;
    try {
      u = new uPlot(opts, data, el);
      if (this.state.x) this.applyRange(u, this.state.x);
    } finally {
      this.syncing = wasSyncing;
    }
    u.runs = runs;
    u.pos = pos;
    card.uplot = u;
    el.uplot = u;
    this.charts.push(u);
    this.resizer.observe(el);
    card.dataset.points = String(points);
    card.dataset.drawn = 'true';
    const tip = h('div', { class: 'tooltip', hidden: true, role: 'tooltip' });
    u.over.append(tip);
    card.tip = tip;
    u.over.addEventListener('click', () => { if (u.cursor.idx != null && !u.select.width) this.pin(card, runs[u.cursor.idx]); });
    u.over.addEventListener('dblclick', () => this.setRange(null, null));
    el.addEventListener('keydown', (e) => this.key(card, e));
    return u;
  }

  drawMarkers(card, u) {
    const ctx = u.ctx;
    const { left, top, width, height } = u.bbox;
    const ratio = uPlot.pxRatio;
    let drawn = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    for (const m of card.groupMarkers) {
      const si = card.group.series.findIndex((s) => s.key === m.seriesKey);
      const p = u.pos.get(m.run);
      if (si < 0 || p == null) continue;
      const y = u.data[1 + 3 * si][p];
      if (y == null) continue;
      const cx = u.valToPos(u.data[0][p], 'x', true);
      const cy = u.valToPos(y, 'y', true);
      if (cx < left || cx > left + width) continue;
      const colour = m.kind === 'regression' ? cssVar('--bad') : cssVar('--good');
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5 * ratio;
      ctx.setLineDash(m.source === 'change-point' ? [4 * ratio, 3 * ratio] : [1 * ratio, 3 * ratio]);
      ctx.beginPath();
      ctx.moveTo(cx, top);
      ctx.lineTo(cx, top + height);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      SHAPES[m.kind](ctx, cx, cy, 7 * ratio);
      ctx.fillStyle = colour;
      ctx.fill();
      ctx.lineWidth = 2 * ratio;
      ctx.strokeStyle = cssVar('--bg') || '#fff';
      ctx.stroke();
      drawn++;
    }
    ctx.restore();
    card.dataset.markersDrawn = String(drawn);
  }

  tooltip(card, u) {
    const tip = card.tip;
    if (!tip) return;
    const idx = u.cursor.idx;
    if (idx == null || u.cursor.left < 0) {
      tip.hidden = true;
      return;
    }
    const run = this.model.runs[u.runs[idx]];
    const rows = card.group.series.map((s, i) => {
      const v = u.data[1 + 3 * i][idx];
      if (v == null) return null;
      const spread = pointSpread(s, pointAt(s, u.runs[idx], this.profile));
      return h('li', null, h('span', { class: 'swatch', style: `--c:${variantStyle(this.model, s.variant).color}` }),
        `${variantLabel(s.variant)}: ${formatValue(v, s.unit)}`, spread.text ? h('span', { class: 'meta' }, ` (${spread.n != null ? `n=${spread.n}, ` : ''}${spread.text})`) : null);
    });
    clear(tip).append(
      h('div', { class: 'tip-commit' }, h('code', null, shortSha(run.commitId)), ` ${formatDate(run.date)}`),
      h('div', { class: 'tip-message' }, firstLine(run.message)),
      h('div', { class: 'tip-author' }, run.author),
      h('ul', null, rows),
      h('div', { class: 'tip-hint' }, 'click to pin'));
    tip.hidden = false;
    const overW = u.over.clientWidth;
    const tw = tip.offsetWidth;
    const x = u.cursor.left + 14 + tw > overW ? Math.max(0, u.cursor.left - tw - 14) : u.cursor.left + 14;
    tip.style.left = `${x}px`;
    tip.style.top = `${Math.max(0, Math.min(u.cursor.top - 20, u.over.clientHeight - tip.offsetHeight))}px`;
  }

  /** Shows one commit's details under a chart, with the link to the commit, and records it in the URL. */
  async pin(card, runIndex, seriesKey) {
    const u = await this.draw(card);
    const run = this.model.runs[runIndex];
    if (!run) return;
    const pinned = card.querySelector('.pinned');
    const values = card.group.series.map((s) => {
      const i = pointAt(s, runIndex, this.profile);
      if (i < 0) return null;
      const spread = pointSpread(s, i);
      return h('li', null, h('span', { class: 'swatch', style: `--c:${variantStyle(this.model, s.variant).color}` }),
        `${variantLabel(s.variant)}: ${formatValue(s.values[i], s.unit)}`, spread.text ? ` (${spread.n != null ? `n=${spread.n}, ` : ''}${spread.text})` : '');
    });
    const here = card.groupMarkers.filter((m) => m.run === runIndex).map((m) => h('li', { class: `verdict-${m.kind}` },
      `${VERDICTS[m.kind].symbol} ${VERDICTS[m.kind].label} ${formatPct(m.deltaPct)} in ${variantLabel(m.seriesKey.split('/')[0])} (${m.source === 'change-point' ? 'change point' : 'newest run vs previous'})`));
    clear(pinned).append(h('div', { class: 'pin' },
      h('div', { class: 'pin-head' },
        run.url ? h('a', { href: run.url, class: 'commit-link', rel: 'noopener' }, `Commit ${shortSha(run.commitId)} ↗`) : h('code', null, shortSha(run.commitId)),
        ` · ${formatDate(run.date)} · `, h('span', { class: 'author' }, run.author),
        h('button', { type: 'button', class: 'unpin', 'aria-label': 'Close commit details', onclick: () => clear(pinned) }, '×')),
      h('p', { class: 'commit-message' }, run.message),
      here.length ? h('ul', { class: 'pin-markers' }, here) : null,
      h('ul', { class: 'pin-values' }, values)));
    const p = u?.pos.get(runIndex);
    if (u && p != null) {
      const x = u.data[0][p];
      const [min, max] = [u.scales.x.min, u.scales.x.max];
      if (x < min || x > max) {
        const half = (max - min) / 2;
        this.setRange(x - half, x + half);
      }
    }
    const keys = card.group.series.map((s) => s.key);
    const focus = keys.includes(seriesKey) ? seriesKey : keys.includes(this.state.focus) ? this.state.focus : keys[0];
    this.changed({ focus, at: shortSha(run.commitId) });
  }

  key(card, e) {
    const u = card.uplot;
    if (!u) return;
    const xs = u.data[0];
    const visible = [];
    for (let i = 0; i < xs.length; i++) if (xs[i] >= u.scales.x.min && xs[i] <= u.scales.x.max) visible.push(i);
    if (!visible.length) return;
    let idx = u.cursor.idx;
    const move = (to) => {
      idx = Math.max(visible[0], Math.min(visible[visible.length - 1], to));
      const y = card.group.series.map((_, i) => u.data[1 + 3 * i][idx]).find((v) => v != null);
      u.setCursor({ left: u.valToPos(xs[idx], 'x'), top: y == null ? u.over.clientHeight / 2 : u.valToPos(y, 'y') });
    };
    if (e.key === 'ArrowRight' && e.shiftKey) this.pan(card, 0.25);
    else if (e.key === 'ArrowLeft' && e.shiftKey) this.pan(card, -0.25);
    else if (e.key === 'ArrowRight') move(idx == null ? visible[0] : idx + 1);
    else if (e.key === 'ArrowLeft') move(idx == null ? visible[visible.length - 1] : idx - 1);
    else if (e.key === 'Home') move(visible[0]);
    else if (e.key === 'End') move(visible[visible.length - 1]);
    else if (e.key === '+' || e.key === '=') this.zoom(card, 0.5);
    else if (e.key === '-') this.zoom(card, 2);
    else if (e.key === 'Escape' || e.key === '0') this.setRange(null, null);
    else if ((e.key === 'Enter' || e.key === ' ') && idx != null) this.pin(card, u.runs[idx]);
    else return;
    e.preventDefault();
  }

  /** View-state changes made inside the charts: recorded in the URL without re-rendering. */
  changed(patch) {
    Object.assign(this.state, patch);
    this.onStateChange(patch, { silent: true });
  }

  async zoom(card, factor) {
    const u = await this.draw(card);
    const { min, max } = u.scales.x;
    const mid = (min + max) / 2;
    const half = Math.max(((max - min) / 2) * factor, this.state.axis === 'commit' ? 1 : 60);
    this.setRange(mid - half, mid + half);
  }

  async pan(card, fraction) {
    const u = await this.draw(card);
    const { min, max } = u.scales.x;
    const d = (max - min) * fraction;
    this.setRange(min + d, max + d);
  }

  /** A user zoom on one chart: every drawn chart and the URL follow. */
  scaleChanged(u) {
    if (this.syncing) return;
    const { min, max } = u.scales.x;
    const full = u.data[0].length && min <= u.data[0][0] && max >= u.data[0][u.data[0].length - 1];
    this.setRange(full ? null : min, full ? null : max, u);
  }

  setRange(min, max, source) {
    const range = min == null ? null : [min, max];
    const wasSyncing = this.syncing;
    this.syncing = true;
    try {
      for (const u of this.charts) if (u !== source) this.applyRange(u, range);
    } finally {
      this.syncing = wasSyncing;
    }
    if (this.resetButton) this.resetButton.disabled = !range;
    this.changed({ x: range });
  }

  applyRange(u, range) {
    const xs = u.data[0];
    if (!xs.length) return;
    const [min, max] = range ?? [xs[0], xs[xs.length - 1]];
    const wasSyncing = this.syncing;
    this.syncing = true;
    try {
      u.setScale('x', { min, max });
    } finally {
      this.syncing = wasSyncing;
    }
  }
}

/** Keeps the zoomed window when switching axes: commit positions ↔ dates (seconds) of the runs at its ends. */
function convertRange(model, range, from, to) {
  if (!range || from === to || !model.runs.length) return from === to ? range : null;
  const last = model.runs.length - 1;
  if (from === 'commit') {
    const a = model.runs[Math.max(0, Math.min(last, Math.floor(range[0])))].date / 1000;
    const b = model.runs[Math.max(0, Math.min(last, Math.ceil(range[1])))].date / 1000;
    return a < b ? [a, b] : null;
  }
  const a = model.runs.findIndex((r) => r.date / 1000 >= range[0]);
  const b = model.runs.findLastIndex((r) => r.date / 1000 <= range[1]);
  return a >= 0 && b > a ? [a, b] : null;
}

export { toHash };
