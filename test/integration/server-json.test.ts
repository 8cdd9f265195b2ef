import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { serverJson, serverJsonSchemaUrl } from '../../src/emit/registry/index.js';
import { toolsetDigest, wireTools } from '../../src/model/toolset.js';
import { runPipeline } from '../../src/pipeline.js';
import { repoRoot, runIn } from '../support/golden.js';

// server.json for the MCP registry, generated from the manifest's `registry` key, validated
// against the registry's latest released schema (2025-12-11, vendored in schema/registry/ with its source).

const schema = JSON.parse(
  readFileSync(path.join(repoRoot, 'schema', 'registry', 'server.schema.json'), 'utf8'),
) as Record<string, unknown>;

function validator() {
  // The schema is draft-07 with `format: uri`; ajv needs that format named, and `example` is an annotation only.
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  return ajv.compile(schema);
}

describe('server.json', () => {
  it('is written from the registry key: exact pins, transport, toolset digest; valid per registry schema', async () => {
    const model = (
      await runPipeline(
        { manifest: path.join(repoRoot, 'test', 'fixtures', 'import', 'registry', 'mcp.yaml'), cwd: repoRoot },
        'normalize',
      )
    ).model;
    expect(model).not.toBeNull();
    const record = serverJson(model!);
    expect(record).toEqual({
      $schema: serverJsonSchemaUrl,
      name: 'io.github.example/weather',
      description: 'Current conditions and forecasts for a city.',
      version: '1.4.2',
      title: 'Weather',
      repository: { url: 'https://github.com/example/weather-mcp', source: 'github' },
      packages: [
        { registryType: 'npm', identifier: '@example/weather-mcp', version: '1.4.2', transport: { type: 'stdio' } },
      ],
      remotes: [{ type: 'streamable-http', url: 'https://weather.example.com/mcp' }],
      _meta: {
        'io.modelcontextprotocol.registry/publisher-provided': {
          tool: 'mcp-gen',
          toolsetDigest: toolsetDigest(wireTools(model!)),
        },
      },
    });
    expect(schema.$id).toBe(serverJsonSchemaUrl);
    expect(serverJsonSchemaUrl).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    const validate = validator();
    expect(validate(record)).toBe(true);
    expect(validate.errors ?? null).toBeNull();
  });

  it('the vendored schema rejects what the registry rejects: a floating version, a long description', () => {
    const validate = validator();
    const base = { name: 'io.github.example/weather', description: 'Forecasts.', version: '1.0.0' };
    expect(validate(base)).toBe(true);
    expect(
      validate({
        ...base,
        packages: [{ registryType: 'npm', identifier: 'weather', version: 'latest', transport: { type: 'stdio' } }],
      }),
    ).toBe(false);
    expect(validate({ ...base, description: 'x'.repeat(101) })).toBe(false);
    // 2025-12-11: a remote's URL must be http(s), and a header must be named.
    expect(validate({ ...base, remotes: [{ type: 'streamable-http', url: 'ftp://example.com/mcp' }] })).toBe(false);
    const unnamed = { type: 'streamable-http', url: 'https://example.com/mcp', headers: [{ isSecret: true }] };
    expect(validate({ ...base, remotes: [unnamed] })).toBe(false);
  });

  it('declares the Authorization header and the runtime variables of a server with bearer auth', async () => {
    const dir = path.join(repoRoot, '.test-out', 'server-json-auth');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'mcp.yaml');
    const notes = readFileSync(path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), 'utf8');
    writeFileSync(
      file,
      notes.replace('  title: Team Notes', '  title: Team Notes\n  description: Team notes.') +
        'registry:\n  name: io.github.example/notes\n  npm: "@example/notes-mcp"\n' +
        '  remote: https://notes.example.com/mcp\n',
    );
    const compiled = await runPipeline({ manifest: file, cwd: repoRoot }, 'normalize');
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const record = serverJson(compiled.model!) as Record<string, unknown>;
    // The same list of variables as the README, .env.example and DESIGN.md (model/environment.ts).
    const key = (name: string, description: string) => ({
      name,
      description,
      format: 'string',
      isRequired: false,
      isSecret: true,
    });
    const keys = [
      key(
        'NOTES_HANDLE_KEY',
        'Signs state handles (at least 32 bytes; the same on every instance). ' +
          'Without it a loopback or stdio server uses an ephemeral key.',
      ),
      key(
        'NOTES_STATE_KEY',
        'Signs the approval state of destructive tools (at least 32 bytes; the same on every instance).',
      ),
    ];
    const authorization = {
      name: 'Authorization',
      description: 'A bearer token, sent as "Bearer <token>" on every request',
      isRequired: true,
      isSecret: true,
      value: 'Bearer {token}',
      variables: { token: { description: 'A bearer token', isRequired: true, isSecret: true } },
    };
    const pin = { registryType: 'npm', identifier: '@example/notes-mcp', version: '0.3.0' };
    expect(record.packages).toEqual([
      { ...pin, transport: { type: 'stdio' }, environmentVariables: keys },
      {
        ...pin,
        transport: { type: 'streamable-http', url: 'http://127.0.0.1:3333/mcp', headers: [authorization] },
        packageArguments: [{ type: 'named', name: '--transport', value: 'http' }],
        environmentVariables: [
          ...keys,
          {
            name: 'NOTES_TOKENS',
            description: 'Bearer tokens of the callers over HTTP: `token=principal:scope,scope;token2=...`.',
            format: 'string',
            isRequired: true,
            isSecret: true,
          },
        ],
      },
    ]);
    expect(record.remotes).toEqual([
      { type: 'streamable-http', url: 'https://notes.example.com/mcp', headers: [authorization] },
    ]);
    const validate = validator();
    expect(validate(record)).toBe(true);
    expect(validate.errors ?? null).toBeNull();
  });

  it('is written by generate next to the manifest, and is generated output', async () => {
    const out = path.join(repoRoot, '.test-out', 'server-json');
    rmSync(out, { recursive: true, force: true });
    const result = await runIn(repoRoot, [
      'generate',
      path.join('test', 'fixtures', 'import', 'registry', 'mcp.yaml'),
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('create    generated server.json\n');
    const written = JSON.parse(readFileSync(path.join(out, 'server.json'), 'utf8')) as Record<string, unknown>;
    expect(validator()(written)).toBe(true);
    const pkg = JSON.parse(readFileSync(path.join(out, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect([pkg.name, pkg.private, pkg.mcpName, pkg.bin, pkg.files]).toEqual([
      '@example/weather-mcp',
      undefined,
      written.name,
      { weather: 'dist/server.mjs' },
      ['dist/server.mjs'],
    ]);
    const registry = JSON.parse(readFileSync(path.join(out, 'src', 'generated', 'registry.gen.json'), 'utf8')) as {
      toolsetDigest: string;
    };
    expect(
      (written._meta as Record<string, { toolsetDigest: string }>)[
        'io.modelcontextprotocol.registry/publisher-provided'
      ]?.toolsetDigest,
    ).toBe(registry.toolsetDigest);
  }, 120_000);

  it('is absent without a registry key', async () => {
    const model = (
      await runPipeline({ manifest: path.join(repoRoot, 'examples', 'demo', 'mcp.yaml'), cwd: repoRoot }, 'normalize')
    ).model;
    expect(serverJson(model!)).toBeNull();
  });
});
