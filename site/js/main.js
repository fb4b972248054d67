// Entry point: loads the history, renders the filters and the current view, and keeps the view in the URL.
import { h, clear } from './dom.js';
import { HistoryError, UNKNOWN_PROFILE, activeProfile, changesOf, loadHistory, markersOf, profilesOf } from './history.js';
import { readState, toHash } from './state.js';
import { renderOverview, orderVariants } from './overview.js';
import { TrendsView } from './trends.js';
import { renderRegressions } from './regressions.js';
import { renderAxes } from './axes.js';
import { renderMethod } from './method.js';
import { formatDate, metricLabel, registerMetrics, registerVariants, variantLabel, variantTitle } from './format.js';

window.__restbench = { state: 'loading', firstChartMs: 0 };
const HISTORY_BASE = document.querySelector('meta[name="history-base"]')?.content || 'dev/bench/';
const main = document.getElementById('main');
const statusEl = document.getElementById('status');
const filtersEl = document.getElementById('filters');
let model = null;
let state = readState();
let trends = null;
let markers = [];
let changes = [];

function setPageState(s) {
  document.body.dataset.state = s;
  window.__restbench.state = s;
}

function showProblem(title, detail, kind) {
  clear(statusEl).append(h('div', { class: `problem problem-${kind}`, role: 'alert', id: 'problem' }, h('h2', null, title), h('p', null, detail)));
  setPageState(kind);
}

function update(patch, { silent = false } = {}) {
  state = { ...state, ...patch };
  const hash = toHash(state);
  if (silent) {
    history.replaceState(null, '', hash);
    return;
  }
  history.pushState(null, '', hash);
  render();
}

function render() {
  trends?.destroy();
  trends = null;
  clear(main);
  for (const a of document.querySelectorAll('nav a[data-view]')) {
    if (a.dataset.view === state.view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  syncFilters();
  const note = ['overview', 'axes', 'method'].includes(state.view) ? null : profileNote();
  if (note) main.append(note);
  if (state.view === 'trends') {
    if (model.runs.length === 1) main.append(h('p', { class: 'note', id: 'single-note' }, 'Only one run in the history so far: each chart has a single point until the next run.'));
    trends = new TrendsView(main, model, state, markers, update);
    trends.render();
  } else if (state.view === 'method') {
    renderMethod(main, model);
  } else if (state.view === 'axes') {
    renderAxes(main, model, state, update);
  } else if (state.view === 'regressions') {
    renderRegressions(main, model, state, changes);
  } else {
    renderOverview(main, model, state);
  }
}

// ---- filters: one fieldset of checkboxes per dimension; "all selected" is stored as no list at all.
const dimensions = [
  { key: 'variants', label: 'Variants', text: variantLabel, title: variantTitle },
  { key: 'scenarios', label: 'Scenarios', text: (s) => s },
  { key: 'metrics', label: 'Metrics', text: (m) => `${metricLabel(m)} (${m})` },
];

function options(key) {
  const series = [...model.series.values()];
  if (key === 'variants') return orderVariants(series.map((s) => s.variant));
  if (key === 'scenarios') return [...new Set(series.map((s) => s.scenario))];
  return [...new Set(series.map((s) => s.metric))];
}

// ---- profile: one radio per profile (smoke, quick, full, …), newest run's first; absent from the hash = that one.
// Only offered when there is a choice, so a single-profile history looks as it always did.
function profileText(profile, i) {
  const name = profile === UNKNOWN_PROFILE ? 'unknown (entries without a profile)' : profile;
  return i === 0 ? `${name} — newest run` : name;
}

function profileFieldset() {
  const profiles = profilesOf(model);
  if (profiles.length < 2) return null;
  return h('fieldset', { dataset: { dimension: 'profile' } },
    h('legend', null, 'Profile'),
    h('div', { class: 'options' }, profiles.map((p, i) => h('label', null,
      h('input', { type: 'radio', name: 'profile', value: p, onchange: () => update({ profile: i === 0 ? null : p, x: null, focus: null, at: null }) }),
      ` ${profileText(p, i)}`))),
    h('span', { class: 'meta' }, 'for trends and regressions (the overview is the newest run)'));
}

/** Says which profile the trends and regressions show when there is a choice, or when the URL's could not be used. */
function profileNote() {
  const profiles = profilesOf(model);
  const profile = activeProfile(model, state.profile);
  const missing = state.profile && state.profile !== profile;
  if (profiles.length < 2 && !missing) return null;
  return h('p', { class: 'note', id: 'profile-note' },
    missing ? `This history has no profile “${state.profile}”. ` : '',
    'Showing runs of the ', h('strong', null, profile), ` profile${profile === profiles[0] ? ' (the newest run’s)' : ''} only`,
    profiles.length > 1 ? '; numbers from different profiles are not comparable — choose another under Filters.' : '.');
}

function renderFilters() {
  // Collapsed by default at every width: the summary line says what is selected, so with a dozen variants the
  // answer is not pushed below the fold.
  const details = h('details', { class: 'filters', id: 'filter-panel' },
    h('summary', null, 'Filters', h('span', { class: 'filter-summary', id: 'filter-summary' })),
    profileFieldset(),
    dimensions.map((d) => {
      const values = options(d.key);
      const set = (list) => update({ [d.key]: list && list.length === values.length ? null : list, x: null, focus: null, at: null });
      return h('fieldset', { dataset: { dimension: d.key } },
        h('legend', null, d.label),
        h('div', { class: 'filter-actions' },
          h('button', { type: 'button', onclick: () => set(null) }, 'all'),
          h('button', { type: 'button', onclick: () => set([]) }, 'none')),
        h('div', { class: 'options' }, values.map((v) => h('label', { title: d.title ? d.title(v) : null },
          h('input', { type: 'checkbox', value: v, onchange: (e) => {
            const checked = [...e.target.closest('fieldset').querySelectorAll('input:checked')].map((i) => i.value);
            set(checked);
          } }),
          ` ${d.text(v)}`))));
    }));
  clear(filtersEl).append(details);
}

/** "all 3 variants · scenarios: read-heavy, write-heavy (2 of 5) · all 13 metrics", from the state, not the DOM. */
function selectionText() {
  const parts = dimensions.map((d) => {
    const values = options(d.key);
    const list = state[d.key]?.filter((v) => values.includes(v));
    const noun = d.label.toLowerCase();
    if (!list) return `all ${values.length} ${noun}`;
    if (!list.length) return `no ${noun}`;
    const names = list.slice(0, 3).map((v) => (d.key === 'metrics' ? metricLabel(v) : d.text(v))).join(', ');
    return `${noun}: ${names}${list.length > 3 ? ', …' : ''} (${list.length} of ${values.length})`;
  });
  if (profilesOf(model).length > 1) parts.unshift(`profile ${activeProfile(model, state.profile)}`);
  return parts.join(' · ');
}

function syncFilters() {
  const summaryEl = document.getElementById('filter-summary');
  if (summaryEl) summaryEl.textContent = `— ${selectionText()}`;
  const profile = activeProfile(model, state.profile);
  for (const input of filtersEl.querySelectorAll('input[name=profile]')) input.checked = input.value === profile;
  for (const fs of filtersEl.querySelectorAll('fieldset[data-dimension]:not([data-dimension=profile])')) {
    const list = state[fs.dataset.dimension];
    for (const input of fs.querySelectorAll('input[type=checkbox]')) input.checked = !list || list.includes(input.value);
  }
}

function summary() {
  const el = document.getElementById('history-summary');
  clear(el).append(`${model.runs.length} run${model.runs.length === 1 ? '' : 's'}, ${model.series.size} series, updated ${formatDate(model.lastUpdate)}`,
    ...(model.repoUrl ? [' · ', h('a', { href: model.repoUrl, rel: 'noopener' }, 'repository')] : []));
}

// ---- theme: the system preference unless the toggle chose one (remembered per browser, not part of the view).
function applyTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const dark = theme ? theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  const button = document.getElementById('theme-toggle');
  button.setAttribute('aria-pressed', String(dark));
  button.textContent = dark ? '☾ dark' : '☀ light';
}

document.getElementById('theme-toggle').addEventListener('click', () => {
  const dark = document.getElementById('theme-toggle').getAttribute('aria-pressed') === 'true';
  const next = dark ? 'light' : 'dark';
  try { localStorage.setItem('restbench-theme', next); } catch { /* private mode: theme lasts this page only */ }
  applyTheme(next);
  if (model?.runs.length) render();
});
for (const a of document.querySelectorAll('nav a[data-view]')) {
  // Switching views keeps the filters (the plain href would drop them).
  a.addEventListener('click', (e) => {
    if (!model?.runs.length) return;
    e.preventDefault();
    update({ view: a.dataset.view, focus: null, at: null });
    main.focus({ preventScroll: true });
  });
}
let storedTheme = null;
try { storedTheme = localStorage.getItem('restbench-theme'); } catch { /* ignore */ }
applyTheme(storedTheme);

async function start() {
  setPageState('loading');
  statusEl.append(h('p', { class: 'loading' }, 'Loading benchmark history…'));
  try {
    model = await loadHistory(HISTORY_BASE);
  } catch (e) {
    if (e instanceof HistoryError) showProblem(e.title, e.detail, e.title.startsWith('No benchmark history') ? 'empty' : 'error');
    else showProblem('The history could not be read', String(e?.message ?? e), 'error');
    return;
  }
  window.__restbench.timings = model.timings;
  window.__restbench.packed = Boolean(model.packed);
  clear(statusEl);
  if (!model.runs.length || !model.series.size) {
    showProblem('The history is empty', 'data.js exists but holds no benchmark entries yet. Results appear here after the first run is appended.', 'empty');
    return;
  }
  if (model.warnings.length) statusEl.append(h('ul', { class: 'warnings', id: 'warnings' }, model.warnings.map((w) => h('li', null, w))));
  registerVariants(model.index, model.latest);
  registerMetrics(model.index, model.latest);
  markers = markersOf(model);
  changes = changesOf(model);
  summary();
  renderFilters();
  render();
  setPageState('ready');
  // Back/forward between our pushState entries and edited links both change the hash: one listener covers both.
  window.addEventListener('hashchange', () => { state = readState(); render(); });
}

start();
