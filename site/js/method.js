// How the newest run's numbers were made, from what the run records carry (latest.json): the machine and its CPU
// pinning, the profile, how many starts each figure rests on, each cell's steady state and bottleneck, how verdicts
// are reached, and each metric's unit, direction and whether it is primary. What the records do not carry is named,
// not guessed.
import { h } from './dom.js';
import { metricLabel, variantLabel } from './format.js';

const row = (k, ...v) => [h('dt', null, k), h('dd', null, ...v)];

export function renderMethod(root, model) {
  const section = h('section', { id: 'method', 'aria-labelledby': 'h-method' }, h('h2', { id: 'h-method' }, 'How these numbers were made'));
  root.append(section);
  const latest = model.latest;
  if (!latest) {
    section.append(h('p', { class: 'empty' }, 'This history has no latest.json, which is where the runner records its method; see the repository’s docs.'));
    return;
  }
  const env = latest.environment ?? {};
  const pinning = env.pinning && typeof env.pinning === 'object' ? Object.entries(env.pinning).map(([k, v]) => `${k} on CPU ${v}`).join(', ') : 'not recorded';
  const machine = ['cpuModel', 'cpuCount', 'governor', 'os', 'kernel', 'jdk', 'postgres'].filter((k) => k in env)
    .map((k) => `${k} ${env[k] ?? '—'}`).join(' · ');
  const ok = (latest.cells ?? []).filter((c) => c?.status === 'ok');
  const starts = [...new Set(ok.flatMap((c) => Object.values(c.metrics ?? {}).map((m) => m?.n)).filter(Number.isFinite))].sort((a, b) => a - b);
  const unsteady = ok.filter((c) => c.steady === false);
  const bottlenecks = {};
  for (const c of ok) if (c.bottleneck) bottlenecks[c.bottleneck] = (bottlenecks[c.bottleneck] ?? 0) + 1;
  const withCi = ok.some((c) => Object.values(c.metrics ?? {}).some((m) => Array.isArray(m?.ci95)));
  const v = latest.verdicts;
  section.append(h('dl', { class: 'env', id: 'method-facts' },
    row('Machine', machine || 'not recorded'),
    row('Environment fingerprint', h('code', null, String(env.fingerprint ?? '—')), ' (runs with another fingerprint are never compared)'),
    row('CPU pinning', pinning),
    row('Profile', String(latest.profile ?? '—')),
    row('Repetitions', starts.length ? `each figure is the value over ${starts.join(' or ')} service starts (n in every cell)` : 'not recorded'),
    row('Steady state', unsteady.length
      ? [`${ok.length - unsteady.length} of ${ok.length} cells reached steady state before measuring; not: `, unsteady.map((c) => `${variantLabel(c.variant)} ${c.scenario} (${c.regime})`).join(', ')]
      : `all ${ok.length} measured cells reached steady state before measuring`),
    row('Bottlenecks', Object.keys(bottlenecks).length ? Object.entries(bottlenecks).map(([b, n]) => `${b}: ${n} cells`).join(', ') : 'not recorded'),
    row('Intervals', withCi ? 'bar whiskers are each cell’s 95 % confidence interval over the starts’ time windows (ci95); startup whiskers are min–max over starts' : 'whiskers are min–max over starts (no ci95 in this run)'),
    row('Verdicts', v ? `${v.method}; α = ${v.alpha}, minimum effect ${v.minEffectPct} %; status ${v.status}` : 'not recorded')));
  const metrics = new Map();
  for (const c of ok) for (const [id, m] of Object.entries(c.metrics ?? {})) if (!metrics.has(id)) metrics.set(id, m);
  section.append(h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Metrics' },
    h('table', { class: 'compare', id: 'table-metrics' },
      h('caption', null, 'Measures in the newest run'),
      h('thead', null, h('tr', null, ['Measure', 'Unit', 'Better', 'Primary'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', null, [...metrics].map(([id, m]) => h('tr', { dataset: { metric: id } },
        h('th', { scope: 'row' }, metricLabel(id), h('span', { class: 'metric-id' }, id)),
        h('td', null, String(m.unit ?? '')), h('td', null, m.direction === 'smaller' ? 'smaller' : m.direction === 'bigger' ? 'bigger' : '—'),
        h('td', null, m.primary ? 'yes' : 'no')))))));
  section.append(h('p', { class: 'note', id: 'method-gaps' }, 'Not yet in the run records, so not shown here: the warmup rule and each cell’s warmup length, the metrics’ descriptions from benchmarks.json, and the known limits; see the repository’s docs for them.'));
}
