import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../src/emit/registry/discover.js';
import { needsStore } from '../../src/model/store.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { runPipeline } from '../../src/pipeline.js';
import { stableJson } from '../../src/util/stable-json.js';
import { expectGolden, repoRoot } from '../support/golden.js';
import { validated } from '../support/manifests.js';

const notesPath = path.join(repoRoot, 'examples', 'notes', 'mcp.yaml');

const result = await runPipeline({ manifest: 'examples/notes/mcp.yaml', cwd: repoRoot }, 'normalize');

describe('the reference manifest (examples/notes)', () => {
  it('validates clean: no error, no warning', () => {
    expect(result.diagnostics).toEqual([]);
  });

  it('normalizes to the committed model', () => {
    expectGolden(path.join(repoRoot, 'test', 'fixtures', 'golden', 'notes.model.json'), stableJson(result.model));
  });

  it('applies defaults, decides names once and sorts by name', () => {
    const model = result.model!;
    expect(model.tools.map((t) => t.name)).toEqual(['publish_note_draft', 'search_notes', 'start_note_draft']);
    expect(model.tools.map((t) => t.names.handler)).toEqual([
      'publishNoteDraftHandler',
      'searchNotesHandler',
      'startNoteDraftHandler',
    ]);
    const publish = model.tools[0]!;
    expect(publish.destructive).toBe(true);
    expect(publish.approval).toBe('confirm');
    expect(publish.consumes).toEqual([{ kind: 'note_draft', pointer: '/properties/draft' }]);
    expect(model.tools[1]!.approval).toBe('none');
    expect(model.handles).toEqual([
      {
        name: 'note_draft',
        description: 'A note being written, not yet published.',
        ttlMs: 7_200_000,
        exampleId: 'contract-test',
        typeName: 'NoteDraftHandle',
        issuedBy: ['start_note_draft'],
        consumedBy: ['publish_note_draft'],
        pointer: '/handles/note_draft',
      },
    ]);
    expect(model.resources.map((r) => [r.name, r.cache])).toEqual([
      ['note', { ttlMs: 10_000, scope: 'private' }],
      ['style_guide', { ttlMs: 300_000, scope: 'public' }],
    ]);
    expect(model.prompts[0]!.arguments.map((a) => [a.name, a.required])).toEqual([
      ['note_id', true],
      ['tone', false],
    ]);
    expect(model.secrets).toEqual({ handleKeyEnv: 'NOTES_HANDLE_KEY', requestStateKeyEnv: 'NOTES_STATE_KEY' });
    expect(Object.isFrozen(model.tools[0]!.input)).toBe(true);
  });

  it('fills every default for a minimal manifest', () => {
    const model = normalizeManifest(validated('mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\n'));
    expect(model.protocol).toEqual({ versions: ['2026-07-28'], legacy: 'serve' });
    expect(model.cache).toEqual({ ttlMs: 300_000, scope: 'public' });
    expect(model.transports).toEqual({ stdio: { maxConcurrentCalls: 100 }, http: null });
    expect(model.auth).toEqual({ type: 'none', scopes: [], grants: [] });
    expect(model.tools).toEqual([]);
  });

  it('takes the signing-key variables from the manifest when it names them', () => {
    expect(
      normalizeManifest(
        validated('mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\nsecrets: { handleKeyEnv: TINY_HANDLES }\n'),
      ).secrets,
    ).toEqual({ handleKeyEnv: 'TINY_HANDLES', requestStateKeyEnv: 'TINY_STATE_KEY' });
  });

  it('does not depend on YAML key order', () => {
    const text = readFileSync(notesPath, 'utf8');
    const reordered = text
      .replace(
        /( {2}search_notes:[\s\S]*?)( {2}start_note_draft:[\s\S]*?)( {2}publish_note_draft:[\s\S]*?)(resources:)/,
        '$3$2$1$4',
      )
      .replace('cache: { ttlMs: 300000, scope: public }', 'cache: { scope: public, ttlMs: 300000 }')
      .replace('required: [id, title]', 'required: [title, id]');
    expect(reordered).not.toBe(text);
    expect(stableJson(normalizeManifest(validated(reordered)))).toBe(stableJson(normalizeManifest(validated(text))));
  });

  it('does not mutate its input', () => {
    const manifest = validated(readFileSync(notesPath, 'utf8'));
    const before = JSON.stringify(manifest);
    normalizeManifest(manifest);
    expect(JSON.stringify(manifest)).toBe(before);
    expect(Object.isFrozen(manifest.tools)).toBe(false);
  });
});

describe('deadlines and limits', () => {
  it('pages every list by 100 unless pagination.pageSize says otherwise', () => {
    const manifest = (pagination: string) => `mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\n${pagination}`;
    expect(normalizeManifest(validated(manifest(''))).pagination).toEqual({ pageSize: 100 });
    expect(normalizeManifest(validated(manifest('pagination: { pageSize: 7 }\n'))).pagination).toEqual({
      pageSize: 7,
    });
  });

  it('gives stdio its in-flight cap (100 by default, for an empty `stdio:` too)', () => {
    const manifest = (stdio: string) =>
      `mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\ntransports:\n  stdio:${stdio}\n`;
    expect(normalizeManifest(validated(manifest(' { maxConcurrentCalls: 3 }'))).transports.stdio).toEqual({
      maxConcurrentCalls: 3,
    });
    expect(normalizeManifest(validated(manifest(' {}'))).transports.stdio).toEqual({ maxConcurrentCalls: 100 });
    expect(normalizeManifest(validated(manifest(''))).transports.stdio).toEqual({ maxConcurrentCalls: 100 });
  });

  const tool = (timeout: string) =>
    `    t_${timeout}:\n      description: Waits.\n      timeout: ${timeout}\n      input: { type: object }\n`;
  const text = (http: string) =>
    `mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\ntransports:\n  http: { ${http} }\ntools:\n` +
    `${tool('500ms')}${tool('90s')}${tool('30d')}` +
    '    plain:\n      description: Waits.\n      input: { type: object }\n';

  it('gives each tool its timeout in ms (30 s by default, at most what a Node timer holds) and HTTP its caps', () => {
    const model = normalizeManifest(
      validated(
        text(
          'maxConcurrentCalls: 7, maxBufferedBytes: 1024, shutdownGrace: 3s, maxListenStreams: 50, ' +
            'maxListenStreamsPerPrincipal: 5, listenKeepAlive: 2s, listenIdleTimeout: 1m',
        ),
      ),
    );
    expect(model.tools.map((t) => [t.name, t.timeoutMs])).toEqual([
      ['plain', 30_000],
      ['t_30d', 2_147_483_647],
      ['t_500ms', 500],
      ['t_90s', 90_000],
    ]);
    expect(model.transports.http).toMatchObject({
      maxConcurrentCalls: 7,
      maxBufferedBytes: 1024,
      shutdownGraceMs: 3000,
      maxListenStreams: 50,
      maxListenStreamsPerPrincipal: 5,
      listenKeepAliveMs: 2000,
      listenIdleMs: 60_000,
    });
    expect(normalizeManifest(validated(text('port: 3000'))).transports.http).toMatchObject({
      maxConcurrentCalls: 100,
      maxBufferedBytes: 16_777_216,
      shutdownGraceMs: 10_000,
      maxListenStreams: 1000,
      maxListenStreamsPerPrincipal: 10,
      listenKeepAliveMs: 15_000,
      listenIdleMs: 600_000,
    });
  });
});

describe('tasks', () => {
  const manifest = (tools: string): string => `mcpGen: 1\nserver: { name: t, version: 1.0.0 }\ntools:\n${tools}`;
  const tool = (name: string, extra: string): string =>
    `  ${name}:\n    description: d\n    annotations: { readOnlyHint: true }\n` +
    `    input: { type: object }\n${extra === '' ? '' : `    ${extra}\n`}`;

  it('keeps task, taskStart and taskTtl per tool (at the call, 1 h by default), needs the store, declares it', () => {
    const c = tool('c', 'task: required\n    taskTtl: 90s\n    taskStart: input');
    const model = normalizeManifest(validated(manifest(tool('a', 'task: optional') + tool('b', '') + c)));
    expect(model.tools.map((t) => [t.name, t.task, t.taskStart, t.taskTtlMs])).toEqual([
      ['a', 'optional', 'call', 3_600_000],
      ['b', 'none', 'call', 3_600_000],
      ['c', 'required', 'input', 90_000],
    ]);
    expect(needsStore(model)).toBe(true);
    expect(discoverContract(model).capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
  });

  it('a server without task tools neither needs the store for them nor declares the extension', () => {
    const model = normalizeManifest(validated(manifest(tool('b', ''))));
    expect(needsStore(model)).toBe(false);
    expect(discoverContract(model).capabilities.extensions).toBeUndefined();
  });
});

describe('config', () => {
  it('sorts the variables, defaults type to string and required to true unless a default is given', () => {
    const model = normalizeManifest(
      validated(`mcpGen: 1
server: { name: lib, version: 1.0.0 }
config:
  LIB_URL: { description: Database., type: url, secret: true }
  LIB_DEBUG: { description: Verbose logs., type: boolean, default: false }
  LIB_NAME: { description: Display name., required: false }
`),
    );
    expect(model.config).toEqual([
      {
        name: 'LIB_DEBUG',
        description: 'Verbose logs.',
        type: 'boolean',
        required: false,
        default: false,
        secret: false,
        pointer: '/config/LIB_DEBUG',
      },
      {
        name: 'LIB_NAME',
        description: 'Display name.',
        type: 'string',
        required: false,
        default: null,
        secret: false,
        pointer: '/config/LIB_NAME',
      },
      {
        name: 'LIB_URL',
        description: 'Database.',
        type: 'url',
        required: true,
        default: null,
        secret: true,
        pointer: '/config/LIB_URL',
      },
    ]);
  });
});
