// The axis view: pick one classification key (server, threading, jdk, … — whatever benchmarks.json's variants carry,
// as the runs recorded them), and the site groups the variants that differ only in that key, so each group compares
// along one axis with everything else fixed ("tomcat vs jetty vs undertow under spring-mvc / platform / jdk 17").
import { h } from './dom.js';
import { admits } from './state.js';
import { scenarioBarCharts } from './bars.js';
import { newestRun, orderVariants } from './overview.js';
import { variantInfoOf, variantLabel } from './format.js';

/**
 * Keys that carry the same value as `key` in every variant that has it: two names of one axis (the runner labels a
 * JVM variant's JDK both `jdk` and `runtimeVersion`), so moving along one moves along the other.
 */
export function tiedKeys(variants, key) {
  const classes = variants.map((v) => variantInfoOf(v)?.classification).filter((c) => c && c[key] != null);
  const keys = new Set(classes.flatMap((c) => Object.keys(c)));
  keys.delete(key);
  return [...keys].filter((k) => classes.length > 0 && classes.every((c) => String(c[k]) === String(c[key])));
}

/** Groups of ≥ 2 variants whose classifications are equal except in `key` (where they all differ). */
export function groupsAlong(variants, key) {
  const bySignature = new Map();
  const tied = new Set(tiedKeys(variants, key));
  for (const v of variants) {
    const c = variantInfoOf(v)?.classification;
    if (!c || c[key] == null) continue;
    const fixed = Object.entries(c).filter(([k]) => k !== key && !tied.has(k)).sort(([a], [b]) => a.localeCompare(b));
    const signature = JSON.stringify(fixed);
    if (!bySignature.has(signature)) bySignature.set(signature, { fixed, members: [] });
    bySignature.get(signature).members.push(v);
  }
  return [...bySignature.values()].filter((g) => new Set(g.members.map((v) => variantInfoOf(v).classification[key])).size >= 2);
}

export function renderAxes(root, model, state, update) {
  const run = newestRun(model);
  const all = orderVariants([...run.cells.values()].map((c) => c.variant).concat([...run.startup.keys()]));
  const variants = all.filter((v) => admits(state.variants, v));
  const keys = [...new Set(variants.flatMap((v) => Object.keys(variantInfoOf(v)?.classification ?? {})))];
  const section = h('section', { id: 'axes', 'aria-labelledby': 'h-axes' }, h('h2', { id: 'h-axes' }, 'Compare along one axis'));
  root.append(section);
  if (!keys.length) {
    section.append(h('p', { class: 'empty' }, 'The history does not classify its variants (runs written before run.json recorded benchmarks.json’s classification).'));
    return;
  }
  const withGroups = keys.filter((k) => groupsAlong(variants, k).length);
  // Without a choice in the URL: the first axis along which some variants can be compared.
  const along = keys.includes(state.along) ? state.along : withGroups[0] ?? keys[0];
  section.append(h('p', null, h('label', null, 'Axis ',
    h('select', { id: 'axis-key', onchange: (e) => update({ along: e.target.value }) },
      keys.map((k) => h('option', { value: k, selected: k === along }, withGroups.includes(k) ? k : `${k} (no comparable variants)`)))),
  ' — each group holds variants that differ only in this key.'));
  const groups = groupsAlong(variants, along);
  if (!groups.length) {
    section.append(h('p', { class: 'empty', id: 'no-groups' }, `No two of the selected variants differ only in ${along}.`));
    return;
  }
  groups.forEach((g, i) => {
    const members = orderVariants(g.members);
    const values = members.map((v) => variantInfoOf(v).classification[along]);
    section.append(h('section', { class: 'axis-group', dataset: { along, members: members.join(',') } },
      h('h3', null, values.join(' vs '), h('span', { class: 'chart-sub' }, ` ${along} · `, members.map(variantLabel).join(', '))),
      h('p', { class: 'fixed' }, 'Fixed: ', g.fixed.map(([k, v]) => `${k} ${v}`).join(' · ')),
      scenarioBarCharts(run, state, members, `axis-${i}`)));
  });
}
