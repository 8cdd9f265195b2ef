/**
 * The dev console's requests: posts a call, read or prompt, answers the server's questions in the item's result
 * region, shows the result, keeps the handles a tool returns for the tools that take them, and lists every request
 * in the history. Apart from console.js (which renders the state) so each file stays small; nodes are built with
 * createElement and text only, as the page's CSP and the server's untrusted text require.
 */
import { controlsOf, find, findAll, h, isObject, listen, submitForm } from './console-dom.js';
import { buildFields, readForm, restore } from './console-form.js';
import { list, views } from './console-views.js';

const token = document.querySelector('meta[name="mcp-gen-console-token"]')?.getAttribute('content') ?? '';
const maxHandles = 20;
const maxHistory = 50;

/** What outlives a render: handles by kind, newest first; forms, result regions and requests under way by key. */
export const kept = { handles: new Map(), forms: new Map(), regions: new Map(), busy: new Set() };
/** The history list, in memory only (a reload starts it again). */
export const history = {
  list: h('ol', { class: 'history' }),
  empty: h('p', { class: 'empty' }, 'No calls yet.'),
};

/** POSTs `body` to an API path with the page's token; every failure comes back as an error step. */
async function post(path, body) {
  try {
    const headers = { 'content-type': 'application/json', 'x-mcp-gen-console-token': token };
    const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
    const step = await response.json().catch(() => null);
    if (isObject(step) && typeof step.kind === 'string') return step;
    return { kind: 'error', message: `the console answered HTTP ${response.status}`, code: null };
  } catch (error) {
    return { kind: 'error', message: `the console could not be reached: ${error.message}`, code: null };
  }
}

/** Marks the request of form `key` under way: its submit button disabled, its result region busy. */
export function setBusy(key, busy) {
  if (busy) kept.busy.add(key);
  else kept.busy.delete(key);
  const form = kept.forms.get(key);
  const button = form === undefined ? null : find(form, 'button[type="submit"]');
  if (button) button.disabled = busy;
}

function setRegionBusy(region, busy) {
  if (busy) region.setAttribute('aria-busy', 'true');
  else region.removeAttribute('aria-busy');
}

/**
 * Runs `request` ({ key, values, kind, label, path, body, done }) to its end: the server's questions are answered in
 * the region of `key`, the round trip listed above the result; then the request goes into the history.
 */
export async function run(request) {
  const region = kept.regions.get(request.key);
  const trail = [];
  setBusy(request.key, true);
  setRegionBusy(region, true);
  show(region, trail, [h('p', { class: 'pending' }, 'Waiting for the server…')]);
  let step = await post(request.path, request.body);
  while (step.kind === 'question') {
    trail.push(`asked: ${step.question?.message ?? ''}`);
    setRegionBusy(region, false);
    const answer = await ask(region, step, trail);
    trail.push(`answered: ${answer.action}`);
    setRegionBusy(region, true);
    step = await post('/api/answer', { call: step.call, answer });
  }
  if (trail.length > 0) trail.push(step.kind === 'result' ? 'result' : 'error');
  show(region, trail, stepView(step, request.kind));
  setRegionBusy(region, false);
  setBusy(request.key, false);
  request.done?.(step);
  addHistory(request, step);
}

function show(region, trail, nodes) {
  const steps =
    trail.length > 0
      ? h(
          'ol',
          { class: 'steps' },
          trail.map((text) => h('li', {}, text)),
        )
      : null;
  region.replaceChildren(...[steps, ...nodes].filter(Boolean));
}

/** Shows the server's question as a form and resolves with the page's answer. */
function ask(region, step, trail) {
  return new Promise((resolve) => {
    const schema = isObject(step.question?.requestedSchema) ? step.question.requestedSchema : {};
    const { nodes, fields } = buildFields(schema, { idBase: `q-${step.call}`, ids: new Set() });
    const message = h('p', { class: 'message', id: `q-${step.call}-message` }, step.question?.message ?? '');
    const accept = h('button', { type: 'submit', value: 'accept' }, 'Accept');
    const decline = h('button', { type: 'button', class: 'decline' }, 'Decline');
    const actions = h('div', { class: 'actions' }, accept, decline);
    const form = h('form', { class: 'question', 'data-call': step.call, 'aria-labelledby': message.id });
    form.append(message, ...nodes, actions);
    const answer = (value) => {
      accept.disabled = true;
      decline.disabled = true;
      resolve(value);
    };
    listen(form, 'submit', (event) => {
      event.preventDefault();
      const { value, errors } = readForm(fields);
      if (errors.length > 0) errors[0].focus();
      else answer({ action: 'accept', content: value });
    });
    decline.addEventListener('click', () => answer({ action: 'decline' }));
    show(region, trail, [form]);
    // The question answers the click that asked it: keyboard users continue in it.
    (find(form, 'input, select, textarea') ?? accept).focus();
  });
}

function stepView(step, kind) {
  if (step.kind !== 'result') {
    const code = typeof step.code === 'number' ? ` ${step.code}` : '';
    return [h('p', { class: 'error' }, `error${code}: ${step.message ?? 'the console answered an unknown step'}`)];
  }
  const log = Array.isArray(step.log) ? step.log : [];
  const summary = `Server log (${log.length} ${log.length === 1 ? 'line' : 'lines'})`;
  const failure = kind === 'tool' ? 'The tool returned an error' : 'The request failed';
  return [
    step.failed ? h('p', { class: 'error' }, failure) : null,
    views[kind](isObject(step.result) ? step.result : {}),
    h('details', { class: 'log' }, h('summary', {}, summary), h('pre', { tabindex: 0 }, log.join('\n'))),
    h('p', { class: 'elapsed' }, `${step.elapsedMs} ms`),
  ].filter(Boolean);
}

/** The path a schema pointer names in the value: `/properties/a/items/properties/id` → a, [], id; null if odd. */
function partsOf(pointer) {
  if (typeof pointer !== 'string') return null;
  const segments = pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const parts = [];
  while (segments.length > 0) {
    const segment = segments.shift();
    if (segment === 'items') parts.push('[]');
    else if (segment === 'properties' && segments.length > 0) parts.push(segments.shift());
    else return null;
  }
  return parts;
}

function valuesAt(value, parts) {
  if (parts.length === 0) return [value];
  const [part, ...rest] = parts;
  if (part === '[]') return list(value).flatMap((item) => valuesAt(item, rest));
  return isObject(value) && Object.hasOwn(value, part) ? valuesAt(value[part], rest) : [];
}

/** Offers the kept handles of `kind` on the text input a tool's pointer names, with a datalist. */
export function takeHandles(form, kind, pointer) {
  const parts = partsOf(pointer);
  const input = parts && !parts.includes('[]') ? controlsOf(form).namedItem(parts.join('.')) : null;
  if (!(input instanceof HTMLInputElement) || input.type !== 'text') return;
  const options = h('datalist', { id: `${input.id}-handles` });
  input.setAttribute('list', options.id);
  input.dataset.handleKind = kind;
  input.after(options);
  offer(input, options);
}

/**
 * Offers, on each text field of a template's or prompt's `form`, the values the server's `completion/complete`
 * gives for what is typed so far (the other fields as its context), in a datalist; asked on focus and after typing.
 */
export function offerCompletions(form, ref) {
  const inputs = findAll(form, 'input[name]').filter((input) => input.type === 'text');
  for (const input of inputs) {
    const options = h('datalist', { id: `${input.id}-completions` });
    input.setAttribute('list', options.id);
    input.setAttribute('autocomplete', 'off');
    input.after(options);
    let timer;
    let asked = null;
    const ask = async () => {
      const value = input.value;
      if (asked === value) return;
      asked = value;
      const others = inputs.filter((other) => other !== input && other.value !== '');
      const context = Object.fromEntries(others.map((other) => [other.name, other.value]));
      const step = await post('/api/complete', { ref, argument: { name: input.name, value }, context });
      if (step.kind !== 'completion' || input.value !== value) return;
      options.replaceChildren(...step.values.map((option) => h('option', { value: option })));
    };
    input.addEventListener('focus', () => void ask());
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(ask, 150);
    });
  }
}

/** Fills the datalist; a value the user has not changed becomes the newest handle. */
function offer(input, options) {
  const handles = kept.handles.get(input.dataset.handleKind) ?? [];
  options.replaceChildren(...handles.map((handle) => h('option', { value: handle })));
  if (handles.length > 0 && input.value === input.defaultValue) {
    input.defaultValue = handles[0];
    input.value = handles[0];
  }
}

/** Keeps the handles a tool's result issues (its `handles.issues` pointers into structuredContent). */
export function keepHandles(tool, step) {
  const structured = step.kind === 'result' && !step.failed ? step.result?.structuredContent : undefined;
  if (structured === undefined) return;
  for (const { kind, pointer } of tool.handles?.issues ?? []) {
    const parts = partsOf(pointer);
    const found = parts ? valuesAt(structured, parts).filter((value) => typeof value === 'string') : [];
    if (found.length === 0) continue;
    const older = (kept.handles.get(kind) ?? []).filter((handle) => !found.includes(handle));
    kept.handles.set(kind, [...new Set(found), ...older].slice(0, maxHandles));
    for (const input of document.querySelectorAll('input[data-handle-kind]')) {
      if (input.dataset.handleKind === kind && input.list) offer(input, input.list);
    }
  }
}

function addHistory(request, step) {
  history.list.prepend(historyItem(request, step, new Date()));
  while (history.list.children.length > maxHistory) history.list.lastElementChild.remove();
  history.empty.hidden = true;
}

function historyItem(request, step, at) {
  const ok = step.kind === 'result' && !step.failed;
  const copies = step.kind === 'result' && step.copies !== null && typeof step.copies === 'object' ? step.copies : {};
  const note = h('p', { class: 'note', role: 'status' });
  const replay = h('button', { type: 'button', class: 'replay', 'aria-label': `Replay ${request.label}` }, 'Replay');
  replay.addEventListener('click', () => replayRequest(request, note));
  const summary = h(
    'p',
    { class: 'summary' },
    h('span', { class: 'kind' }, request.kind),
    ' ',
    h('code', { class: 'name' }, request.label),
    ' ',
    h('time', { datetime: at.toISOString() }, at.toLocaleTimeString()),
    ' ',
    h('span', { class: 'outcome' }, ok ? 'ok' : 'failed'),
  );
  const item = h('li', { class: `entry ${ok ? 'ok' : 'failed'}`, 'data-kind': request.kind }, summary);
  const actions = h('div', { class: 'actions' }, replay);
  item.append(actions, note);
  for (const [key, label, what] of copyForms) {
    const text = typeof copies[key] === 'string' ? copies[key] : '';
    if (text === '') continue;
    const copy = h(
      'button',
      { type: 'button', class: `copy copy-${key}`, 'aria-label': `Copy as ${label}: ${request.label}` },
      `Copy as ${label}`,
    );
    const fallback = h('pre', { class: `copy-fallback ${key}`, tabindex: 0, hidden: true }, text);
    copy.addEventListener('click', () => copyText(text, what, note, fallback));
    actions.append(copy);
    item.append(fallback, h('details', { class: key }, h('summary', {}, label), h('pre', { tabindex: 0 }, text)));
  }
  return item;
}

/** What "Copy as" offers: the key of the step's `copies`, the button's label, and what the note calls it. */
const copyForms = [
  ['curl', 'curl', 'the curl command'],
  ['client', 'client code', 'the client code'],
];

async function copyText(text, what, note, fallback) {
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = `Copied ${what}.`;
  } catch {
    fallback.hidden = false;
    note.textContent = `The clipboard is not available here: ${what} is shown below.`;
  }
}

/** Fills the item's form as it was sent and submits it again (the form checks its fields again too). */
function replayRequest(request, note) {
  const form = kept.forms.get(request.key);
  if (!form?.isConnected) note.textContent = `${request.label} is no longer listed.`;
  else if (kept.busy.has(request.key)) note.textContent = 'Its last request is still under way.';
  else {
    note.textContent = '';
    restore(form, request.values);
    submitForm(form);
  }
}
