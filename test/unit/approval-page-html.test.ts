import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  approvalPage,
  escapeHtml,
  foldAt,
  noticePage,
  type PageCall,
  pagePolicy,
} from '../../templates/runtime/approval-html.gen.js';

// The approval page renders text from the manifest, the client and the arguments: all of it must stay text.
const hostile = `<script>alert("x")</script> ' " & </textarea><img src=x onerror=alert(1)>`;
const call: PageCall = {
  server: 'guarded <b>',
  tool: 'delete_item',
  title: 'Delete "an" item',
  description: hostile,
  annotations: { destructiveHint: true, readOnlyHint: false },
  principal: `alice${hostile}`,
  args: [
    ['id', JSON.stringify(hostile)],
    ['note', JSON.stringify('y'.repeat(100_000))],
  ],
  expiresAt: Date.UTC(2026, 11, 5, 12, 0, 0),
};

describe('the approval page', () => {
  const page = approvalPage(call, '/approvals/abc', 'tok"en<');

  it('renders every given text inert: no tag, no attribute, no script from data', () => {
    expect(page).not.toMatch(/<script|<img|<\/textarea|<b>/i);
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &#39; &quot; &amp; &lt;/textarea&gt;');
    expect(page).toContain('<input type="hidden" name="token" value="tok&quot;en&lt;">');
    expect(page).toContain('<form method="post" action="/approvals/abc">');
  });

  it('names the server, tool, hints, principal, every argument and the expiry', () => {
    expect(page).toContain('<title>Approve Delete &quot;an&quot; item (delete_item)?</title>');
    expect(page).toContain('<strong>guarded &lt;b&gt;</strong>');
    expect(page).toContain('<dt>Marked</dt><dd>destructiveHint</dd>');
    expect(page).toContain('<dd><strong>id</strong><pre>');
    expect(page).toContain('<dt>This request expires</dt><dd>2026-12-05T12:00:00.000Z</dd>');
    expect(page).toContain('name="decision" value="approve">Approve</button>');
    expect(page).toContain('name="decision" value="decline">Decline</button>');
  });

  it('folds a long value behind a details element, whole and escaped', () => {
    const start = `<pre>&quot;${'y'.repeat(foldAt - 1)}…</pre><details><summary>Show all 100002 characters`;
    expect(page).toContain(start);
    expect(page).toContain(`<pre>&quot;${'y'.repeat(100_000)}&quot;</pre></details>`);
  });

  it('is allowed by its policy: the one style sheet by hash, nothing else', () => {
    const style = /<style>([^<]*)<\/style>/.exec(page)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(pagePolicy).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('escapes the five characters of HTML and leaves the rest', () => {
    expect(escapeHtml(`a&b<c>d"e'f ü`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f ü');
    expect(noticePage('Done <now>', 'x & y')).toContain('<h1>Done &lt;now&gt;</h1><p class="note">x &amp; y</p>');
  });
});
