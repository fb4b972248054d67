// Number and label formatting only; no statistics are computed here.

const KNOWN_VARIANTS = {
  jersey: 'A · Jersey (JAX-RS)',
  'spring-mvc': 'C · Spring MVC @RestController',
  'spring-data-rest': 'D · Spring Data REST',
};

export const METRIC_LABELS = {
  throughput: 'Throughput',
  latency_p50: 'p50 latency',
  latency_p95: 'p95 latency',
  latency_p99: 'p99 latency',
  latency_max: 'max latency',
  error_pct: 'Errors',
  cpu_us_per_req: 'CPU per request',
  alloc_bytes_per_req: 'Allocation per request',
  heap_mean_mb: 'Heap mean',
  heap_peak_mb: 'Heap peak',
  gc_ms_per_s: 'GC time',
  jit_cpu_ms_per_s: 'JIT compile time',
  threads_peak: 'Threads peak',
  hikari_active_mean: 'Hikari active mean',
  hikari_active_peak: 'Hikari active peak',
  time_to_ready_ms: 'Time to ready',
  rss_after_start_mb: 'RSS after start',
  classes_loaded: 'Classes loaded',
  live_threads: 'Live threads',
};

export const variantLabel = (name) => KNOWN_VARIANTS[name] ?? name;
export const metricLabel = (metric) => METRIC_LABELS[metric] ?? metric;

export function formatNumber(value) {
  if (value == null || !Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(value / 1e6).toPrecision(3)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toPrecision(3)}k`;
  if (abs >= 100 || Number.isInteger(value)) return String(Math.round(value));
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return '0';
  return value.toPrecision(2);
}

export function formatValue(value, unit) {
  const n = formatNumber(value);
  if (n === '—' || !unit) return n;
  return unit === '%' ? `${n} %` : `${n} ${unit}`;
}

export function formatPct(pct) {
  if (pct == null || !Number.isFinite(pct)) return '—';
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  return `${sign}${Math.abs(pct).toFixed(Math.abs(pct) >= 10 ? 1 : 2)} %`;
}

export const shortSha = (sha) => String(sha ?? '').slice(0, 7);

export function formatDate(ms) {
  if (ms == null || !Number.isFinite(ms)) return '—';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

export const firstLine = (message) => String(message ?? '').split('\n', 1)[0];

export const VERDICTS = {
  regression: { symbol: '⚠', label: 'regression' },
  improvement: { symbol: '✓', label: 'improvement' },
  'within-noise': { symbol: '≈', label: 'within noise' },
  inconclusive: { symbol: '?', label: 'inconclusive' },
  'not-comparable': { symbol: '∅', label: 'not comparable' },
};
