import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startRawStdio, type RawStdio } from '../../support/servers.js';
import { call, legacyInitialize, post, repoRoot, sharedBuild, startHttp, type HttpChild } from './support.js';

// Icons and resource annotations (manifest `icons`, `annotations`, `size`) reach the wire exactly as declared: the
// server's in serverInfo (server/discover and the legacy `initialize`), each item's in its list, over stdio and
// HTTP, on the modern path and through the legacy adapter. Items that declare none carry no `icons` key.

const png =
  'data:image/png;base64,' +
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const serverIcons = [
  { src: 'https://example.com/icons/meta-light.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'light' },
  { src: png, mimeType: 'image/png', sizes: ['1x1'] },
];
const toolIcons = [{ src: 'https://example.com/icons/ping.png', sizes: ['48x48', '96x96'], theme: 'dark' }];
const guideIcons = [{ src: png }];
const pageIcons = [{ src: 'https://example.com/icons/page.webp', mimeType: 'image/webp' }];
const greetIcons = [{ src: 'https://example.com/icons/greet.jpg', mimeType: 'image/jpeg', sizes: ['32x32'] }];
const guideAnnotations = { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2026-07-28T09:30:00Z' };

const y = (value: unknown) => JSON.stringify(value);
const manifestLines = [
  'mcpGen: 1',
  'server:',
  '  name: meta',
  '  version: 1.0.0',
  '  title: Metadata fixture',
  `  icons: ${y(serverIcons)}`,
  'protocol: { legacy: serve }',
  'transports: { stdio: {}, http: {} }',
  'tools:',
  '  ping:',
  '    description: Answers pong.',
  '    annotations: { readOnlyHint: true, openWorldHint: false }',
  '    input: { type: object, additionalProperties: false }',
  `    icons: ${y(toolIcons)}`,
  '  plain:',
  '    description: Has no icons.',
  '    annotations: { readOnlyHint: true, openWorldHint: false }',
  '    input: { type: object, additionalProperties: false }',
  'resources:',
  '  guide:',
  '    uri: meta://guide',
  '    mimeType: text/plain',
  `    icons: ${y(guideIcons)}`,
  // The audience is kept in declared order; the keys go out in MCP's order whatever order they are written in.
  '    annotations: { lastModified: "2026-07-28T09:30:00Z", priority: 0.8, audience: [user, assistant] }',
  '    size: 11',
  '  page:',
  '    uriTemplate: "meta://pages/{id}"',
  `    icons: ${y(pageIcons)}`,
  '    annotations: { priority: 0 }',
  'prompts:',
  '  greet:',
  `    icons: ${y(greetIcons)}`,
  '    messages: [{ role: user, text: Hello. }]',
];

const handlers = {
  'src/handlers/resources/guide.ts': `import type { ResourceHandler } from '../../generated/index.gen.js';

export const guideHandler: ResourceHandler<'guide'> = async () => 'Guide text.';
`,
};

type Answer = Record<string, any>;
type Ask = (method: string, params?: Record<string, unknown>) => Promise<Answer>;
type Lists = Record<'tools' | 'resources' | 'resourceTemplates' | 'prompts', Answer[]>;

const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const serverInfo = { name: 'meta', title: 'Metadata fixture', version: '1.0.0', icons: serverIcons };

/** What every list answers, exactly, on any path: only the declared metadata, nothing filled in. */
function expectLists(lists: Lists): void {
  expect(lists.tools.map((t: Answer) => [t.name, t.icons])).toEqual([
    ['ping', toolIcons],
    ['plain', undefined],
  ]);
  expect(lists.resources).toEqual([
    {
      uri: 'meta://guide',
      name: 'guide',
      mimeType: 'text/plain',
      icons: guideIcons,
      annotations: guideAnnotations,
      size: 11,
    },
  ]);
  expect(Object.keys(lists.resources[0]?.annotations)).toEqual(['audience', 'priority', 'lastModified']);
  expect(lists.resourceTemplates).toEqual([
    { name: 'page', uriTemplate: 'meta://pages/{id}', icons: pageIcons, annotations: { priority: 0 } },
  ]);
  expect(lists.prompts.map((p: Answer) => [p.name, p.icons])).toEqual([['greet', greetIcons]]);
}

async function readLists(ask: Ask): Promise<Lists> {
  const lists: Lists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  for (const [method, key] of [
    ['tools/list', 'tools'],
    ['resources/list', 'resources'],
    ['resources/templates/list', 'resourceTemplates'],
    ['prompts/list', 'prompts'],
  ] as const) {
    const answer = await ask(method);
    expect(answer.error).toBeUndefined();
    lists[key] = answer.result[key];
  }
  return lists;
}

let entry = '';
let stdio: RawStdio;
let legacy: RawStdio;
let http: HttpChild;

beforeAll(async () => {
  const out = path.join(repoRoot, '.test-out');
  mkdirSync(out, { recursive: true });
  const manifest = path.join(out, 'icons.yaml');
  writeFileSync(manifest, `${manifestLines.join('\n')}\n`);
  entry = sharedBuild('icons', manifest, handlers);
  [stdio, legacy] = [startRawStdio(entry), startRawStdio(entry)];
  http = await startHttp(entry, {});
}, 600_000);

afterAll(async () => {
  await Promise.all([stdio?.close(), legacy?.close(), http?.stop()]);
});

describe('the modern path', () => {
  let id = 0;
  const overStdio: Ask = (method, params = {}) =>
    stdio.request({ jsonrpc: '2.0', id: ++id, method, params: { _meta: metaOf(), ...params } });
  const overHttp: Ask = async (method, params = {}) => {
    const reply = await call(http.url, method, { _meta: metaOf(), ...params });
    expect(reply.status).toBe(200);
    return reply.body;
  };

  it('sends the server icons in server/discover, over stdio and HTTP', async () => {
    for (const ask of [overStdio, overHttp]) {
      const discovered = await ask('server/discover');
      expect(discovered.result._meta['io.modelcontextprotocol/serverInfo']).toEqual(serverInfo);
    }
  });

  it('lists every icon, annotation and size exactly as declared, over stdio and HTTP', async () => {
    expectLists(await readLists(overStdio));
    expectLists(await readLists(overHttp));
  });

  it('reads the resource with its content only: annotations and size belong to the list entry', async () => {
    const read = await overStdio('resources/read', { uri: 'meta://guide' });
    expect(read.result.contents).toEqual([{ uri: 'meta://guide', mimeType: 'text/plain', text: 'Guide text.' }]);
    expect(Buffer.byteLength(read.result.contents[0].text)).toBe(11);
  });
});

describe('the legacy adapter', () => {
  it('sends the server icons in initialize and the same lists, over stdio', async () => {
    const initialized: Answer = await legacy.request(legacyInitialize);
    expect(initialized.result.serverInfo).toEqual(serverInfo);
    legacy.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    let id = 1;
    expectLists(await readLists((method, params = {}) => legacy.request({ jsonrpc: '2.0', id: ++id, method, params })));
  });

  it('sends the server icons in initialize and the same lists, over HTTP', async () => {
    const opened = await post(http.url, legacyInitialize, legacyHeaders);
    expect(opened.body.result.serverInfo).toEqual(serverInfo);
    const session = {
      'mcp-session-id': opened.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    const headers = { ...legacyHeaders, ...session };
    await post(http.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    let id = 1;
    const ask: Ask = async (method, params = {}) =>
      (await post(http.url, { jsonrpc: '2.0', id: ++id, method, params }, headers)).body;
    expectLists(await readLists(ask));
  });
});
