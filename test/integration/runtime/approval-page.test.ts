import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, decideInBrowser, openBrowser, widthOnPhone } from '../../support/approval-browser.js';
import { buildGuarded, connectGuardedStdio, guardedEnv, tokens } from './guarded.js';
import { envelope, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// The approval page (approval-page.gen.ts) on a generated server over real HTTP, decided in a real browser: a client
// that declares no form elicitation gets a link instead of an error, a person approves or declines on the page in
// headless Chromium, and the repeated call runs exactly once.

const dir = path.join(repoRoot, '.test-out', 'runtime-approval-page');
const calls = path.join(dir, 'calls.log');
const noForm = envelope({});
const runs = (): number => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0);

let entry = '';
let server: RunningServer;
let browser: Browser;

/** One call of delete_item from a client without elicitation, as `token`'s principal. */
async function callDelete(args: Record<string, unknown>, token: string = tokens.alice, meta = noForm) {
  const answer = await rpc(server.url, 'tools/call', { name: 'delete_item', arguments: args, _meta: meta }, token);
  expect(answer.status).toBe(200);
  return answer.body.result as {
    content: { text: string }[];
    isError?: boolean;
    _meta?: { 'mcp-gen/approval'?: { url: string; expiresAt: string } };
  };
}

/** The approval link of an answer that asks for one. */
function linkOf(result: Awaited<ReturnType<typeof callDelete>>): string {
  expect(result.isError).toBe(true);
  const link = result._meta?.['mcp-gen/approval']?.url ?? '';
  expect(link).toMatch(new RegExp(`^${server.url.origin}/approvals/[A-Za-z0-9_-]{22}$`));
  expect(result.content[0]?.text).toContain(`open ${link} ,`);
  return link;
}

const decide = (link: string, button: 'Approve' | 'Decline', shows: readonly string[]): Promise<string> =>
  decideInBrowser(browser, link, button, shows);

beforeAll(async () => {
  entry = buildGuarded('runtime-approval-page');
  rmSync(calls, { force: true });
  server = await startHttpServer(entry, guardedEnv(calls));
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the approval page, for a client that cannot be asked in-band', () => {
  it('links to the page; a person approves in the browser; the repeat runs once, a second one does not', async () => {
    const before = runs();
    const link = linkOf(await callDelete({ id: 'item-1', reason: 'tidy <up> "now"' }));
    // Asked again before anyone decided: the same link, nothing run.
    expect(linkOf(await callDelete({ id: 'item-1', reason: 'tidy <up> "now"' }))).toBe(link);
    expect(runs()).toBe(before);
    const heading = await decide(link, 'Approve', [
      'Delete an item (delete_item)',
      'Deletes the item for good. Cannot be undone.',
      'destructiveHint',
      'alice',
      '"item-1"',
      '"tidy <up> \\"now\\""',
    ]);
    expect(heading).toBe('Approved');
    const ran = await callDelete({ id: 'item-1', reason: 'tidy <up> "now"' });
    expect(ran.isError).toBeUndefined();
    expect(ran.content[0]?.text).toBe(`deleted item-1 for alice (run ${before + 1})`);
    // The approval is spent: the same call again asks anew and runs nothing.
    expect(linkOf(await callDelete({ id: 'item-1', reason: 'tidy <up> "now"' }))).not.toBe(link);
    expect(runs()).toBe(before + 1);
  });

  it('after Decline the repeat is refused, and the page cannot be decided again', async () => {
    const before = runs();
    const link = linkOf(await callDelete({ id: 'item-2' }));
    expect(await decide(link, 'Decline', ['"item-2"'])).toBe('Declined');
    const refused = await callDelete({ id: 'item-2' });
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content[0]?.text).toBe(
      'The user declined "Delete an item" (delete_item) on the approval page; nothing was done.',
    );
    expect(runs()).toBe(before);
  });

  it('binds an approval to its principal and arguments', async () => {
    const before = runs();
    const link = linkOf(await callDelete({ id: 'item-3' }));
    expect(await decide(link, 'Approve', ['"item-3"'])).toBe('Approved');
    // Other arguments, or the same ones for another principal: a new approval, nothing run.
    expect(linkOf(await callDelete({ id: 'item-4' }))).not.toBe(link);
    expect(linkOf(await callDelete({ id: 'item-3' }, tokens.carol))).not.toBe(link);
    expect(runs()).toBe(before);
    expect((await callDelete({ id: 'item-3' })).isError).toBeUndefined();
    expect(runs()).toBe(before + 1);
  });

  it('refuses a POST without the token, from elsewhere, or replayed; serves the page with its policy', async () => {
    const link = linkOf(await callDelete({ id: 'item-5' }));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(link, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      }).then((r) => r.status);
    expect(await post('decision=approve')).toBe(403);
    expect(await post(`decision=approve&token=${token}x`)).toBe(403);
    expect(await post(`decision=approve&token=${token}`, { origin: 'http://evil.example' })).toBe(403);
    expect(await post(`decision=approve&token=${token}`, { 'sec-fetch-site': 'cross-site' })).toBe(403);
    // The page's own token without the page's Origin: a program that read the page, not a person's click.
    expect(await post(`decision=approve&token=${token}`)).toBe(403);
    expect(await post(`decision=approve&token=${token}`, { origin: server.url.origin })).toBe(200);
    expect(await post(`decision=decline&token=${token}`, { origin: server.url.origin })).toBe(409);
    expect((await fetch(`${server.url.origin}/approvals/${'A'.repeat(22)}`)).status).toBe(404);
  });

  it('passes an automated accessibility check and fits a phone, a long argument included', async () => {
    const link = linkOf(await callDelete({ id: 'item-8', reason: `${'a long reason '.repeat(14)}end` }));
    expect(await accessibilityViolations(browser, link)).toEqual([]);
    expect(await widthOnPhone(browser, link)).toBeLessThanOrEqual(375);
  });

  it('sends the link as a URL-mode input request to a client that declares URL elicitation', async () => {
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'delete_item', arguments: { id: 'item-6' }, _meta: envelope({ elicitation: { url: {} } }) },
      tokens.alice,
    );
    expect(answer.body.result.resultType).toBe('input_required');
    const request = answer.body.result.inputRequests.confirm;
    expect(request.method).toBe('elicitation/create');
    expect(request.params.mode).toBe('url');
    expect(request.params.url).toMatch(new RegExp(`^${server.url.origin}/approvals/`));
  });

  it('keeps asking in-band a client that declares form elicitation', async () => {
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'delete_item', arguments: { id: 'item-7' }, _meta: envelope() },
      tokens.alice,
    );
    expect(answer.body.result.resultType).toBe('input_required');
    expect(answer.body.result.inputRequests.confirm.params.mode).toBe('form');
  });
});

describe('the approval page of a stdio server', () => {
  it('opens a loopback listener for the page; the repeat after Approve runs once', async () => {
    const before = runs();
    // A real client that declares no elicitation at all.
    const client = new Client(
      { name: 'no-elicitation', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await connectGuardedStdio(client, entry, calls);
    try {
      const asked = await client.callTool({ name: 'delete_item', arguments: { id: 'stdio-1' } });
      expect(asked.isError).toBe(true);
      const link = String((asked._meta?.['mcp-gen/approval'] as { url?: string } | undefined)?.url);
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/approvals\/[A-Za-z0-9_-]{22}$/);
      expect(await decide(link, 'Approve', ['"stdio-1"', 'anonymous'])).toBe('Approved');
      const ran = await client.callTool({ name: 'delete_item', arguments: { id: 'stdio-1' } });
      expect(ran.content).toEqual([{ type: 'text', text: `deleted stdio-1 for anonymous (run ${before + 1})` }]);
      const again = await client.callTool({ name: 'delete_item', arguments: { id: 'stdio-1' } });
      expect(again.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(runs()).toBe(before + 1);
  });
});
