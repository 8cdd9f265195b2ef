import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installInterop, loadV1Sdk, versions, type V1Sdk } from '../integration/protocol/interop-support.js';
import { buildProto, protoKeys, repoRoot, runsIn, startHttp, type HttpChild } from '../integration/protocol/support.js';
import { type Action, calls, type Connection, home, matrixRows, v2Version } from './interop-rows.js';

// The interoperability matrix (docs/interop.md): real client packages against a generated server
// (the proto fixture, protocol.legacy: serve, stdio and HTTP). Each row lists tools, calls a
// read-only tool, reads a resource, gets a prompt and runs an approval of the destructive
// remove_note: accepted once (the handler runs once), declined once (it never runs).

let entry = '';
let http: HttpChild;
let v1: V1Sdk;

beforeAll(async () => {
  installInterop();
  v1 = await loadV1Sdk();
  entry = buildProto();
  rmSync(calls, { force: true });
  mkdirSync(home, { recursive: true });
  http = await startHttp(entry, { ...protoKeys, PROTO_CALLS: calls });
}, 600_000);

afterAll(async () => {
  await http?.stop();
});

const rows = matrixRows(() => ({ entry, http, v1 }));

describe.each(rows.map((row, index) => [`${row.client} over ${row.transport}`, row, index] as const))(
  '%s',
  (_name, row, index) => {
    const answer: { action: Action } = { action: 'accept' };
    let connection: Connection;

    beforeAll(async () => {
      connection = await row.connect(answer);
    }, 60_000);

    afterAll(async () => {
      await connection?.close();
    });

    it('lists tools', async () => {
      expect(await connection.listTools()).toEqual([
        'bad_output',
        'echo',
        'explode',
        'open_draft',
        'open_flash',
        'remove_note',
        'use_draft',
        'use_flash',
      ]);
    });

    it('calls a read-only tool', async () => {
      const result = await connection.callTool('echo', { text: 'hi', count: 2 });
      expect(result.structuredContent).toEqual({ text: 'hihi', count: 2 });
      expect(result.isError ?? false).toBe(false);
    });

    it('reads a resource', async () => {
      expect(await connection.readResource('proto://readme')).toBe('Read me first.');
    });

    it('gets a prompt', async () => {
      expect(await connection.getPrompt('greet', { name: 'Ada', mood: 'fine' })).toBe(
        'Say hello to Ada, who feels fine.',
      );
    });

    it(row.elicits
      ? 'approves a destructive tool: accept runs the handler once, decline never'
      : 'gets the approval page for a destructive tool (no elicitation): the handler does not run', async () => {
      const ids = { accept: `row${index}-accept`, decline: `row${index}-decline` };
      const results = [];
      for (const action of ['accept', 'decline'] as const) {
        answer.action = action;
        results.push(await connection.callTool('remove_note', { id: ids[action] }));
      }
      const runs = runsIn(calls).filter((line) => line.startsWith('remove_note') && line.includes(`row${index}-`));
      if (row.elicits) {
        expect(results.map((r) => [r.content, r.isError ?? false])).toEqual([
          [[{ type: 'text', text: `removed ${ids.accept}` }], false],
          [[{ type: 'text', text: `The user declined "Remove a note" (remove_note); nothing was done.` }], true],
        ]);
        expect(runs).toEqual([`remove_note ${ids.accept}`]);
      } else {
        // No elicitation: the answer is the approval page's link (test/e2e/approval-clients.test.ts follows it).
        for (const result of results) {
          expect(result.isError).toBe(true);
          const text = (result.content as { text: string }[])[0]?.text ?? '';
          expect(text).toMatch(/^Running "Remove a note" \(remove_note\) needs a person's approval: open http:\/\/127/);
          expect(text).toContain('/approvals/');
        }
        expect(runs).toEqual([]);
      }
    }, 120_000);
  },
);

describe('docs/interop.md', () => {
  it('names the exact versions the matrix runs', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'interop.md'), 'utf8');
    for (const pinned of [
      `@modelcontextprotocol/client ${v2Version}`,
      `@modelcontextprotocol/sdk ${versions.v1Sdk}`,
      `@modelcontextprotocol/inspector ${versions.inspector}`,
      `@modelcontextprotocol/conformance ${versions.legacyConformance}`,
      `Node ${versions.node22}`,
    ]) {
      expect(doc).toContain(pinned);
    }
  });
});
