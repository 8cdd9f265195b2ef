import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../src/live/index.js';
import { toolsetDigest, wireTools } from '../../../src/model/toolset.js';
import type { ServerModel } from '../../../src/model/types.js';
import { runPipeline } from '../../../src/pipeline.js';
import { verifyServer } from '../../../src/verify/index.js';
import { repoRoot } from '../../support/golden.js';

// verify's comparison on its own: every kind of drift, each with its exact line.

const model = (
  await runPipeline({ manifest: path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), cwd: repoRoot }, 'normalize')
).model as ServerModel;

function liveFrom(edit: (live: { -readonly [K in keyof LiveServer]: LiveServer[K] }) => void): LiveServer {
  const live = {
    protocolVersion: '2026-07-28',
    era: 'modern' as const,
    serverInfo: { name: 'notes', version: '0.3.0' },
    capabilities: { prompts: { listChanged: true }, resources: { listChanged: true }, tools: { listChanged: true } },
    instructions: null,
    supportedVersions: ['2026-07-28'],
    tools: structuredClone(wireTools(model)),
    resources: [],
    resourceTemplates: [],
    prompts: [],
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
        live.supportedVersions = ['2026-07-28', '2025-11-25'];
        live.capabilities = { tools: { listChanged: true }, logging: {} };
      }),
    );
    expect(result.drift.map((d) => d.message)).toEqual([
      'server/discover supportedVersions: manifest ["2026-07-28"], server ["2026-07-28","2025-11-25"]',
      'capability "logging": manifest absent, server {}',
      'capability "prompts": manifest {"listChanged":true}, server absent',
      'capability "resources": manifest {"listChanged":true}, server absent',
      'tool changed: "publish_note_draft" annotations: manifest ' +
        '{"destructiveHint":true,"idempotentHint":false,"openWorldHint":false}, server {"destructiveHint":false}',
      expect.stringMatching(
        /^tool changed: "publish_note_draft" inputSchema: manifest \{"additionalProperties":false,/,
      ),
      'tool removed: "search_notes" is in the manifest but not on the server',
    ]);
    expect(result.liveDigest).not.toBe(result.expectedDigest);
    const legacy = verifyServer(
      model,
      liveFrom((live) => Object.assign(live, { era: 'legacy', protocolVersion: '2025-11-25' })),
    );
    expect(legacy.drift.map((d) => d.message)).toEqual([
      'server answered only the 2025-11-25 handshake, not server/discover; the manifest serves 2026-07-28',
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
