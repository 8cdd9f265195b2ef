import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../src/live/index.js';
import { toolsetDigest, wireTools } from '../../../src/model/toolset.js';
import type { ServerModel } from '../../../src/model/types.js';
import { runPipeline } from '../../../src/pipeline.js';
import { compareProtocol } from '../../../src/verify/capabilities.js';
import { expectedLists } from '../../../src/verify/expected.js';
import { verifyServer } from '../../../src/verify/index.js';
import { differences, showPair } from '../../../src/verify/pointer.js';
import { schemaView } from '../../../src/verify/semantic.js';
import { repoRoot } from '../../support/golden.js';

// verify's comparison on its own: every kind of drift, each with its exact line.

const model = (
  await runPipeline({ manifest: path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), cwd: repoRoot }, 'normalize')
).model as ServerModel;

const lists = expectedLists(model);

function liveFrom(edit: (live: { -readonly [K in keyof LiveServer]: LiveServer[K] }) => void): LiveServer {
  const live = {
    protocolVersion: '2026-07-28',
    era: 'modern' as const,
    serverInfo: { name: 'notes', title: 'Team Notes', version: '0.3.0' },
    capabilities: {
      completions: {},
      prompts: { listChanged: false },
      resources: { listChanged: false },
      tools: { listChanged: false },
    },
    instructions: 'Search before you create. Deleting asks the user first.' as string | null,
    // The notes example serves 2025-11-25 through its legacy adapter, so discover lists both eras.
    supportedVersions: ['2026-07-28', '2025-11-25'],
    tools: structuredClone(wireTools(model)),
    resources: structuredClone(lists.resources),
    resourceTemplates: structuredClone(lists.templates),
    prompts: structuredClone(lists.prompts),
  };
  edit(live);
  return live;
}

describe('verifyServer', () => {
  it('finds no drift in the descriptors the manifest implies; the digests are equal', () => {
    const result = verifyServer(
      model,
      liveFrom(() => undefined),
    );
    expect(result.drift).toEqual([]);
    expect(result.liveDigest).toBe(result.expectedDigest);
    expect(result.expectedDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('compares a version that is not semantic as the text it is (server.wireVersion, as import keeps it)', () => {
    const dated = { ...model, server: { ...model.server, wireVersion: '2023-10-16' } };
    const live = liveFrom((l) => {
      l.serverInfo = { ...l.serverInfo, version: '2023-10-16' };
    });
    expect(verifyServer(dated, live).drift).toEqual([]);
    const moved = verifyServer(
      dated,
      liveFrom((l) => {
        l.serverInfo = { ...l.serverInfo, version: '2024-01-01' };
      }),
    );
    expect(moved.drift.map((d) => d.pointer)).toEqual(['/serverInfo/version']);
  });

  it('names a removed tool, a changed schema and annotation, versions, capabilities and the era', () => {
    const result = verifyServer(
      model,
      liveFrom((live) => {
        const tools = live.tools as Record<string, unknown>[];
        live.tools = tools
          .filter((t) => t.name !== 'search_notes')
          .map((t) =>
            t.name === 'publish_note_draft'
              ? { ...t, annotations: { destructiveHint: false }, inputSchema: { type: 'object' } }
              : t,
          );
        live.supportedVersions = ['2026-07-28'];
        live.capabilities = { completions: {}, tools: { listChanged: false }, logging: {} };
      }),
    );
    expect(result.drift.map((d) => d.message)).toEqual([
      'server/discover supportedVersions: manifest ["2026-07-28","2025-11-25"], server ["2026-07-28"]',
      'tool changed: "publish_note_draft" /annotations/destructiveHint: manifest true, server false',
      'tool changed: "publish_note_draft" /annotations/openWorldHint: manifest false, server true',
      'tool changed: "publish_note_draft" /inputSchema/additionalProperties: manifest false, server absent',
      'tool changed: "publish_note_draft" /inputSchema/properties: manifest {"draft":{"description":"A note_draft ' +
        'handle (A note being written, not yet published). Pass it back exactly as it was returned.",' +
        '"maxLength":2048,"minLength":1,"type":"string"}}, server absent',
      'tool changed: "publish_note_draft" /inputSchema/required: manifest ["draft"], server absent',
      'tool removed: "search_notes" is in the manifest but not on the server',
    ]);
    expect(result.drift.map((d) => d.pointer).slice(1, 3)).toEqual([
      '/tools/publish_note_draft/annotations/destructiveHint',
      '/tools/publish_note_draft/annotations/openWorldHint',
    ]);
    // An absent idempotentHint is false, as the manifest says: not drift. Capabilities a manifest cannot
    // declare (logging), and list capabilities whose lists are compared, are information.
    expect(result.info).toEqual([
      'capability "logging": manifest absent, server {} (a manifest cannot declare it)',
      'capability "prompts": manifest {"listChanged":false}, server absent (the list itself is compared item by item)',
      'capability "resources": manifest {"listChanged":false}, server absent ' +
        '(the list itself is compared item by item)',
    ]);
    expect(result.liveDigest).not.toBe(result.expectedDigest);
    const legacy = verifyServer(
      model,
      liveFrom((live) => Object.assign(live, { era: 'legacy', protocolVersion: '2025-11-25' })),
    );
    expect(legacy.drift).toEqual([]);
    expect(legacy.info).toEqual([
      'server answered only the 2025-11-25 handshake, not server/discover; the manifest serves 2026-07-28 ' +
        'and, with protocol.legacy: serve, 2025-11-25 clients',
    ]);
    const rejecting = verifyServer(
      { ...model, protocol: { ...model.protocol, legacy: 'reject' } },
      liveFrom((live) => Object.assign(live, { era: 'legacy', protocolVersion: '2025-11-25' })),
    );
    expect(rejecting.drift.map((d) => d.message)).toEqual([
      'server answered only the 2025-11-25 handshake, not server/discover; the manifest serves 2026-07-28 ' +
        'and rejects 2025-11-25 clients',
    ]);
  });

  it('completions: declared values the server does not offer are drift; the reverse is information', () => {
    // The notes example completes from handlers; this case starts from a server without completions.
    const { completions: _offered, ...bare } = liveFrom(() => undefined).capabilities as Record<string, unknown>;
    const modern = { ...liveFrom(() => undefined), capabilities: bare };
    const declared = {
      supportedVersions: ['2026-07-28', '2025-11-25'],
      capabilities: { ...modern.capabilities, completions: {} },
    };
    expect(compareProtocol(model, declared, modern)).toEqual({
      drift: [{ kind: 'capabilities', message: 'capability "completions": manifest {}, server absent' }],
      info: [],
    });
    const offered = { ...modern, capabilities: { ...modern.capabilities, completions: {} } };
    expect(compareProtocol(model, { ...declared, capabilities: modern.capabilities }, offered)).toEqual({
      drift: [],
      info: [
        'capability "completions": manifest absent, server {} ' +
          '(completion values are declared per argument; the wire does not list them)',
      ],
    });
  });

  it('compares schemas by meaning: $schema, the order of required, an empty properties', () => {
    const result = verifyServer(
      model,
      liveFrom((live) => {
        live.tools = (live.tools as Record<string, Record<string, unknown>>[]).map((t) => ({
          ...t,
          inputSchema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            ...t.inputSchema,
            ...(Array.isArray(t.inputSchema?.required) ? { required: [...t.inputSchema.required].reverse() } : {}),
          },
          execution: { taskSupport: 'forbidden' },
        }));
      }),
    );
    expect(result.drift).toEqual([]);
    expect(result.info).toEqual([]);
    expect(result.liveDigest).not.toBe(result.expectedDigest);
    expect(schemaView({ type: 'object', properties: {}, required: ['b', 'a', 'b'] })).toEqual({
      type: 'object',
      required: ['a', 'b'],
    });
    // Data keywords are values, not schemas: an enum keeps its order, a default its keys.
    expect(schemaView({ enum: ['b', 'a'], default: { required: ['z', 'y'] } })).toEqual({
      enum: ['b', 'a'],
      default: { required: ['z', 'y'] },
    });
  });

  it('names resource, template, prompt and server changes by pointer, with both values', () => {
    const result = verifyServer(
      model,
      liveFrom((live) => {
        live.serverInfo = { ...live.serverInfo, version: '0.3.1' };
        live.instructions = null;
        live.resources = live.resources.map((r) => ({ ...r, description: 'Changed.' }));
        live.resourceTemplates = [];
        live.prompts = live.prompts.map((p) => ({ ...p, arguments: [] }));
      }),
    );
    expect(result.drift.map((d) => [d.kind, d.pointer])).toEqual([
      ['server', '/instructions'],
      ['server', '/serverInfo/version'],
      ['resource-changed', '/resources/notes:~1~1style-guide/description'],
      ['template-removed', '/resourceTemplates/notes:~1~1notes~1{id}'],
      ['prompt-changed', '/prompts/summarize_note/arguments'],
    ]);
  });

  it('cuts only long values, around the first difference, with explicit markers and lengths', () => {
    const long = 'x'.repeat(500);
    const [a, b] = showPair(`${long}A`, `${long}B`);
    expect(a).toBe(`[…461 characters] ${'x'.repeat(40)}A" (503 characters in all)`);
    expect(b).toBe(`[…461 characters] ${'x'.repeat(40)}B" (503 characters in all)`);
    expect(showPair('short', 1)).toEqual(['"short"', '1']);
    expect(differences({ a: { 'b/c': [1, 2] } }, { a: { 'b/c': [1, 3] } })).toEqual([
      { pointer: '/a/b~1c/1', manifest: 2, server: 3 },
    ]);
  });

  it('the digest ignores order and key order, and sees a one-character change', () => {
    const tools = wireTools(model);
    const reordered = [...tools].reverse().map((t) => Object.fromEntries(Object.entries(t).reverse()));
    expect(toolsetDigest(reordered)).toBe(toolsetDigest(tools));
    expect(
      toolsetDigest([{ ...tools[0], description: `${String(tools[0]?.description)}.` }, ...tools.slice(1)]),
    ).not.toBe(toolsetDigest(tools));
  });
});
