// Number and label formatting only; no statistics are computed here.

// What each variant is, as the runs recorded it from benchmarks.json (label, description, classification): the
// newest run's variants first (in manifest order), then the rest of index.json's. Nothing here names a variant.
const variantInfo = new Map();

/** Fills the variant registry from index.json's `variants` and latest.json's `variants` (either may be absent). */
export function registerVariants(index, latest) {
  variantInfo.clear();
  const add = (name, v) => {
    if (typeof name !== 'string' || !v || typeof v !== 'object') return;
    variantInfo.set(name, {
      label: typeof v.label === 'string' ? v.label : name,
      description: typeof v.description === 'string' ? v.description : '',
      classification: v.classification && typeof v.classification === 'object' ? v.classification : {},
    });
  };
  for (const v of Array.isArray(latest?.variants) ? latest.variants : []) add(v?.name, v);
  const known = index?.variants && typeof index.variants === 'object' ? index.variants : {};
  for (const [name, v] of Object.entries(known)) if (!variantInfo.has(name)) add(name, v);
}

/** Variant names in the order the runs recorded them (manifest order of the newest run first). */
export const variantOrder = () => [...variantInfo.keys()];
export const variantInfoOf = (name) => variantInfo.get(name) ?? null;

/**
 * The classification keys whose values differ between two variants, as the runs recorded them: what a ratio between
 * them compares besides the stack it names (the runner's Variant.differingKeys: runtimeVersion left out where both
 * have a jdk). Empty when either is unclassified.
 */
export function differingKeys(a, b) {
  const ca = variantInfo.get(a)?.classification;
  const cb = variantInfo.get(b)?.classification;
  if (!ca || !cb || !Object.keys(ca).length || !Object.keys(cb).length) return [];
  const keys = [...new Set([...Object.keys(ca), ...Object.keys(cb)])]
    .filter((k) => !(k === 'runtimeVersion' && 'jdk' in ca && 'jdk' in cb));
  return keys.filter((k) => ca[k] !== cb[k]);
}

/** One line for a tooltip: the description and the classification ("framework jersey · server grizzly · …"). */
export function variantTitle(name) {
  const info = variantInfo.get(name);
  if (!info) return name;
  const tags = Object.entries(info.classification).map(([k, v]) => `${k} ${v}`).join(' · ');
  return [info.description, tags].filter(Boolean).join(' — ') || name;
}

// What each metric is called and where it is shown (benchmarks.json's catalogue, as the runs recorded it: run.json
// metricDefinitions, copied into latest.json, and index.json's metrics over the whole history): its name, else its
// short label, else its id; its short label (a table's column header); the report tables it is a column of
// ('measures', 'resources'); its scope; its position in the catalogue, the display order.
const metricInfo = new Map();

/** Fills the metric definitions from index.json's `metrics` and latest.json's `metricDefinitions` (the newest run wins). */
export function registerMetrics(index, latest) {
  metricInfo.clear();
  const add = (id, m, position) => {
    if (typeof id !== 'string' || !m || typeof m !== 'object') return;
    const text = (v) => (typeof v === 'string' && v ? v : null);
    metricInfo.set(id, {
      title: text(m.name) ?? text(m.label),
      label: text(m.label),
      tables: Array.isArray(m.tables) ? m.tables.filter((t) => typeof t === 'string') : [],
      scope: text(m.scope),
      position: Number.isInteger(position) ? position : null,
    });
  };
  const known = index?.metrics && typeof index.metrics === 'object' ? index.metrics : {};
  for (const [id, m] of Object.entries(known)) add(id, m, m?.position);
  (Array.isArray(latest?.metricDefinitions) ? latest.metricDefinitions : []).forEach((m, i) => add(m?.id, m, i));
}

/** The metrics of one report table ('measures' or 'resources'), as the catalogue places them. */
export const inMetricTable = (metric, table) => metricInfo.get(metric)?.tables.includes(table) ?? false;

/** Sorts metric ids by their catalogue position; ids the catalogue does not place come after, by id. */
export function byMetricPosition(a, b) {
  const pa = metricInfo.get(a)?.position ?? Infinity;
  const pb = metricInfo.get(b)?.position ?? Infinity;
  return pa === pb ? a.localeCompare(b) : pa - pb;
}

export const variantLabel = (name) => variantInfo.get(name)?.label ?? name;
export const metricLabel = (metric) => metricInfo.get(metric)?.title ?? metric;
/** A table's column header: the catalogue's short label, else the name. */
export const metricHeader = (metric) => metricInfo.get(metric)?.label ?? metricLabel(metric);

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
  'no-change': { symbol: '≈', label: 'no change' },
  'within-noise': { symbol: '≈', label: 'within noise' }, // latest.json v1
  failed: { symbol: '✗', label: 'failed' },
  'no-verdict': { symbol: '·', label: 'no verdict' },
  inconclusive: { symbol: '?', label: 'inconclusive' },
  'not-comparable': { symbol: '∅', label: 'not comparable' },
};
