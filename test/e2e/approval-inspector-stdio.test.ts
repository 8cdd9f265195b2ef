import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideInBrowser, openBrowser } from '../support/approval-browser.js';
import { inspectorCli, installInterop, node22, versions } from '../integration/protocol/interop-support.js';
import { generateAndCompile, repoRoot, startHttpServer, type RunningServer } from '../integration/runtime/harness.js';
import { startRedis, type RunningRedis } from '../integration/runtime/redis.js';

// The MCP Inspector CLI over stdio starts the server for one call and ends it with the call, so a loopback page
// would end before a person could open it. With a shared store, the stdio server names an HTTP instance's origin
// (MCP_GEN_APPROVAL_ORIGIN) that serves the page: the person decides there, the next CLI run (a new process) runs the
// call once, and the one after asks anew.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'stored.yaml');
const calls = path.join(repoRoot, '.test-out', 'approval-inspector-stdio.calls');
const home = path.join(repoRoot, '.test-out', 'approval-inspector-stdio-home');
const stateKey = 'stored-state-key-0123456789abcdef-01234';
const handlers = {
  'src/handlers/tools/remove_record.ts': `import { appendFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const removeRecordHandler: ToolHandler<'remove_record'> = async (input) => {
  appendFileSync(process.env.STORED_CALLS ?? '', \`\${input.id}\\n\`);
  return \`removed \${input.id}\`;
};
`,
};
const run = promisify(execFile);
const runsOf = (id: string): number =>
  existsSync(calls)
    ? readFileSync(calls, 'utf8')
        .split('\n')
        .filter((line) => line === id).length
    : 0;

let entry = '';
let redis: RunningRedis;
let pages: RunningServer;
let browser: Browser;

/** One `inspector --cli` run of remove_record: a new stdio server process per call. */
async function remove(id: string): Promise<{ text: string; isError: boolean; link: string }> {
  const env = {
    STORED_STATE_KEY: stateKey,
    STORED_REDIS_URL: redis.url,
    STORED_CALLS: calls,
    MCP_GEN_APPROVAL_ORIGIN: pages.url.origin,
  };
  const args = [
    inspectorCli,
    '--cli',
    '--format',
    'json',
    ...Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
    '--method',
    'tools/call',
    '--tool-name',
    'remove_record',
    '--tool-args-json',
    JSON.stringify({ id }),
    '--',
    process.execPath,
    entry,
    '--transport',
    'stdio',
  ];
  const child = await run(node22, args, { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 }).catch(
    (error: { code?: number; stdout?: string; stderr?: string }) => {
      // A tool result with isError exits 5 and still prints the result.
      if (error.code === 5 && error.stdout !== undefined) return { stdout: error.stdout };
      throw new Error(`inspector failed: ${String(error.code)} ${error.stderr ?? ''}`);
    },
  );
  const result = (JSON.parse(child.stdout.split('\n')[0] ?? 'null') as { result: any }).result;
  return {
    text: result.content?.[0]?.text ?? '',
    isError: result.isError === true,
    link: String(result._meta?.['mcp-gen/approval']?.url ?? ''),
  };
}

beforeAll(async () => {
  installInterop();
  entry = generateAndCompile(manifest, 'approval-inspector-stdio', handlers);
  rmSync(calls, { force: true });
  mkdirSync(home, { recursive: true });
  redis = await startRedis();
  pages = await startHttpServer(entry, {
    STORED_STATE_KEY: stateKey,
    STORED_REDIS_URL: redis.url,
    STORED_CALLS: calls,
  });
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await pages?.stop();
  await redis?.stop();
});

describe(`MCP Inspector CLI ${versions.inspector} over stdio, pages on an HTTP instance on the same Redis`, () => {
  it('gets a link on the HTTP origin; after Approve the next run runs once, the one after asks anew', async () => {
    const asked = await remove('i1');
    expect(asked.isError).toBe(true);
    expect(asked.link.startsWith(`${pages.url.origin}/approvals/`)).toBe(true);
    expect(asked.text).toContain(asked.link);
    expect(await decideInBrowser(browser, asked.link, 'Approve', ['Remove a record (remove_record)', '"i1"'])).toBe(
      'Approved',
    );
    expect(await remove('i1')).toEqual({ text: 'removed i1', isError: false, link: '' });
    expect(runsOf('i1')).toBe(1);
    const again = await remove('i1');
    expect([again.isError, again.link.startsWith(`${pages.url.origin}/approvals/`)]).toEqual([true, true]);
    expect(again.link).not.toBe(asked.link);
    expect(runsOf('i1')).toBe(1);
  }, 180_000);

  it('after Decline the next run is refused and nothing runs', async () => {
    const asked = await remove('i2');
    expect(await decideInBrowser(browser, asked.link, 'Decline', ['"i2"'])).toBe('Declined');
    expect(await remove('i2')).toEqual({
      text: 'The user declined "Remove a record" (remove_record) on the approval page; nothing was done.',
      isError: true,
      link: '',
    });
    expect(runsOf('i2')).toBe(0);
  }, 180_000);
});
