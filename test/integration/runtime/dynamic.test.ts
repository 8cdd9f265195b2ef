import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// Lists and completions from handlers (manifest `list: handler`, `complete`): resources/list sends the three fixed
// resources, then 250 items of a list handler, then the members of a second listed template, each exactly once and
// in pages filled to 100 in that order, over stdio and HTTP; its cursors cannot be forged (-32602); a listed URI
// outside its template is a logged -32603 with nothing of the page sent; completion handlers answer with the resolved
// arguments as context, and the fixed completions still work.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'listed.yaml');
const pad = (i: number): string => String(i).padStart(4, '0');
const ids = Array.from({ length: 250 }, (_, i) => pad(i));

const handlers: Readonly<Record<string, string>> = {
  'src/handlers/resource-lists/item.ts': `import {
  ToolError,
  type ResourceListHandler,
} from '../../generated/index.gen.js';

const ids = Array.from({ length: 250 }, (_, i) => String(i).padStart(4, '0'));

export const itemListHandler: ResourceListHandler<'item'> = async ({ cursor, pageSize }) => {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start)) throw new ToolError('bad cursor', 'invalid');
  const page = ids.slice(start, start + pageSize);
  const next = start + pageSize < ids.length ? { nextCursor: String(start + pageSize) } : {};
  return { resources: page.map((id) => ({ uri: \`listed://items/\${id}\`, name: \`item \${id}\` })), ...next };
};
`,
  'src/handlers/resource-lists/zz_last.ts': `import type { ResourceListHandler } from '../../generated/index.gen.js';

export const zzLastListHandler: ResourceListHandler<'zz_last'> = async () => ({
  resources: [
    process.env.LISTED_FOREIGN === '1'
      ? { uri: 'listed://elsewhere/omega', name: 'omega' }
      : { uri: 'listed://last/omega', name: 'omega', title: 'The last one', mimeType: 'text/markdown' },
  ],
});
`,
  'src/handlers/completions/resources/item.ts': `import type {
  ResourceCompleteHandler,
} from '../../../generated/index.gen.js';

const ids = Array.from({ length: 250 }, (_, i) => String(i).padStart(4, '0'));

export const itemCompleteHandler: ResourceCompleteHandler<'item'> = async ({ value }) =>
  ids.filter((id) => id.startsWith(value));
`,
  'src/handlers/completions/prompts/greet.ts': `import type {
  PromptCompleteHandler,
} from '../../../generated/index.gen.js';

export const greetCompleteHandler: PromptCompleteHandler<'greet'> = async ({ argument, value, context }) => ({
  values: [\`\${argument}:\${value}:\${context.tone ?? 'none'}\`],
  total: 7,
  hasMore: true,
});
`,
};

type Ask = (method: string, params?: Record<string, unknown>) => Promise<any>;

const fixed = [1, 2, 3].map((n) => ({ uri: `listed://guides/${n}`, name: `guide_${n}` }));
const items = ids.map((id) => ({ uri: `listed://items/${id}`, name: `item ${id}`, mimeType: 'text/plain' }));
const last = { uri: 'listed://last/omega', name: 'omega', title: 'The last one', mimeType: 'text/markdown' };

/** Every page of resources/list from the first, bounded; returns the pages. */
async function walk(ask: Ask): Promise<any[]> {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const answer = await ask('resources/list', cursor === undefined ? {} : { cursor });
    pages.push(answer);
    cursor = answer.result?.nextCursor;
    if (cursor === undefined) break;
  }
  return pages;
}

let entry = '';
beforeAll(() => {
  entry = generateAndCompile(manifest, 'runtime-listed', handlers);
}, 240_000);

function behaves(ask: () => Ask): void {
  it('lists the fixed resources, then every listed member exactly once, in pages filled to 100', async () => {
    const pages = await walk(ask());
    // 3 fixed + 97 items; 100 items; the last 53 items + the second template's one member.
    expect(pages.map((p) => p.result.resources.length)).toEqual([100, 100, 54]);
    const listed = pages.flatMap((p) =>
      p.result.resources.map(({ uri, name, title, mimeType }: any) => ({
        uri,
        name,
        ...(title ? { title } : {}),
        ...(mimeType ? { mimeType } : {}),
      })),
    );
    expect(listed).toEqual([...fixed, ...items, last]);
    expect(new Set(listed.map((r) => r.uri)).size).toBe(254);
  });

  it('refuses cursors it did not mint with -32602', async () => {
    const [first] = await walk(ask());
    const second = await ask()('resources/list', { cursor: first.result.nextCursor });
    const minted: string = second.result.nextCursor;
    const bytes = Buffer.from(minted, 'base64url');
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    const forged = Buffer.from(JSON.stringify([0, '200', 'anonymous', Date.now() + 60_000])).toString('base64url');
    for (const cursor of ['not-a-cursor', forged, bytes.toString('base64url'), `${minted}.x`]) {
      const answer = await ask()('resources/list', { cursor });
      expect(answer.error).toMatchObject({ code: -32602, message: 'Invalid cursor for resources/list' });
    }
  });

  it('completes a template variable from its handler, capped at 100 with the total', async () => {
    const all = await ask()('completion/complete', {
      ref: { type: 'ref/resource', uri: 'listed://items/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(all.result.completion).toEqual({ values: ids.slice(0, 100), total: 250, hasMore: true });
    const some = await ask()('completion/complete', {
      ref: { type: 'ref/resource', uri: 'listed://items/{id}' },
      argument: { name: 'id', value: '024' },
    });
    expect(some.result.completion).toEqual({ values: ids.slice(240, 250), total: 10, hasMore: false });
  });

  it('completes a prompt argument from its handler with the resolved arguments, and the fixed ones still', async () => {
    const byHandler = await ask()('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'Al' },
      context: { arguments: { tone: 'formal' } },
    });
    expect(byHandler.result.completion).toEqual({ values: ['name:Al:formal'], total: 7, hasMore: true });
    const fixedValues = await ask()('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'tone', value: 'f' },
    });
    expect(fixedValues.result.completion).toEqual({ values: ['friendly', 'formal'], total: 2, hasMore: false });
  });
}

describe('stdio', () => {
  let server: RawStdio;
  let id = 0;
  const ask: Ask = (method, params = {}) =>
    server.request({ jsonrpc: '2.0', id: ++id, method, params: { _meta: envelope(), ...params } });
  beforeAll(() => {
    server = startRawStdio(entry);
  });
  afterAll(async () => {
    await server?.close();
  });
  behaves(() => ask);
});

describe('http', () => {
  let server: RunningServer;
  const ask: Ask = async (method, params = {}) =>
    (await rpc(server.url, method, { _meta: envelope(), ...params })).body;
  beforeAll(async () => {
    server = await startHttpServer(entry, {});
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });
  behaves(() => ask);
});

describe('stdio, a 2025-11-25 client through the legacy adapter', () => {
  let server: RawStdio;
  let id = 1;
  const ask: Ask = (method, params = {}) => server.request({ jsonrpc: '2.0', id: ++id, method, params });
  beforeAll(async () => {
    server = startRawStdio(entry);
    const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } };
    await server.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize });
    server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });
  afterAll(async () => {
    await server?.close();
  });
  behaves(() => ask);
});

describe('a list handler that returns a URI outside its template', () => {
  let server: RawStdio;
  afterAll(async () => {
    await server?.close();
  });
  it('is a -32603 whose details go to the log, and nothing of the page is sent', async () => {
    server = startRawStdio(entry, { LISTED_FOREIGN: '1' });
    let id = 0;
    const ask: Ask = (method, params = {}) =>
      server.request({ jsonrpc: '2.0', id: ++id, method, params: { _meta: envelope(), ...params } });
    const pages = await walk(ask);
    // The third page would end with zz_last's member: none of its 53 items is sent either.
    expect(pages.slice(0, 2).map((p) => p.result.resources.length)).toEqual([100, 100]);
    expect(pages).toHaveLength(3);
    expect(pages[2]).toMatchObject({
      error: { code: -32603, message: 'Listing resource "zz_last" failed. Details were logged on the server.' },
    });
    expect(JSON.stringify(pages[2])).not.toContain('elsewhere');
    expect(server.stderr()).toContain(
      'it returned "listed://elsewhere/omega", not a named URI of listed://last/{slug}',
    );
  });
});
