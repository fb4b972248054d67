// The only way this site puts data on the page: elements built with textContent and setAttribute, never
// innerHTML, so commit messages, author names and benchmark names always render as text.

/** h('a', {href, class, onclick, dataset}, ...children) → element; strings become Text nodes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'href') el.setAttribute('href', safeUrl(value));
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Links from data files may only be http(s) or in-page: a `javascript:` commit URL must not become clickable. */
export function safeUrl(url) {
  const s = String(url);
  if (s.startsWith('#')) return s;
  try {
    const parsed = new URL(s, document.baseURI);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : '#';
  } catch {
    return '#';
  }
}

export function clear(el) {
  el.replaceChildren();
  return el;
}
