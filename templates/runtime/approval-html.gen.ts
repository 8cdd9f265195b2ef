/**
 * The approval page's HTML (approval-page.gen.ts serves it). Every text on it comes from the manifest, the client or
 * the arguments, so all of it is escaped and none of it reaches an attribute but the form's own values, which are
 * minted here. There is no script at all: the page works with a plain form POST, and its one style sheet is allowed
 * by hash in the Content-Security-Policy, so an injected tag could neither run nor load anything.
 */
import { createHash } from 'node:crypto';

/** What the page shows of one pending call. */
export interface PageCall {
  readonly server: string;
  readonly tool: string;
  readonly title: string | null;
  readonly description: string;
  readonly annotations: Readonly<Record<string, boolean>>;
  readonly principal: string;
  /** Each argument's value as canonical JSON, by name. */
  readonly args: readonly (readonly [string, string])[];
  readonly expiresAt: number;
}

/** A value longer than this is folded: its start is shown, the whole behind a `<details>` that needs no script. */
export const foldAt = 300;

const style =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:0 auto;padding:1rem;color:#111;background:#fff}' +
  'h1{font-size:1.4rem}dt{font-weight:600;margin-top:.6rem}dd{margin:0}pre{white-space:pre-wrap;' +
  'overflow-wrap:anywhere;background:#f3f3f3;padding:.5rem;margin:.2rem 0}.actions{display:flex;gap:1rem;' +
  'margin-top:1.5rem}button{font-size:1.1rem;padding:.7rem 1.4rem;border-radius:.3rem;border:2px solid #111;' +
  'background:#fff;color:#111}button.approve{background:#0b6b2e;border-color:#063;color:#fff}.note{color:#444}';

/** The page's Content-Security-Policy: nothing but its own style sheet, forms only to itself, never framed. */
export const pagePolicy =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; ` +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe in HTML content and in a double-quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c);

function frame(title: string, body: string): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title><style>${style}</style></head>` +
    `<body><main>${body}</main></body></html>\n`
  );
}

function valueHtml(json: string): string {
  if (json.length <= foldAt) return `<pre>${escapeHtml(json)}</pre>`;
  return (
    `<pre>${escapeHtml(json.slice(0, foldAt))}…</pre><details><summary>Show all ${json.length} characters` +
    `</summary><pre>${escapeHtml(json)}</pre></details>`
  );
}

/** The page that asks a person to approve or decline `call`; `token` is the form's CSRF token. */
export function approvalPage(call: PageCall, action: string, token: string): string {
  const label = call.title === null ? call.tool : `${call.title} (${call.tool})`;
  const hints = Object.entries(call.annotations)
    .filter(([, on]) => on)
    .map(([name]) => name);
  const args =
    call.args.length === 0
      ? '<dd>none</dd>'
      : call.args.map(([name, json]) => `<dd><strong>${escapeHtml(name)}</strong>${valueHtml(json)}</dd>`).join('');
  return frame(
    `Approve ${label}?`,
    `<h1>Approve ${escapeHtml(label)}?</h1>` +
      `<p>An AI assistant asks to run this tool on <strong>${escapeHtml(call.server)}</strong>. ` +
      'It runs once, with exactly these arguments, only if you approve.</p><dl>' +
      `<dt>Tool</dt><dd>${escapeHtml(label)}</dd>` +
      `<dt>What it does</dt><dd>${escapeHtml(call.description)}</dd>` +
      `<dt>Marked</dt><dd>${hints.length === 0 ? 'no hints' : escapeHtml(hints.join(', '))}</dd>` +
      `<dt>On behalf of</dt><dd>${escapeHtml(call.principal)}</dd>` +
      `<dt>Arguments</dt>${args}` +
      `<dt>This request expires</dt><dd>${escapeHtml(new Date(call.expiresAt).toISOString())}</dd></dl>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
      '<div class="actions"><button class="approve" type="submit" name="decision" value="approve">Approve</button>' +
      '<button type="submit" name="decision" value="decline">Decline</button></div></form>',
  );
}

/** A page that only says something: the outcome of a decision, or why there is nothing to decide. */
export function noticePage(title: string, text: string): string {
  return frame(title, `<h1>${escapeHtml(title)}</h1><p class="note">${escapeHtml(text)}</p>`);
}
