/**
 * The dev console's cards: one per listed tool, resource, resource template and prompt, each with its form and the
 * result region after it (kept across renders by kind and name, console-calls.js). Text only, as console.js says.
 */
import { keepHandles, kept, offerCompletions, run, takeHandles } from './console-calls.js';
import { h, isObject, listen, uniqueId } from './console-dom.js';
import { buildFields, readForm, snapshot } from './console-form.js';

const annotations = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open-world'],
];

/** The objects of a listed array; anything else is none. */
export const listOf = (value) => (Array.isArray(value) ? value.filter(isObject) : []);

const badge = (text) => h('li', { class: `badge ${text}` }, text);

/**
 * One listed item's card: heading (title, then the name in code), its own words, its form (`kind` is the form's
 * class, `attr` its data attribute) and the result region after the form, kept across renders by kind and name.
 * `ids` are the ids this render gave out.
 */
function card(ids, { kind, attr, name, title, description, extra = [], schema, button, request }) {
  const key = `${kind}:${name}`;
  const base = uniqueId(ids, kind, name);
  const heading = h('h3', { id: uniqueId(ids, base, 'title') }, title ? `${title} ` : null, h('code', {}, name));
  const form = h('form', { class: kind, [`data-${attr}`]: name, 'data-key': key, 'aria-labelledby': heading.id });
  const { nodes, fields } = buildFields(isObject(schema) ? schema : {}, { idBase: base, ids });
  form.append(...nodes, h('div', { class: 'actions' }, h('button', { type: 'submit' }, button)));
  const region =
    kept.regions.get(key) ?? h('section', { class: 'result', [`data-${attr}`]: name, 'aria-live': 'polite' });
  kept.forms.set(key, form);
  kept.regions.set(key, region);
  listen(form, 'submit', (event) => {
    event.preventDefault();
    if (kept.busy.has(key)) return;
    const { value, errors } = readForm(fields);
    if (errors.length > 0) errors[0].focus();
    else run({ key, values: snapshot(form, false), ...request(value) });
  });
  const about = description ? h('p', { class: 'description' }, description) : null;
  const parts = [heading, about, extra, form, region];
  return h('article', { class: `card ${kind}-card`, 'aria-labelledby': heading.id }, parts);
}

function toolCard(ids, tool) {
  const badges = annotations.filter(([hint]) => tool.annotations?.[hint] === true).map(([, text]) => text);
  const extra = badges.length > 0 ? h('ul', { class: 'badges', 'aria-label': 'Annotations' }, badges.map(badge)) : null;
  const node = card(ids, {
    kind: 'tool',
    attr: 'tool',
    name: tool.name,
    title: tool.title,
    description: tool.description,
    extra,
    schema: tool.inputSchema,
    button: 'Call',
    request: (value) => ({
      kind: 'tool',
      label: tool.name,
      path: '/api/call',
      body: { name: tool.name, arguments: value },
      done: (step) => keepHandles(tool, step),
    }),
  });
  for (const { kind, pointer } of tool.handles?.consumes ?? []) takeHandles(node.querySelector('form'), kind, pointer);
  return node;
}

function resourceCard(ids, resource) {
  return card(ids, {
    kind: 'resource',
    attr: 'uri',
    name: resource.uri,
    title: resource.title ?? resource.name,
    description: resource.description,
    extra: resource.mimeType ? h('p', { class: 'mime' }, resource.mimeType) : null,
    button: 'Read',
    request: () => ({ kind: 'read', label: resource.uri, path: '/api/read', body: { uri: resource.uri } }),
  });
}

/**
 * A template's `{var}`s become labelled inputs, with the server's completions when it answers `completion/complete`;
 * Read fills each in, URI-encoded.
 */
function templateCard(ids, completions, template) {
  const variable = /\{([^{}]+)\}/g;
  const names = [...new Set([...template.uriTemplate.matchAll(variable)].map((match) => match[1]))];
  const properties = Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
  const node = card(ids, {
    kind: 'template',
    attr: 'template',
    name: template.uriTemplate,
    title: template.title ?? template.name,
    description: template.description,
    schema: { type: 'object', properties, required: names },
    button: 'Read',
    request: (value) => {
      const uri = template.uriTemplate.replace(variable, (_, name) => encodeURIComponent(value[name] ?? ''));
      return { kind: 'read', label: uri, path: '/api/read', body: { uri } };
    },
  });
  if (completions) offerCompletions(node.querySelector('form'), { type: 'ref/resource', uri: template.uriTemplate });
  return node;
}

function promptCard(ids, completions, prompt) {
  const args = listOf(prompt.arguments);
  const properties = Object.fromEntries(
    args.map((arg) => [arg.name, { type: 'string', description: arg.description }]),
  );
  const node = card(ids, {
    kind: 'prompt',
    attr: 'prompt',
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    schema: { type: 'object', properties, required: args.filter((arg) => arg.required).map((arg) => arg.name) },
    button: 'Get',
    request: (value) => {
      const body = { name: prompt.name, arguments: value };
      return { kind: 'prompt', label: prompt.name, path: '/api/prompt', body };
    },
  });
  if (completions) offerCompletions(node.querySelector('form'), { type: 'ref/prompt', name: prompt.name });
  return node;
}

/**
 * The card builders of one render: `ids` are the ids it gave out, `completions` whether the server answers
 * `completion/complete` (the state being rendered says).
 */
export function cardsFor({ ids, completions }) {
  return {
    tool: (tool) => toolCard(ids, tool),
    resource: (resource) => resourceCard(ids, resource),
    template: (template) => templateCard(ids, completions, template),
    prompt: (prompt) => promptCard(ids, completions, prompt),
  };
}
