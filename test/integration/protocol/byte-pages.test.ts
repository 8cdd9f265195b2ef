import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startRawStdio, type RawStdio } from '../../support/servers.js';
import { repoRoot, sharedBuild } from './support.js';

// tools/list pages cut by bytes as well as by count (src/review/tokens.ts pageStarts): four tools of about
// 400 KB, one of about 1.1 MB and three small ones, with the default page size of 100, are served as pages of
// 2, 2, 1 and 3 tools, each under 1 MiB but the one that holds the big tool alone; every tool listed once. A
// selection (toolset "most", without big_0) is cut by the same rule, not where the whole list's cuts fall.

/** A tool whose input property `text` carries a description `size` characters long. */
const tool = (name: string, size: number): string[] => [
  `  ${name}:`,
  `    description: Returns ${name}.`,
  '    annotations: { readOnlyHint: true, openWorldHint: false }',
  '    input:',
  '      type: object',
  '      additionalProperties: false',
  `      properties: { text: { type: string, maxLength: 10, description: ${'x'.repeat(size)} } }`,
];

function manifest(): string {
  const lines = [
    'mcpGen: 1',
    'server: { name: heavy, version: 1.0.0 }',
    'review: { maxListTokens: 1000000 }',
    'toolsets:',
    "  first: { description: The first tool., names: ['big_0'] }",
    "  most: { description: Every tool but the first., names: ['big_1', 'big_2', 'big_3', 'huge', 'small_*'] }",
    'tools:',
    ...['big_0', 'big_1', 'big_2', 'big_3'].flatMap((name) => tool(name, 400_000)),
    ...tool('huge', 1_100_000),
    ...['small_0', 'small_1', 'small_2'].flatMap((name) => tool(name, 10)),
  ];
  const dir = path.join(repoRoot, '.test-out');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'byte-pages.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

let server: RawStdio;
let selected: RawStdio;

beforeAll(() => {
  const entry = sharedBuild('byte-pages', manifest(), {});
  server = startRawStdio(entry);
  selected = startRawStdio(entry, { HEAVY_TOOLSETS: 'most' });
}, 600_000);

afterAll(async () => {
  await server?.close();
  await selected?.close();
});

/** Every tools/list page `server` sends: its tools' names, and its bytes as `{"tools":[...]}`. */
async function listPages(server: RawStdio): Promise<{ names: string[]; bytes: number }[]> {
  const pages: { names: string[]; bytes: number }[] = [];
  let cursor: string | undefined;
  let id = 0;
  do {
    const answer = await server.request({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/list',
      params: { _meta: metaOf(), ...(cursor === undefined ? {} : { cursor }) },
    });
    expect(answer.error).toBeUndefined();
    const { tools, nextCursor } = answer.result as { tools: { name: string }[]; nextCursor?: string };
    pages.push({ names: tools.map((t) => t.name), bytes: Buffer.byteLength(JSON.stringify({ tools })) });
    cursor = nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return pages;
}

describe('tools/list pages bounded in bytes', () => {
  it('ends a page before the tool that would take it past 1 MiB; a bigger tool has a page of its own', async () => {
    const pages = await listPages(server);
    expect(pages.map((p) => p.names)).toEqual([
      ['big_0', 'big_1'],
      ['big_2', 'big_3'],
      ['huge'],
      ['small_0', 'small_1', 'small_2'],
    ]);
    expect(pages.map((p) => p.bytes <= 1024 * 1024)).toEqual([true, true, false, true]);
  });

  it('cuts the pages of a toolset selection by the same rule: only the big tool alone passes 1 MiB', async () => {
    // The whole list's cuts (at 2, 4 and 5) would give [big_1, big_2], [big_3, huge] (1.5 MB) and the rest.
    const pages = await listPages(selected);
    expect(pages.map((p) => p.names)).toEqual([
      ['big_1', 'big_2'],
      ['big_3'],
      ['huge'],
      ['small_0', 'small_1', 'small_2'],
    ]);
    expect(pages.map((p) => p.bytes <= 1024 * 1024)).toEqual([true, true, false, true]);
  });
});
