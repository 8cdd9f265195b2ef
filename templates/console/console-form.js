/**
 * The dev console's forms: labelled fields built from a JSON Schema (a tool's input, a server's question, a
 * prompt's arguments), read back as the JSON value the schema describes. Apart from console.js so each file stays
 * small. Every node is made with createElement, setAttribute and text, never from markup: the page runs under a CSP
 * without inline code, and the names and descriptions it shows come from the server under development.
 */
import { controlsOf, h, isObject, uniqueId } from './console-dom.js';

/** Deeper than this (often a recursive `$ref`), a value is edited as JSON text rather than as nested fieldsets. */
const maxDepth = 6;
const primitives = new Set(['string', 'number', 'integer', 'boolean', 'enum']);
/** String formats a browser input edits in the schema's own notation; date-time is not one (no offset). */
const inputTypes = { date: 'date', email: 'email', uri: 'url' };

/** `schema` with a `$ref` to `#/$defs/X` or `#/definitions/X` of `root` replaced by its target; null if unknown. */
function resolve(schema, root) {
  let current = schema;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(current.$ref);
    const name = match?.[2].replace(/~1/g, '/').replace(/~0/g, '~');
    const target = match && hops < maxDepth ? root?.[match[1]]?.[name] : undefined;
    if (!isObject(target)) return null;
    const siblings = Object.fromEntries(Object.entries(current).filter(([key]) => key !== '$ref'));
    current = { ...target, ...siblings };
  }
  return isObject(current) ? current : null;
}

/** The one type of `schema`, ignoring "null" (an optional value is simply left out). */
function typeOf(schema) {
  const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
  return types.length === 1 ? types[0] : undefined;
}

/** How a field edits `schema`: a primitive input, a fieldset, a list of one item per line, or JSON text. */
function kindOf(schema, root) {
  if (schema === null) return 'json';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return 'enum';
  if (schema.oneOf || schema.anyOf) return 'json';
  const type = typeOf(schema);
  if (type === 'object') return isObject(schema.properties) ? 'object' : 'json';
  if (type === 'array') return primitives.has(kindOf(resolve(schema.items, root), root)) ? 'lines' : 'json';
  return primitives.has(type) ? type : 'json';
}

/**
 * The fields of an object schema's properties: `nodes` to put in a form, `fields` for `readForm`. Ids start with
 * `idBase` and are kept unique in `ids`; `$ref`s resolve against `root` (the schema itself unless given).
 */
export function buildFields(schema, { root = schema, idBase, ids }) {
  return buildProperties(resolve(schema, root) ?? {}, { root, idBase, ids }, '', true, 0);
}

/** `chain`: every enclosing object is required, so a required property can carry the `required` attribute. */
function buildProperties(schema, context, parent, chain, depth) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const nodes = [];
  const fields = [];
  for (const [name, raw] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    const path = parent === '' ? name : `${parent}.${name}`;
    const spec = { name, path, raw, required: required.has(name), chain: chain && required.has(name) };
    const built = buildField(spec, context, depth);
    nodes.push(built.node);
    fields.push(built.field);
  }
  return { nodes, fields };
}

function buildField(spec, context, depth) {
  const schema = depth <= maxDepth ? resolve(spec.raw, context.root) : null;
  const kind = kindOf(schema, context.root);
  const id = uniqueId(context.ids, context.idBase, spec.path);
  const label = `${spec.name}${spec.required ? ' (required)' : ''}`;
  const description = spec.raw?.description ?? schema?.description;
  const hint = description
    ? h('p', { class: 'hint', id: uniqueId(context.ids, id, 'hint') }, String(description))
    : null;
  const field = { ...spec, kind, schema: schema ?? {}, hintId: hint?.id, items: resolve(schema?.items, context.root) };
  if (kind === 'object') {
    const inner = buildProperties(schema, context, spec.path, spec.chain, depth + 1);
    field.children = inner.fields;
    const legend = h('legend', {}, label);
    return { node: h('fieldset', { id, 'aria-describedby': hint?.id }, legend, hint, inner.nodes), field };
  }
  field.input = control(field, id);
  field.error = h('p', { class: 'field-error', id: uniqueId(context.ids, id, 'error'), hidden: true });
  if (hint) field.input.setAttribute('aria-describedby', hint.id);
  const parts = [h('label', { for: id }, label), field.input];
  if (kind === 'boolean') parts.reverse();
  return { node: h('div', { class: `field field-${kind}` }, parts, hint, field.error), field };
}

/** The input of one field, its default as the initial value (so a reset or a comparison sees what was typed). */
function control(field, id) {
  const { kind, schema } = field;
  const fallback = schema.default;
  // A required checkbox would have to be ticked: a required boolean is sent as false instead.
  const common = { id, name: field.path, required: field.chain && kind !== 'boolean' };
  if (kind === 'boolean') return h('input', { ...common, type: 'checkbox', checked: fallback === true });
  if (kind === 'enum') {
    const blank = field.required && fallback !== undefined ? null : h('option', { value: '' }, '—');
    const options = schema.enum.map((item) => {
      const value = JSON.stringify(item);
      const selected = fallback !== undefined && value === JSON.stringify(fallback);
      return h('option', { value, selected }, typeof item === 'string' ? item : value);
    });
    return h('select', common, blank, options);
  }
  if (kind === 'number' || kind === 'integer') {
    const value = typeof fallback === 'number' ? fallback : undefined;
    return h('input', { ...common, type: 'number', ...bounds(schema, kind === 'integer'), value });
  }
  if (kind === 'string') {
    const type = inputTypes[schema.format] ?? 'text';
    const placeholder = schema.format === 'date-time' ? '2026-01-31T09:00:00Z' : undefined;
    const limits = { minlength: schema.minLength, maxlength: schema.maxLength, pattern: patternOf(schema.pattern) };
    return h('input', { ...common, type, ...limits, placeholder, value: typeof fallback === 'string' ? fallback : '' });
  }
  const lines = kind === 'lines';
  const text = lines ? (Array.isArray(fallback) ? fallback.join('\n') : '') : JSON.stringify(fallback, null, 2);
  const placeholder = lines ? 'one item per line' : 'JSON';
  return h('textarea', { ...common, class: kind, rows: lines ? 3 : 4, spellcheck: 'false', placeholder }, text ?? '');
}

function bounds(schema, integer) {
  const number = (value) => (typeof value === 'number' ? value : undefined);
  let min = number(schema.minimum);
  let max = number(schema.maximum);
  // Exclusive bounds: an integer's nearest allowed value; a number's bound is checked strictly on submit.
  if (typeof schema.exclusiveMinimum === 'number')
    min = integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === 'number')
    max = integer ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum;
  return { min, max, step: integer ? '1' : 'any' };
}

/** A `pattern` attribute that matches anywhere, as JSON Schema does, when the browser can compile it. */
function patternOf(pattern) {
  if (typeof pattern !== 'string') return undefined;
  const anywhere = `.*(?:${pattern}).*`;
  try {
    return new RegExp(anywhere, 'v') && anywhere;
  } catch {
    return undefined;
  }
}

/** The value of `fields` (from `buildFields`) and the inputs whose text does not fit, each marked with why. */
export function readForm(fields) {
  const errors = [];
  const value = readObject(fields, errors);
  requireMembers(fields, value, errors);
  return { value, errors };
}

function readObject(fields, errors) {
  const value = {};
  for (const field of fields) {
    const item = field.kind === 'object' ? readNested(field, errors) : readLeaf(field, errors);
    if (item !== undefined) value[field.name] = item;
  }
  return value;
}

/** An optional object left empty is left out; one filled in needs its required members. */
function readNested(field, errors) {
  const value = readObject(field.children, errors);
  if (Object.keys(value).length === 0 && !field.required) return undefined;
  requireMembers(field.children, value, errors);
  return value;
}

function requireMembers(fields, value, errors) {
  for (const field of fields) {
    if (field.required && field.input && value[field.name] === undefined && !errors.includes(field.input))
      fail(field, 'Required.', errors);
  }
}

/** One input's value; undefined when it is empty (an optional field is then left out of the arguments). */
function readLeaf(field, errors) {
  const { input, kind, schema } = field;
  clear(field);
  if (kind === 'boolean') return input.checked || (field.required || schema.default !== undefined ? false : undefined);
  if (input.validity?.badInput) return fail(field, 'Enter a number.', errors);
  const text = input.value;
  if (kind === 'string') return text === '' ? undefined : checkPattern(field, text, errors);
  if (text.trim() === '') return undefined;
  if (kind === 'enum') return JSON.parse(text);
  if (kind === 'number' || kind === 'integer') return checkNumber(field, Number(text), errors);
  if (kind === 'lines') {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    const items = lines.map((line) => itemOf(field.items, line.replace(/\r$/, '')));
    const type = kindOf(field.items, null);
    return items.includes(undefined) ? fail(field, `Each line must be one ${type} value.`, errors) : items;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(field, `Not valid JSON: ${error.message}`, errors);
  }
}

/** One line of a list as its item type; undefined when it is not one. */
function itemOf(schema, line) {
  const kind = kindOf(schema, null);
  const text = line.trim();
  if (kind === 'string') return line;
  if (kind === 'enum') return schema.enum.find((item) => String(item) === text);
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  const number = Number(text);
  if (!Number.isFinite(number) || (kind === 'integer' && !Number.isInteger(number))) return undefined;
  return number;
}

function checkNumber(field, number, errors) {
  const { exclusiveMinimum: low, exclusiveMaximum: high } = field.schema;
  if (!Number.isFinite(number)) return fail(field, 'Enter a number.', errors);
  if (field.kind === 'integer' && !Number.isInteger(number)) return fail(field, 'Enter a whole number.', errors);
  if (typeof low === 'number' && number <= low) return fail(field, `Must be more than ${low}.`, errors);
  if (typeof high === 'number' && number >= high) return fail(field, `Must be less than ${high}.`, errors);
  return number;
}

/** The pattern is checked here too: the browser skips a `pattern` attribute it cannot compile. */
function checkPattern(field, text, errors) {
  const { pattern } = field.schema;
  if (typeof pattern !== 'string') return text;
  let expression = null;
  try {
    expression = new RegExp(pattern, 'u');
  } catch {
    return text;
  }
  return expression.test(text) ? text : fail(field, `Must match the pattern ${pattern}.`, errors);
}

function fail(field, message, errors) {
  field.error.textContent = message;
  field.error.hidden = false;
  field.input.setAttribute('aria-invalid', 'true');
  field.input.setAttribute('aria-describedby', [field.hintId, field.error.id].filter(Boolean).join(' '));
  errors.push(field.input);
  return undefined;
}

function clear(field) {
  field.error.textContent = '';
  field.error.hidden = true;
  field.input.removeAttribute('aria-invalid');
  if (field.hintId) field.input.setAttribute('aria-describedby', field.hintId);
  else field.input.removeAttribute('aria-describedby');
}

/** A form's values by field name; with `changedOnly`, only those that differ from the initial (default) value. */
export function snapshot(form, changedOnly) {
  const values = {};
  for (const element of controlsOf(form)) {
    if (!element.name || element.tagName === 'BUTTON') continue;
    if (element.type === 'checkbox') {
      if (!changedOnly || element.checked !== element.defaultChecked) values[element.name] = element.checked;
    } else if (!changedOnly || !isInitial(element)) values[element.name] = element.value;
  }
  return values;
}

function isInitial(element) {
  if (element.tagName === 'SELECT')
    return [...element.options].every((option) => option.selected === option.defaultSelected);
  return element.value === element.defaultValue;
}

/** Puts `values` (from `snapshot`) back into the fields of `form` that still exist and can hold them. */
export function restore(form, values) {
  for (const [name, value] of Object.entries(values)) {
    const element = controlsOf(form).namedItem(name);
    if (!(element instanceof HTMLElement) || element.tagName === 'BUTTON') continue;
    if (element.type === 'checkbox') {
      if (typeof value === 'boolean') element.checked = value;
    } else if (typeof value === 'string') {
      const fits = element.tagName !== 'SELECT' || [...element.options].some((option) => option.value === value);
      if (fits) element.value = value;
    }
  }
}
