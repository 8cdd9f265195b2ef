/**
 * The browser side of `mcp-gen dev`'s console: the last build and design review, a form per tool, resource and
 * prompt of the running server, and a history of calls. It reads GET /api/state and renders it again on each `state`
 * server-sent event, keeping typed values, results, history and kept handles, and posts calls with the page's token.
 * Nodes are built with createElement and text only: the CSP allows no inline code, and all text comes from the server.
 */
import { history, kept, setBusy } from './console-calls.js';
import { cardsFor, listOf } from './console-cards.js';
import { controlsOf, dataOf, find, h, isObject } from './console-dom.js';
import { restore, snapshot } from './console-form.js';

let loads = 0;

function section(id, title) {
  const heading = h('h2', { id: `${id}-title` }, title);
  const body = h('div', { class: 'section-body' });
  return { node: h('section', { id, 'aria-labelledby': heading.id }, heading, body), body };
}

const ui = {
  title: h('h1', {}, 'mcp-gen console'),
  url: h('code', { id: 'server-url' }),
  status: h('p', { id: 'status', role: 'status' }, 'Loading the state…'),
  connection: h('p', { id: 'connection', role: 'status' }),
  review: section('review', 'Design review'),
  tools: section('tools', 'Tools'),
  resources: section('resources', 'Resources'),
  prompts: section('prompts', 'Prompts'),
  history: section('history', 'History'),
};

function renderHeader(state) {
  const name = state.server?.name || 'MCP server';
  ui.title.textContent = `${name} · mcp-gen console`;
  document.title = ui.title.textContent;
  ui.url.textContent = state.server?.url ?? '';
  const errors = Array.isArray(state.typeErrors) ? state.typeErrors : [];
  const failed = state.status === 'failed';
  const count = `${errors.length} type ${errors.length === 1 ? 'error' : 'errors'}`;
  const status = failed
    ? `build failed: ${count} — the last good server keeps answering`
    : `built · version ${state.version}`;
  // Only a change: a live region may announce even the same text again.
  if (ui.status.textContent !== status) ui.status.textContent = status;
  ui.status.classList.toggle('failed', failed);
  for (const id of ['type-errors', 'server-error']) document.getElementById(id)?.remove();
  const extra = [];
  if (errors.length > 0) extra.push(h('pre', { id: 'type-errors', tabindex: 0 }, errors.join('\n')));
  if (state.error)
    extra.push(h('p', { id: 'server-error', class: 'error' }, `The server could not be listed: ${state.error}`));
  ui.status.after(...extra);
}

/** A long list folded in a `<details>` that stays open or closed across renders (`data-keep`). */
function folded(keep, summary, items, open) {
  const list = items.length > 0 ? h('ul', {}, items) : h('p', { class: 'empty' }, 'None.');
  return h('details', { 'data-keep': keep, open: open.has(keep) }, h('summary', {}, summary), list);
}

function renderReview(review) {
  const open = new Set([...ui.review.body.querySelectorAll('details[open]')].map((node) => node.dataset.keep));
  if (!isObject(review)) {
    ui.review.body.replaceChildren(h('p', { class: 'empty' }, 'No design review for this version.'));
    return;
  }
  const gate = listOf(review.gate);
  const findings = listOf(review.findings);
  const heaviest = listOf(review.perTool)
    .slice(0, 5)
    .map((tool) => h('li', {}, h('code', {}, tool.name), ` ${tool.tokens} tokens`));
  const verdict = review.passed ? 'PASS' : 'FAIL';
  ui.review.body.replaceChildren(
    h('p', { class: `verdict ${verdict.toLowerCase()}` }, `Design gate: ${verdict}`),
    h('p', { class: 'cost' }, `tools/list: ${review.listTokens} tokens (${review.listBytes} bytes)`),
    h('h3', {}, 'Heaviest tools'),
    h('ol', { class: 'heaviest' }, heaviest),
    folded(
      'gate',
      `Gate items (${gate.length})`,
      gate.map((item) => {
        const tone = String(item.status).replace(/\W/g, '').toLowerCase();
        const status = h('span', { class: `badge gate-${tone}` }, item.status);
        return h('li', { class: 'gate-item' }, status, ' ', h('code', {}, item.id), ` ${item.title} — ${item.reason}`);
      }),
      open,
    ),
    folded(
      'findings',
      `Findings (${findings.length})`,
      findings.map((item) => {
        const severity = h('span', { class: `badge severity-${item.severity}` }, item.severity);
        const where = h('span', { class: 'where' }, item.where);
        return h('li', { class: 'finding' }, severity, ' ', h('code', {}, item.code), ` ${item.message} `, where);
      }),
      open,
    ),
  );
}

/** Every listed item in its section, or a line saying there is none. */
function fill(target, cards, none) {
  target.body.replaceChildren(...(cards.length > 0 ? cards : [h('p', { class: 'empty' }, none)]));
}

/**
 * Renders `state` in place of the last one. What the user typed (values that differ from a field's initial one)
 * goes back into the forms of items still listed, results and questions stay in their region, focus stays put.
 */
function render(state) {
  const typed = new Map([...kept.forms].map(([key, form]) => [key, snapshot(form, true)]));
  const focus = focusOf(document.activeElement);
  kept.forms.clear();
  // A new set of ids each render, so each id stays the same from one render of a state to the next.
  const cards = cardsFor({ ids: new Set(), completions: state.completions === true });
  renderHeader(state);
  renderReview(state.review);
  fill(ui.tools, listOf(state.tools).map(cards.tool), 'No tools listed.');
  const resources = [
    ...listOf(state.resources).map(cards.resource),
    ...listOf(state.resourceTemplates).map(cards.template),
  ];
  fill(ui.resources, resources, 'No resources listed.');
  fill(ui.prompts, listOf(state.prompts).map(cards.prompt), 'No prompts listed.');
  for (const [key, form] of kept.forms) {
    if (typed.has(key)) restore(form, typed.get(key));
    setBusy(key, kept.busy.has(key));
  }
  for (const key of [...kept.regions.keys()]) if (!kept.forms.has(key)) kept.regions.delete(key);
  refocus(focus);
}

function focusOf(element) {
  const form = element?.closest?.('form[data-key]');
  const start = typeof element?.selectionStart === 'number' ? element.selectionStart : null;
  const key = form ? (dataOf(form, 'key') ?? undefined) : undefined;
  return { element, key, name: element?.name, start, end: element?.selectionEnd };
}

/** Focus back on the element, or on its counterpart in the new form (same item, same field). */
function refocus({ element, key, name, start, end }) {
  if (!element || element === document.body) return;
  if (element.isConnected) {
    if (document.activeElement !== element) element.focus();
    return;
  }
  const form = key === undefined ? null : kept.forms.get(key);
  const target = !form ? null : name ? controlsOf(form).namedItem(name) : find(form, 'button[type="submit"]');
  if (!(target instanceof HTMLElement)) return;
  target.focus();
  if (start !== null) target.setSelectionRange?.(start, end);
}

/** Reads the state; a slower answer to an earlier read never replaces a newer one. */
async function load() {
  const mine = ++loads;
  try {
    const response = await fetch('/api/state', { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const state = await response.json();
    if (mine === loads) render(state);
  } catch (error) {
    if (mine === loads) ui.status.textContent = `Could not read the state: ${error.message}`;
  }
}

/** Each `state` event means a new version; after a lost connection, events may have been missed. */
function listen() {
  const events = new EventSource('/api/events');
  events.addEventListener('state', () => load());
  events.addEventListener('open', () => {
    if (ui.connection.textContent === '') return;
    ui.connection.textContent = '';
    load();
  });
  events.addEventListener('error', () => {
    ui.connection.textContent = 'Lost the connection to mcp-gen dev; trying again…';
  });
}

function mount() {
  // An empty icon: otherwise the browser asks for /favicon.ico, which the console does not serve (a 404 logged).
  document.head.append(h('link', { rel: 'icon', href: 'data:,' }));
  const header = h(
    'header',
    {},
    ui.title,
    h('p', { class: 'server' }, 'MCP endpoint: ', ui.url),
    ui.status,
    ui.connection,
  );
  ui.history.body.append(history.empty, history.list);
  const sections = [ui.review, ui.tools, ui.resources, ui.prompts, ui.history].map((part) => part.node);
  document.getElementById('app').replaceChildren(header, h('main', {}, sections));
}

mount();
load();
listen();
