import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installLiveServers, publishedServers } from '../../support/live-servers.js';
import { repoRoot, runIn } from '../../support/golden.js';

// `mcp-gen import server` then `mcp-gen verify` against the same unchanged server says "no drift" for each of
// four published servers (lockfile-pinned in test/fixtures/import/live-servers); against a fixture server
// started with one deliberate change, verify names exactly that change, by JSON pointer, and exits 1.

const published = publishedServers;
const dictionary = path.join(repoRoot, 'test', 'fixtures', 'import', 'drift-server.mjs');
const out = path.join(repoRoot, '.test-out', 'verify-live');

beforeAll(() => {
  installLiveServers();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'fs-root'), { recursive: true });
}, 600_000);

async function importThenVerify(label: string, command: string[], verifyCommand = command) {
  const manifest = path.join(out, `${label}.yaml`);
  const imported = await runIn(out, ['import', 'server', '--out', manifest, '--', ...command]);
  expect(imported.code).toBe(0);
  return { manifest, verified: await runIn(out, ['verify', '--manifest', manifest, '--', ...verifyCommand]) };
}

describe('import server, then verify the same server: no drift', () => {
  const servers: [string, string[]][] = [
    ['everything', []],
    ['filesystem', [path.join(out, 'fs-root')]],
    ['memory', []],
    ['sequential-thinking', []],
  ];
  for (const [name, args] of servers) {
    it(`@modelcontextprotocol/server-${name}`, async () => {
      const entry = path.join(published, `server-${name}`, 'dist', 'index.js');
      const { manifest, verified } = await importThenVerify(name, [process.execPath, entry, ...args]);
      expect({ code: verified.code, first: verified.stdout.split('\n')[0], stderr: verified.stderr }).toEqual({
        code: 0,
        first: `no drift: the server matches ${manifest}`,
        stderr: '',
      });
      // What the manifest cannot declare is printed as information, never counted.
      expect(verified.stdout).toContain(
        '  info: server answered only the 2025-11-25 handshake, not server/discover; the manifest serves ' +
          '2026-07-28 and, with protocol.legacy: serve, 2025-11-25 clients\n',
      );
    }, 180_000);
  }

  it('server-everything: tasks, logging and a task-only tool are information', async () => {
    const entry = path.join(published, 'server-everything', 'dist', 'index.js');
    const manifest = path.join(out, 'everything.yaml');
    const verified = await runIn(out, ['verify', '--manifest', manifest, '--', process.execPath, entry]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(
      '  info: capability "logging": manifest absent, server {} (a manifest cannot declare it)\n',
    );
    expect(verified.stdout).toContain(
      '  info: tools: "execution" {"taskSupport":"required"} on 1 ("simulate-research-query"): ' +
        'a manifest cannot declare it\n',
    );
  }, 180_000);
});

describe('verify names each deliberate change on the server as its own drift line', () => {
  const changes: [string, string][] = [
    ['tool-added', 'tool added: "define" is on the server but not in the manifest'],
    ['bound', 'tool changed: "lookup" /inputSchema/properties/word/maxLength: manifest absent, server 64'],
    ['hint', 'tool changed: "lookup" /annotations/readOnlyHint: manifest true, server false'],
    [
      'description',
      'tool changed: "lookup" /description: manifest "Look up a word in the dictionary.", server "Look up a word."',
    ],
    [
      'resource-description',
      'resource changed: "dict://words" /description: manifest "Every word the dictionary knows.", server "Words."',
    ],
    [
      'instructions',
      'server changed: /instructions: manifest "Call lookup with a word and a language code.", server "Call lookup."',
    ],
    ['version', 'server changed: /serverInfo/version: manifest "1.2.0", server "1.2.1"'],
  ];

  it('the unchanged server: no drift', async () => {
    const { verified } = await importThenVerify('dictionary', [process.execPath, dictionary]);
    expect(verified.code).toBe(0);
  }, 60_000);

  for (const [change, line] of changes) {
    it(change, async () => {
      const manifest = path.join(out, 'dictionary.yaml');
      const verified = await runIn(out, ['verify', '--manifest', manifest, '--', process.execPath, dictionary, change]);
      expect(verified.code).toBe(1);
      expect(verified.stdout.split('\n').slice(0, 2)).toEqual([
        `DRIFT: 1 difference between the server and ${manifest}`,
        `  ${line}`,
      ]);
    }, 60_000);
  }
});
