import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkOf } from '../../src/check.js';
import { importOpenApi } from '../../src/import.js';
import { loadOpenApi, type OpenApiError } from '../../src/load/openapi.js';
import { runPipeline, type PipelineResult } from '../../src/pipeline.js';
import { expectGolden, repoRoot, runIn } from '../support/golden.js';

// `mcp-gen import openapi` on two public specs (test/fixtures/import/openapi/SOURCE.md): the draft
// is golden, it validates, and every DELETE operation became a destructive tool with approval.

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi');
const out = path.join(repoRoot, '.test-out', 'import-openapi');

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
});

/** How many DELETE operations the raw spec has. */
function deleteOperations(spec: string): number {
  const doc = JSON.parse(readFileSync(path.join(fixtures, spec), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.values(doc.paths).filter((item) => item.delete !== undefined).length;
}

describe('import openapi', () => {
  for (const [spec, tools] of [
    ['petstore.json', 20],
    ['readme.json', 54],
  ] as const) {
    it(`drafts ${spec}: golden text, valid, DELETE destructive with approval`, async () => {
      const result = await importOpenApi(path.join(fixtures, spec), {
        out: path.join(out, `${spec}.yaml`),
        force: false,
        cwd: repoRoot,
      });
      expect(result.written).toBe(true);
      expectGolden(path.join(fixtures, 'expected', spec.replace('.json', '.yaml')), result.text);
      const model = result.compiled?.model;
      expect(result.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(model?.tools.length).toBe(tools);
      // The check ran on the draft's data in memory: it is what reading the written file gives, positions included.
      const reread = await runPipeline({ manifest: path.join(out, `${spec}.yaml`), cwd: repoRoot }, 'review');
      expect(result.compiled?.manifest?.data).toEqual(reread.manifest?.data);
      expect(checkOf(result.compiled as PipelineResult).diagnostics).toEqual(checkOf(reread).diagnostics);
      // Every tool drafted from a DELETE says so in its note and asks for approval.
      const text = result.text.split('\n');
      const deleteTools = text.flatMap((line, i) =>
        /^ {2}# DELETE /.test(line)
          ? [
              text
                .slice(i + 1)
                .find((l) => !l.trim().startsWith('#'))
                ?.trim()
                .replace(/:$/, '') ?? '',
            ]
          : [],
      );
      expect(deleteTools.length).toBe(deleteOperations(spec));
      for (const name of deleteTools) {
        const tool = model?.tools.find((t) => t.name === name);
        expect({ name, destructive: tool?.destructive, approval: tool?.approval }).toEqual({
          name,
          destructive: true,
          approval: 'confirm',
        });
      }
    }, 120_000);
  }

  it('flags what a reviewer must decide', async () => {
    const result = await importOpenApi(path.join(fixtures, 'readme.json'), {
      out: path.join(out, 'flags.yaml'),
      force: false,
      cwd: repoRoot,
    });
    expect(result.draft.flags[0]).toBe(
      '54 tools, more than the 20 a model chooses among well; merge ' +
        'or drop operations (one tool per task, not per endpoint)',
    );
    // Its operations without parameters (get_project: GET /projects/me) take exactly nothing: no open schema to
    // describe, and the answers it leaves open are described maps or closed objects.
    expect(result.draft.flags.filter((flag) => flag.includes(': open '))).toEqual([]);
    const pet = await importOpenApi(path.join(fixtures, 'petstore.json'), {
      out: path.join(out, 'pet-flags.yaml'),
      force: false,
      cwd: repoRoot,
    });
    expect(pet.draft.flags).toContain(
      'tool "delete_pet": weak description (13 characters); say when to use it and what it returns',
    );
  }, 120_000);

  it('converts a Swagger 2.0 document to OpenAPI 3.0 first', async () => {
    writeFileSync(
      path.join(out, 'swagger2.json'),
      JSON.stringify({
        swagger: '2.0',
        info: { title: 'Pets', version: '1.0.0' },
        paths: {
          '/pets/{petId}': {
            get: {
              operationId: 'showPetById',
              summary: 'Info for a specific pet',
              parameters: [{ name: 'petId', in: 'path', required: true, type: 'string', maxLength: 64 }],
              responses: { '200': { description: 'the pet', schema: { $ref: '#/definitions/Pet' } } },
            },
          },
        },
        definitions: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
      }),
    );
    const result = await importOpenApi(path.join(out, 'swagger2.json'), {
      out: path.join(out, 'swagger2-draft.yaml'),
      force: false,
      cwd: repoRoot,
    });
    expect(result.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.draft.data.tools).toEqual({
      show_pet_by_id: {
        title: 'Info for a specific pet',
        description: 'Info for a specific pet',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
        http: { method: 'GET', path: '/pets/{petId}', args: { petId: 'path' } },
        input: {
          type: 'object',
          additionalProperties: false,
          required: ['petId'],
          properties: { petId: { type: 'string', maxLength: 64 } },
        },
        output: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
      },
    });
    // A spec without servers gives the base URL no default, and says so.
    expect(result.draft.data.config).toEqual({
      PETS_BASE_URL: { description: 'The base URL of the API the tools call.', type: 'url', required: false },
    });
    expect(result.text).toContain(
      `  # TODO upstream: the spec's first server "(none)" is not an absolute URL; set a default\n`,
    );
  }, 120_000);

  it('refuses a remote $ref, a file that is not OpenAPI, and an existing draft without --force', async () => {
    const remote = path.join(out, 'remote.yaml');
    writeFileSync(
      remote,
      'openapi: 3.0.3\ninfo: { title: t, version: 1.0.0 }\npaths:\n  /a:\n    get:\n      operationId: getA\n' +
        '      responses:\n        "200":\n          description: ok\n          content:\n' +
        '            application/json:\n              schema: { $ref: "https://example.com/schemas/a.json" }\n',
    );
    const refused = await runIn(out, ['import', 'openapi', 'remote.yaml', '--out', 'remote-draft.yaml']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'remote.yaml:12:31: error [import-spec] $ref "https://example.com/schemas/a.json" at ' +
        '/paths/~1a/get/responses/200/content/application~1json/schema/$ref points outside this file; ' +
        'remote references are refused\n  hint: inline the schema, or make the reference local ("#/components/...")\n',
    });
    writeFileSync(
      path.join(out, 'swagger.json'),
      JSON.stringify({ swagger: '1.2', info: { title: 't', version: '1' }, paths: {} }),
    );
    expect((await runIn(out, ['import', 'openapi', 'swagger.json'])).stderr).toBe(
      'swagger.json:1:1: error [import-spec] not an OpenAPI 3.x or Swagger 2.0 document (no "openapi: 3.x" field)\n' +
        '  hint: import openapi reads a document that starts with "openapi: 3.0.x" or "3.1.x" ' +
        '(or "swagger: \'2.0\'")\n',
    );

    writeFileSync(path.join(out, 'mine.yaml'), 'my own file\n');
    const kept = await runIn(out, ['import', 'openapi', path.join(fixtures, 'petstore.json'), '--out', 'mine.yaml']);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toBe('mcp-gen: error: mine.yaml already exists; pass --force to replace it, or --out <file>\n');
    expect(readFileSync(path.join(out, 'mine.yaml'), 'utf8')).toBe('my own file\n');
    const forced = await runIn(out, [
      'import',
      'openapi',
      path.join(fixtures, 'petstore.json'),
      '--out',
      'mine.yaml',
      '--force',
    ]);
    expect(forced.code).toBe(0);
    expect(forced.stdout.split('\n')[0]).toBe('wrote mine.yaml: 20 tools, 0 resources, 0 prompts, 16 TODOs to review');
    expect(readFileSync(path.join(out, 'mine.yaml'), 'utf8')).toBe(
      readFileSync(path.join(fixtures, 'expected', 'petstore.yaml'), 'utf8'),
    );
  }, 120_000);

  it('reports every remote $ref at its line, and a spec it cannot read with a hint', async () => {
    writeFileSync(
      path.join(out, 'two-remote.yaml'),
      'openapi: 3.0.3\ninfo: { title: t, version: 1.0.0 }\npaths:\n  /a:\n    get:\n      responses:\n' +
        '        "200": { $ref: "../outside.yaml#/r" }\n  /b:\n    get:\n      responses:\n' +
        '        "200": { $ref: "https://example.com/r" }\n',
    );
    const hint = '  hint: inline the schema, or make the reference local ("#/components/...")\n';
    expect(await runIn(out, ['import', 'openapi', 'two-remote.yaml', '--out', 'two.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'two-remote.yaml:7:24: error [import-spec] $ref "../outside.yaml#/r" at /paths/~1a/get/responses/200/$ref ' +
        `points outside this file; remote references are refused\n${hint}` +
        'two-remote.yaml:11:24: error [import-spec] $ref "https://example.com/r" at ' +
        '/paths/~1b/get/responses/200/$ref ' +
        `points outside this file; remote references are refused\n${hint}`,
    });
    expect((await runIn(out, ['import', 'openapi', 'missing.yaml'])).stderr).toBe(
      'missing.yaml:1:1: error [import-spec] cannot be read (ENOENT)\n' +
        '  hint: pass the path of an OpenAPI 3.x or Swagger 2.0 document, YAML or JSON\n',
    );
  });

  it('reads a JSON spec with non-ASCII text as JSON.parse of its UTF-8 text does, errors included', async () => {
    // Latin-1, CJK, an astral character, a raw U+2028, an escape, and a malformed byte (U+FFFD either way).
    const description = 'caf\u00e9 \u65e5\u672c \u{1F600} \u2028 \\u00e9 ';
    const bytes = Buffer.concat([
      Buffer.from(`{"openapi":"3.0.3","info":{"title":"${description}","version":"1"},"paths":{},"x":"`),
      Buffer.from([0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from('"}'),
    ]);
    writeFileSync(path.join(out, 'unicode.json'), bytes);
    const loaded = await loadOpenApi('unicode.json', out);
    expect(loaded.document).toEqual(JSON.parse(bytes.toString('utf8')));
    expect((loaded.document.info as { title: string }).title).toBe('caf\u00e9 \u65e5\u672c \u{1F600} \u2028 \u00e9 ');
    expect(loaded.document.x).toBe('\ufffd(\ufffd');
    // Non-ASCII outside a string: the message JSON.parse gives for the text itself.
    const broken = Buffer.from('{"openapi": \u00e9}');
    writeFileSync(path.join(out, 'broken.json'), broken);
    let expected = '';
    try {
      JSON.parse(broken.toString('utf8'));
    } catch (error) {
      expected = (error as Error).message;
    }
    const refused = await loadOpenApi('broken.json', out).catch((error: unknown) => error);
    expect((refused as OpenApiError).format()).toBe(
      `broken.json:1:1: error [import-spec] not valid JSON: ${expected.charAt(0).toLowerCase()}${expected.slice(1)}\n` +
        '  hint: fix the JSON at this line\n',
    );
    // Right after a backslash: an escaped backslash then text is read as it is; a backslash before é is no JSON.
    writeFileSync(path.join(out, 'backslash.json'), Buffer.from('{"openapi":"3.0.3","info":{"title":"\\\\\u00e9"}}'));
    expect(((await loadOpenApi('backslash.json', out)).document.info as { title: string }).title).toBe('\\\u00e9');
    writeFileSync(path.join(out, 'escape.json'), Buffer.from('{"openapi":"3.0.3","info":{"title":"\\\u00e9"}}'));
    const escapeRefused = await loadOpenApi('escape.json', out).catch((error: unknown) => error);
    expect((escapeRefused as OpenApiError).format()).toBe(
      'escape.json:1:38: error [import-spec] not valid JSON: bad escaped character\n' +
        '  hint: fix the JSON at this line\n',
    );
  });
});
