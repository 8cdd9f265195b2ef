import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { serverJson, serverJsonSchemaUrl } from '../../src/emit/registry/index.js';
import { toolsetDigest, wireTools } from '../../src/model/toolset.js';
import { runPipeline } from '../../src/pipeline.js';
import { repoRoot, runIn } from '../support/golden.js';

// server.json for the MCP registry, generated from the manifest's `registry` key, validated
// against the registry's published schema (vendored in schema/registry/ with its source).

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
