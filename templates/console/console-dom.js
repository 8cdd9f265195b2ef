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

// A form's fields are also its properties: a field named `elements`, `querySelector` or `dataset` (a tool's input
// property, a server's question) hides the form's own member of that name. The console reaches a form's members
// through the prototypes, so a name chosen by the server cannot change what its code does.

/** The form's controls (`form.elements`). */
export const controlsOf = (form) =>
  Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'elements').get.call(form);
/** The first element under `root` that `selector` matches, or null. */
export const find = (root, selector) => Element.prototype.querySelector.call(root, selector);
/** Every element under `root` that `selector` matches. */
export const findAll = (root, selector) => [...Element.prototype.querySelectorAll.call(root, selector)];
/** Submits `form` as its submit button would (`requestSubmit`). */
export const submitForm = (form) => HTMLFormElement.prototype.requestSubmit.call(form);
/** Calls `handler` on each `type` event of `target`. */
export const listen = (target, type, handler) => EventTarget.prototype.addEventListener.call(target, type, handler);
/** The value of the element's attribute `data-<name>`, or null. */
export const dataOf = (element, name) => Element.prototype.getAttribute.call(element, `data-${name}`);
