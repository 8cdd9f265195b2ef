/**
 * The dev console's three DOM helpers. Every node is made with createElement, setAttribute and text, never from
 * markup: the page runs under a CSP without inline code, and the text it shows comes from the server under development.
 */

export const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An element with attributes (skipped when null, undefined or false) and children (strings become text nodes). */
export function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.flat(Number.POSITIVE_INFINITY).filter((child) => child != null && child !== false));
  return node;
}

/** An id made of `parts`, unique within `ids`: names that differ may read the same once reduced to id characters. */
export function uniqueId(ids, ...parts) {
  const base = parts.map((part) => String(part).replace(/[^A-Za-z0-9_-]+/g, '_')).join('-');
  let id = base;
  for (let n = 2; ids.has(id); n += 1) id = `${base}-${n}`;
  ids.add(id);
  return id;
}
