/**
 * The console's page: a fixed HTML shell that loads the console's script and style sheet from its own origin. The
 * only value in it is the request token (base64url, escaped all the same); every piece of data the page shows is
 * fetched as JSON and put in the document as text by the script, never as markup.
 */

/** Scripts and style sheets from the console's own origin only, no inline code, no framing, no form posts. */
export const consolePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every console answer. */
export const consoleHeaders = {
  'content-security-policy': consolePolicy,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

/** The shell: the token the script sends with every POST, its script and its style sheet. */
export function consoleShell(token: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="mcp-gen-console-token" content="${escapeHtml(token)}">`,
    '<title>mcp-gen console</title>',
    // No favicon request: the console has none.
    '<link rel="icon" href="data:,">',
    '<link rel="stylesheet" href="/console.css">',
    '<link rel="stylesheet" href="/console-items.css">',
    '<script type="module" src="/console.js"></script>',
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
    '',
  ].join('\n');
}
