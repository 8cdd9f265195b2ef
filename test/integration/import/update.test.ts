import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../../support/golden.js';
import { petSpecV1, petSpecV2 } from '../../support/pet-specs.js';

// `mcp-gen import openapi --update` as a user runs it: a curated import (a filter and an overlay) records its
// base, the user edits the manifest and writes one handler, the spec changes, and --update merges: the recorded
// filter and overlay apply again, the conflict is reported with exit code 1, and a second --update is a no-op.

const dir = path.join(repoRoot, '.test-out', 'import-update');

type ImportRecord = Record<string, unknown>;

describe('import openapi --update', () => {
  it('merges a changed spec into a curated manifest, reapplying the recorded curation', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, 'src', 'handlers', 'tools'), { recursive: true });
    const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
    write('pets.json', JSON.stringify(petSpecV1()));
    write(
      'curate.yaml',
      'overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions:\n' +
        '  - target: $.paths["/pets"].post\n    update: { x-mcp: { annotations: { idempotentHint: true } } }\n',
    );
    const first = await runIn(dir, [
      'import',
      'openapi',
      'pets.json',
      '--exclude',
      'path:/owners',
      '--overlay',
      'curate.yaml',
    ]);
    expect(first.code).toBe(0);
    const record = JSON.parse(readFileSync(path.join(dir, '.mcp-gen', 'import-base.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect([record.manifest, record.spec, record.include, record.exclude, record.overlays]).toEqual([
      'mcp.yaml',
      'pets.json',
      [],
      ['path:/owners'],
      ['curate.yaml'],
    ]);

    let manifest = readFileSync(path.join(dir, 'mcp.yaml'), 'utf8');
    manifest = manifest.replace('    title: Get a pet\n', '    title: Look up one pet # mine\n');
    manifest = manifest.replace('as a list of pet objects.', 'as a list.');
    write('mcp.yaml', manifest);
    write('src/handlers/tools/delete_pet.ts', "// the user's handler\n");
    write('pets.json', JSON.stringify(petSpecV2()));

    const update = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect(update.code).toBe(1);
    expect(update.stdout.split('\n').slice(0, 5)).toEqual([
      'updated mcp.yaml: 1 tool added, 1 tool removed, 1 field updated from the spec, 1 conflict',
      '  added    tool "list_photos": an operation new in the spec',
      '  removed  tool "get_inventory": its operation is gone from the spec (or the filters)',
      '  kept     tool "delete_pet": its operation is gone from the spec (or the filters), but its handler file exists',
      'gate PASS for mcp.yaml (11 pass, 1 warn, 0 fail)',
    ]);
    const merged = readFileSync(path.join(dir, 'mcp.yaml'), 'utf8');
    const line = merged.split('\n').indexOf('  list_pets:') + 4;
    // The conflict is the update's report, with its own count, before the review's lint lines and their count.
    expect(update.stderr.slice(0, update.stderr.indexOf('\nmcp.yaml:8:1: note') + 1)).toBe(
      `mcp.yaml:${line}:18: error [import-conflict] tools.list_pets.description: you and the spec both changed it; ` +
        'your value is kept\n' +
        '  yours: "List pets\\n\\nEvery pet in the shop, newest first, as a list."\n' +
        '  spec:  "List pets\\n\\nEvery pet in the shop, newest first, 50 to a page."\n' +
        "  hint: to take the spec's value, write it in by hand; " +
        'the next --update compares against the spec as it is now\n' +
        '1 conflict to decide: the manifest keeps your value\n',
    );
    expect(update.stderr.endsWith('\n0 errors, 1 warning, 1 note\n')).toBe(true);
    expect(merged).toContain('    title: Look up one pet # mine\n');
    expect(merged).toContain('One pet by its id, with its name, status and photo URLs.');
    // The recorded overlay applied again (else its idempotentHint would count as a second updated field).
    expect(merged).toContain("  # hints from the spec's x-mcp or x-speakeasy-mcp\n  create_pet:\n");
    expect(merged).not.toContain('list_owners');

    const again = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect([again.code, again.stdout.split('\n')[0]]).toEqual([
      0,
      'updated mcp.yaml: 0 tools added, 0 tools removed, 0 fields updated from the spec, 0 conflicts',
    ]);
    expect(readFileSync(path.join(dir, 'mcp.yaml'), 'utf8')).toBe(merged);

    // Curation given with --update replaces the recorded one, whole: here one more exclude.
    const refiltered = await runIn(dir, [
      ...['import', 'openapi', 'pets.json', '--update', '--overlay', 'curate.yaml'],
      ...['--exclude', 'path:/owners', '--exclude', 'path:/pets/*/photos'],
    ]);
    expect(refiltered.stdout.split('\n').slice(0, 2)).toEqual([
      'updated mcp.yaml: 0 tools added, 1 tool removed, 0 fields updated from the spec, 0 conflicts',
      '  removed  tool "list_photos": its operation is gone from the spec (or the filters)',
    ]);
    const recorded = JSON.parse(readFileSync(path.join(dir, '.mcp-gen', 'import-base.json'), 'utf8')) as ImportRecord;
    expect([recorded.exclude, recorded.overlays]).toEqual([['path:/owners', 'path:/pets/*/photos'], ['curate.yaml']]);
  }, 120_000);

  it('reports a manifest that does not parse as validate does: every problem at its place, with its hint', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'pets.json'), JSON.stringify(petSpecV1()));
    expect((await runIn(dir, ['import', 'openapi', 'pets.json'])).code).toBe(0);
    const manifest = readFileSync(path.join(dir, 'mcp.yaml'), 'utf8');
    const broken = manifest.replace('  name: pets\n', '  name: [pets\n');
    writeFileSync(path.join(dir, 'mcp.yaml'), broken);
    const line = broken.split('\n').indexOf('  name: [pets') + 1;
    const run = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      '',
      `mcp.yaml:${line}:9: error [yaml-syntax] the "[" that opens here is never closed\n` +
        '  hint: close it with "]" on the same line, or write the items as block lines ("- item", one a line)\n',
    ]);
    writeFileSync(path.join(dir, 'mcp.yaml'), `${manifest}server:\n  name: again\n`);
    const twice = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect([twice.code, twice.stderr]).toEqual([
      1,
      `mcp.yaml:${manifest.split('\n').length}:1: error [yaml-duplicate-key] duplicate key "server" in a mapping\n` +
        '  hint: remove or rename one of the two keys\n',
    ]);
    expect(readFileSync(path.join(dir, 'mcp.yaml'), 'utf8')).toBe(`${manifest}server:\n  name: again\n`);
  });

  it('keeps the server name and config variables of the last import when the spec retitles the API', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const spec = petSpecV1();
    spec.components = { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } };
    spec.security = [{ key: [] }];
    writeFileSync(path.join(dir, 'pets.json'), JSON.stringify(spec));
    expect((await runIn(dir, ['import', 'openapi', 'pets.json'])).code).toBe(0);
    const drafted = readFileSync(path.join(dir, 'mcp.yaml'), 'utf8');
    expect(drafted).toContain('  PETS_API_KEY:\n');
    writeFileSync(
      path.join(dir, 'pets.json'),
      JSON.stringify({ ...spec, info: { title: 'Pet Store', version: '1.0.0' } }),
    );
    const run = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect([run.code, run.stdout.split('\n')[0]]).toEqual([
      0,
      'updated mcp.yaml: 0 tools added, 0 tools removed, 1 field updated from the spec, 0 conflicts',
    ]);
    expect(readFileSync(path.join(dir, 'mcp.yaml'), 'utf8')).toBe(
      drafted.replace('  title: Pets\n', '  title: Pet Store\n'),
    );
  });

  it('refuses a manifest without an import record, with a hint', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp.yaml'), 'mcpGen: 1\n');
    writeFileSync(path.join(dir, 'pets.json'), JSON.stringify(petSpecV1()));
    const run = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect([run.code, run.stderr]).toEqual([
      1,
      'mcp-gen: error [import-update] mcp.yaml has no .mcp-gen/import-base.json next to it\n' +
        '  hint: run import openapi without --update first: ' +
        'it writes the manifest and the record --update merges against\n',
    ]);
    expect((await runIn(dir, ['import', 'openapi', 'pets.json', '--out', 'a.yaml'])).code).toBe(0);
    const other = await runIn(dir, ['import', 'openapi', 'pets.json', '--update']);
    expect([other.code, other.stderr]).toEqual([
      1,
      'mcp-gen: error [import-update] .mcp-gen/import-base.json records the import of "a.yaml", not of mcp.yaml\n' +
        '  hint: run --update with --out a.yaml; a folder keeps the record of its last import only\n',
    ]);
  });
});
