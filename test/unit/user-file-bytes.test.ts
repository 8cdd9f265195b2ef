import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listTree, repoRoot, runIn } from '../support/golden.js';

// A run rewrites a few files of the user's: a handler file on a rename (`renamedFrom`), README.md's marked part and
// package.json's keys. Every byte but the ones the run changes must survive it.
const caseDir = path.join(repoRoot, 'test', 'fixtures', 'regenerate', 'rename');
const from = 'src/handlers/tools/search_notes.ts';
const to = 'src/handlers/tools/find_notes.ts';
const before = readFileSync(path.join(caseDir, 'before', from));
const after = readFileSync(path.join(caseDir, 'after', to));

function project(name: string, handler: Buffer): string {
  const work = path.join(repoRoot, '.test-out', 'user-file-bytes', name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'src', 'handlers', 'tools'), { recursive: true });
  cpSync(path.join(caseDir, 'manifest.yaml'), path.join(work, 'mcp.yaml'));
  writeFileSync(path.join(work, from), handler);
  return work;
}

describe('a renamed handler file keeps its bytes', () => {
  it('keeps a byte-order mark', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const work = project('bom', Buffer.concat([bom, before]));
    const result = await runIn(work, ['generate', 'mcp.yaml']);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(work, from))).toBe(false);
    expect(readFileSync(path.join(work, to)).toString('hex')).toBe(Buffer.concat([bom, after]).toString('hex'));
  });

  it('refuses, changing nothing, to rename a file that is not UTF-8', async () => {
    // "café" in Latin-1: 0xe9 is no UTF-8 sequence, and decoding it would write U+FFFD in its place.
    const latin1 = Buffer.concat([Buffer.from('// caf'), Buffer.from([0xe9]), Buffer.from('\n'), before]);
    const work = project('latin1', latin1);
    const result = await runIn(work, ['generate', 'mcp.yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `mcp-gen: error: could not rename "${from}" to "${to}": it is not UTF-8 text, so the renamed file would not ` +
        `hold its bytes; nothing was changed\n  hint: save "${from}" as UTF-8 and run generate again, or move it ` +
        `to "${to}" and rename its handler by hand\n`,
    );
    expect(listTree(work)).toEqual(['mcp.yaml', from]);
    expect(readFileSync(path.join(work, from)).equals(latin1)).toBe(true);
  });

  it('refuses, changing nothing, to update a README.md that is not UTF-8', async () => {
    const work = project('readme', after);
    writeFileSync(path.join(work, to), after);
    rmSync(path.join(work, from));
    expect((await runIn(work, ['generate', 'mcp.yaml'])).code).toBe(0);
    const readme = Buffer.concat([readFileSync(path.join(work, 'README.md')), Buffer.from([0x0a, 0xe9, 0x0a])]);
    writeFileSync(path.join(work, 'README.md'), readme);
    const tree = listTree(work);
    const manifest = readFileSync(path.join(work, 'mcp.yaml'), 'utf8');
    // A port of its own changes README.md's part (and package.json's scripts).
    writeFileSync(path.join(work, 'mcp.yaml'), `${manifest}transports: { http: { port: 3411 } }\n`);
    const result = await runIn(work, ['generate', 'mcp.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'mcp-gen: error: could not update "README.md": it is not UTF-8 text, so the updated file would not hold its ' +
        'bytes; nothing was changed\n  hint: save "README.md" as UTF-8 and run generate again\n',
    );
    expect(listTree(work)).toEqual(tree);
    expect(readFileSync(path.join(work, 'README.md')).equals(readme)).toBe(true);
  });

  it('keeps the permissions of a file it renames or updates', async () => {
    const work = project('modes', before);
    chmodSync(path.join(work, from), 0o400);
    expect((await runIn(work, ['generate', 'mcp.yaml'])).code).toBe(0);
    const mode = (file: string) => (statSync(path.join(work, file)).mode & 0o777).toString(8);
    expect(mode(to)).toBe('400');
    chmodSync(path.join(work, 'package.json'), 0o600);
    chmodSync(path.join(work, 'README.md'), 0o640);
    const manifest = readFileSync(path.join(work, 'mcp.yaml'), 'utf8');
    writeFileSync(path.join(work, 'mcp.yaml'), `${manifest}transports: { http: { port: 3411 } }\n`);
    const result = await runIn(work, ['generate', 'mcp.yaml']);
    expect(result.stdout).toContain('update    user-edit README.md\nupdate    user-edit package.json\n');
    expect([mode('package.json'), mode('README.md')]).toEqual(['600', '640']);
  });
});
