// Regressions: every detected change (analysis.json's change points, plus the newest run's flagged verdicts from
// latest.json), newest first, each linking to its chart in the trends view.
import { h } from './dom.js';
import { admits, toHash } from './state.js';
import { activeProfile, inProfile, parseSeriesKey, runOfCommit } from './history.js';
import { VERDICTS, firstLine, formatDate, formatPct, metricLabel, shortSha, variantLabel } from './format.js';

export function renderRegressions(root, model, state, changes) {
  const section = h('section', { id: 'regressions', 'aria-labelledby': 'h-regressions' }, h('h2', { id: 'h-regressions' }, 'Detected changes'));
  if (model.analysis) section.append(h('p', { class: 'note' }, 'Method: ', String(model.analysis.method ?? 'not stated'), '. Generated ', formatDate(Date.parse(model.analysis.generatedAt ?? '')), '.'));
  else section.append(h('p', { class: 'note' }, 'This history has no analysis.json, so there are no change points; only the newest run’s flagged verdicts (latest.json) can be listed.'));
  // Changes are detected within one profile: list those of the profile the trends show, as their markers are.
  const profile = activeProfile(model, state.profile);
  const shown = changes.filter((c) => {
    const k = parseSeriesKey(c.series);
    return admits(state.variants, k.variant) && admits(state.scenarios, k.scenario) && admits(state.metrics, k.metric)
      && inProfile(model, c.series, runOfCommit(model, c.commit), profile);
  });
  if (!shown.length) {
    section.append(h('p', { class: 'empty', id: 'no-changes' }, changes.length ? 'No detected change matches the filters.' : 'No changes detected.'));
    root.append(section);
    return;
  }
  const rows = shown.map((c) => {
    const k = parseSeriesKey(c.series);
    const run = model.runs[runOfCommit(model, c.commit)];
    const target = toHash({ ...state, view: 'trends', scenarios: [k.scenario], metrics: [k.metric], x: null, focus: c.series, at: shortSha(c.commit) });
    const v = VERDICTS[c.kind];
    return h('tr', { dataset: { kind: c.kind } },
      h('td', null, h('a', { href: target, class: 'series-link' }, `${k.scenario} · ${k.regime} — ${metricLabel(k.metric)}`), h('span', { class: 'meta' }, variantLabel(k.variant))),
      h('td', null, h('span', { class: `verdict verdict-${c.kind}` }, `${v.symbol} ${v.label}`)),
      h('td', { class: 'num' }, formatPct(c.deltaPct)),
      h('td', null, run?.url ? h('a', { href: run.url, rel: 'noopener' }, shortSha(c.commit)) : h('code', null, shortSha(c.commit)),
        run ? h('span', { class: 'meta commit-message' }, firstLine(run.message)) : null),
      h('td', null, formatDate(c.date)),
      h('td', null, c.source));
  });
  section.append(h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Detected changes' },
    h('table', { class: 'changes', id: 'table-changes' },
      h('thead', null, h('tr', null, ['Series', 'Kind', 'Magnitude', 'Commit', 'Date', 'Source'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', null, rows))));
  root.append(section);
}
