import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { runtimeFeatures, runtimeModules } from '../../src/emit/runtime/index.js';
import { buildProject } from '../support/build-project.js';
import { parseManifest } from '../../src/load/index.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { validateManifest } from '../../src/validate/index.js';
import { repoRoot } from '../support/golden.js';

// The state store in the model and the emitted project (the memory store and ledger in-process: store-ledger.test.ts).

const stored = path.join('test', 'fixtures', 'runtime', 'stored.yaml');

function model(text: string) {
  const loaded = parseManifest(text, 'a.yaml');
  if (!loaded.ok) throw new Error('did not load');
  const verdict = validateManifest(loaded.manifest);
  expect(verdict.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (verdict.manifest === null) throw new Error('not valid');
  return normalizeManifest(verdict.manifest);
}

const base = 'mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\n';
const keyed =
  `${base}tools:\n  send:\n    description: Sends the message to its recipient and says when.\n` +
  '    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ' +
  'openWorldHint: false }\n    idempotency: key\n    input: { type: object, additionalProperties: ' +
  'false, properties: { to: { type: string, maxLength: 9 } }, required: [to] }\n';

describe('the store in the model', () => {
  it('defaults to memory with a 24 h ledger, and reads redis with its URL variable', () => {
    expect(model(base).store).toEqual({ type: 'memory', idempotencyTtlMs: 86_400_000 });
    expect(model(`${base}store: { type: redis, urlEnv: TINY_REDIS, idempotencyTtl: 2h }\n`).store).toEqual({
      type: 'redis',
      urlEnv: 'TINY_REDIS',
      idempotencyTtlMs: 7_200_000,
    });
  });

  it('adds a required, bounded idempotencyKey to the input of an idempotency: key tool, classed conditional', () => {
    const tool = model(keyed).tools[0]!;
    expect(tool.idempotency).toBe('key');
    expect(tool.retry).toBe('conditional');
    expect(tool.wireInput.required).toEqual(['idempotencyKey', 'to']);
    expect((tool.wireInput.properties as Record<string, unknown>).idempotencyKey).toMatchObject({
      type: 'string',
      minLength: 8,
      maxLength: 128,
      pattern: '^[A-Za-z0-9._:-]+$',
    });
    const plain = model(keyed.replace('    idempotency: key\n', '')).tools[0]!;
    expect([plain.idempotency, plain.retry, plain.wireInput.required]).toEqual(['none', 'unsafe', ['to']]);
  });

  it('ships the store modules and the Redis client only to projects that use them', async () => {
    const emit = async (manifest: string) => {
      const options = resolveOptions({ manifest, out: path.join('.test-out', 'unit-store') }, repoRoot);
      return (await buildProject(options, '0.0.0-golden', { handlers: new Map(), previouslyGenerated: null }, repoRoot))
        .files;
    };
    const files = await emit(stored);
    expect(JSON.parse(files.find((f) => f.path === 'package.json')!.contents).dependencies).toEqual({
      '@modelcontextprotocol/server': '2.4.0',
      ioredis: '6.0.0',
    });
    expect(files.filter((f) => f.path.startsWith('src/generated/runtime/')).map((f) => path.basename(f.path))).toEqual([
      'approval-html.gen.ts',
      'approval-page.gen.ts',
      'approval.gen.ts',
      'call.gen.ts',
      'digest.gen.ts',
      'handler.gen.ts',
      'hooks.gen.ts',
      'http-endpoint.gen.ts',
      'http-fast.gen.ts',
      'http-fetch.gen.ts',
      'http-pinned.gen.ts',
      'http-probes.gen.ts',
      'http-request.gen.ts',
      'http-server.gen.ts',
      'http.gen.ts',
      'idempotency.gen.ts',
      'keys.gen.ts',
      'legacy-http.gen.ts',
      'legacy.gen.ts',
      'lifecycle.gen.ts',
      'listen-streams.gen.ts',
      'log.gen.ts',
      'params.gen.ts',
      'register.gen.ts',
      'spec.gen.ts',
      'start.gen.ts',
      'startup.gen.ts',
      'stdio.gen.ts',
      'store-redis.gen.ts',
      'store.gen.ts',
      'testing.gen.ts',
    ]);
    const memory = runtimeModules(runtimeFeatures(model(keyed)));
    expect(memory).toEqual([
      'call',
      'digest',
      'handler',
      'hooks',
      'idempotency',
      'legacy',
      'lifecycle',
      'log',
      'params',
      'register',
      'spec',
      'start',
      'startup',
      'stdio',
      'store',
      'testing',
    ]);
  });
});
