import { describe, expect, it } from 'vitest';
import { ApprovalPages } from '../../../templates/runtime/approval-page.gen.js';
import type { ToolSpec } from '../../../templates/runtime/spec.gen.js';
import { MemoryStore } from '../../../templates/runtime/store.gen.js';
import { rawStatus } from '../../support/raw-http.js';

// The loopback listener a stdio server opens for its approval pages, in this process: a request target the URL parser
// refuses once ended the whole server (the parse ran in node:http's callback); a POST without the page's Origin,
// which every browser sends, is a program that read the page, not a person's click.

const tool = {
  name: 'delete_item',
  listing: { title: 'Delete item', description: 'Deletes one item.', annotations: { destructiveHint: true } },
} as unknown as ToolSpec;

describe('the approval listener of a stdio server', () => {
  it('answers a target it cannot parse with 400 and goes on; refuses a decision posted without Origin', async () => {
    const pages = new ApprovalPages(new MemoryStore(), Buffer.alloc(32, 7), 'shop', 60_000, {}, () => {});
    const verdict = await pages.request(tool, [['id', '"item-1"']], 'digest', 'anonymous');
    if (verdict.kind !== 'ask') throw new Error(`expected a link, got ${verdict.kind}`);
    const link = new URL(verdict.url);
    const host = `Host: ${link.host}\r\n`;
    expect(await rawStatus(Number(link.port), `GET //[ HTTP/1.1\r\n${host}Connection: close\r\n\r\n`)).toBe(
      'HTTP/1.1 400 Bad Request',
    );
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const post = (headers: Record<string, string>) =>
      fetch(link, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: `decision=approve&token=${token}`,
      }).then((r) => r.status);
    expect(await post({})).toBe(403);
    expect(await post({ origin: link.origin })).toBe(200);
  });
});
