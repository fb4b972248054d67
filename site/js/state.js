// All view state lives in the URL hash (so a link reproduces the view and GitHub Pages needs no server routing):
//   #view=axes&along=server (the classification key the axis view compares along)
//   #view=trends&axis=date&v=jersey,spring-mvc&s=read-heavy&m=latency_p99&p=full&x=3,9&focus=<series>&at=<sha>
// Lists absent from the hash mean "all"; an absent profile (p) means the newest run's.

const VIEWS = ['overview', 'axes', 'trends', 'regressions', 'method'];
const list = (value) => (value ? value.split(',').filter(Boolean) : null);

export function readState(hash = location.hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const view = VIEWS.includes(p.get('view')) ? p.get('view') : 'overview';
  const axis = p.get('axis') === 'date' ? 'date' : 'commit';
  let x = null;
  const xs = list(p.get('x'))?.map(Number);
  if (xs?.length === 2 && xs.every(Number.isFinite) && xs[0] < xs[1]) x = xs;
  return { view, axis, variants: list(p.get('v')), scenarios: list(p.get('s')), metrics: list(p.get('m')), profile: p.get('p') || null, x, focus: p.get('focus'), at: p.get('at'), along: p.get('along') };
}

export function toHash(state) {
  const p = new URLSearchParams();
  p.set('view', state.view);
  if (state.axis === 'date') p.set('axis', 'date');
  if (state.variants) p.set('v', state.variants.join(','));
  if (state.scenarios) p.set('s', state.scenarios.join(','));
  if (state.metrics) p.set('m', state.metrics.join(','));
  if (state.profile) p.set('p', state.profile);
  if (state.x) p.set('x', state.x.map((n) => +n.toFixed(3)).join(','));
  if (state.focus) p.set('focus', state.focus);
  if (state.at) p.set('at', state.at);
  if (state.along) p.set('along', state.along);
  return `#${p.toString().replace(/%2C/g, ',').replace(/%2F/g, '/')}`;
}

/** A filter list admits a value when the list is absent (all) or names it. */
export const admits = (filter, value) => !filter || filter.includes(value);
