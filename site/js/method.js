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
  const m = latest.method && typeof latest.method === 'object' ? latest.method : null;
  const w = m?.warmup;
  const warmupRule = w
    ? `load until steady: at least ${w.minSeconds} s, then the JIT compiler threads below ${w.maxJitMsPerS} ms/s and throughput and CPU per request within ±${w.maxDriftPct} % over the last ${w.stableSeconds} s; at ${w.maxSeconds} s the cell is measured anyway and marked unsteady`
    : null;
  const warmups = ok.map((c) => c.warmup?.meanSeconds).filter(Number.isFinite);
  const warmupSpan = warmups.length ? ` Warmup per cell in this run: ${Math.min(...warmups)}–${Math.max(...warmups)} s.` : '';
  section.append(h('dl', { class: 'env', id: 'method-facts' },
    row('Machine', machine || 'not recorded'),
    row('Environment fingerprint', h('code', null, String(env.fingerprint ?? '—')), ' (runs with another fingerprint are never compared)'),
    row('CPU pinning', pinning),
    row('Profile', String(latest.profile ?? '—'), m ? ` — ${m.startsPerVariant} start(s) per variant, ${m.windowsPerCell} windows of ${m.windowSeconds} s per cell, dataset ${m.dataset?.name ?? '—'}${m.dataset?.items ? ` (${m.dataset.categories} categories, ${m.dataset.items} items)` : ''}, load scale ${m.loadScale}` : ''),
    row('Warmup rule', warmupRule ? `${warmupRule}.${warmupSpan}` : 'not recorded (a run older than the method record)'),
    row('Error budget', m ? `a cell fails above ${m.maxErrorPct} % errors, or (capacity) above a p99 of ${m.capacityP99Ms} ms` : 'not recorded'),
    row('Repetitions', starts.length ? `each figure is the value over ${starts.join(' or ')} service starts (n in every cell)` : 'not recorded'),
    row('Steady state', unsteady.length
      ? [`${ok.length - unsteady.length} of ${ok.length} cells were measured in steady state (the warmup settled, the compilers stayed quiet in the windows, and a latency cell's queue neither grew nor drained); not: `, unsteady.map((c) => `${variantLabel(c.variant)} ${c.scenario} (${c.regime})`).join(', ')]
      : `all ${ok.length} measured cells were measured in steady state (the warmup settled, the compilers stayed quiet in the windows, and a latency cell's queue neither grew nor drained)`),
    row('Bottlenecks', Object.keys(bottlenecks).length ? Object.entries(bottlenecks).map(([b, n]) => `${b}: ${n} cells`).join(', ') : 'not recorded'),
    row('Intervals', withCi ? 'bar whiskers are each cell’s 95 % confidence interval over the starts’ time windows (ci95); startup whiskers are min–max over starts' : 'whiskers are min–max over starts (no ci95 in this run)'),
    row('Verdicts', v ? `${v.method}; α = ${v.alpha}, minimum effect ${v.minEffectPct} %; status ${v.status}` : 'not recorded')));
  const metrics = new Map();
  for (const c of ok) for (const [id, x] of Object.entries(c.metrics ?? {})) if (!metrics.has(id)) metrics.set(id, x);
  const definitions = new Map((Array.isArray(latest.metricDefinitions) ? latest.metricDefinitions : []).filter((d) => d && typeof d.id === 'string').map((d) => [d.id, d]));
  section.append(h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Metrics' },
    h('table', { class: 'compare', id: 'table-metrics' },
      h('caption', null, 'Measures in the newest run'),
      h('thead', null, h('tr', null, ['Measure', 'Unit', 'Better', 'Primary', 'What it is'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', null, [...metrics].map(([id, x]) => h('tr', { dataset: { metric: id } },
        h('th', { scope: 'row' }, metricLabel(id), h('span', { class: 'metric-id' }, id)),
        h('td', null, String(x.unit ?? '')), h('td', null, x.direction === 'smaller' ? 'smaller' : x.direction === 'bigger' ? 'bigger' : '—'),
        h('td', null, x.primary ? 'yes' : 'no'),
        h('td', { class: 'description' }, String(definitions.get(id)?.description ?? 'not recorded'))))))));
  section.append(h('h3', null, 'Known limits of this run'), h('ul', { id: 'method-limits' }, limits(latest, ok, starts, unsteady, bottlenecks).map((t) => h('li', null, t))));
}

/** What a reader must keep in mind about this run's numbers, derived from its own records. */
function limits(latest, ok, starts, unsteady, bottlenecks) {
  const out = [];
  if (starts.length && Math.max(...starts) < 2) out.push('One service start per figure: the JIT’s choices differ between starts, so the intervals cover the windows of one start, not the spread between starts.');
  if (unsteady.length) out.push(`${unsteady.length} cell(s) were measured before their service was steady (the warmup cap, busy compilers, or a latency cell's queue growing or draining): their figures describe a service not yet settled.`);
  const notService = Object.entries(bottlenecks).filter(([b]) => b !== 'service' && b !== 'none').reduce((n, [, k]) => n + k, 0);
  if (notService) out.push(`${notService} cell(s) were bound by something other than the service (database or load generator): their throughput is that component’s, compare CPU and allocation per request there.`);
  const jvmOnly = ['alloc_bytes_per_req', 'heap_mean_mb', 'gc_ms_per_s'];
  const withoutJvm = [...new Set(ok.filter((c) => !jvmOnly.some((id) => id in (c.metrics ?? {}))).map((c) => c.variant))];
  if (withoutJvm.length) out.push(`No JVM meters for ${withoutJvm.map(variantLabel).join(', ')}: allocation, heap, GC and pool figures are absent there, not zero.`);
  if (!latest.baseline) out.push('No comparable earlier run: no deltas and no verdicts.');
  out.push('The service runs on one pinned core and PostgreSQL shares the other with the load generator (see CPU pinning): absolute figures are this machine’s; compare variants, not machines.');
  return out;
}
