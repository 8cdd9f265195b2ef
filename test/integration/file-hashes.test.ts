import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifestHash, manifestTextOf } from '../../src/load/index.js';
import { hashText } from '../../src/util/hash.js';
import { hashFileBytes } from '../../src/write/index.js';
import { repoRoot } from '../support/golden.js';

// Files are hashed a megabyte at a time into one buffer (a fresh buffer per large file costs more than hashing it).
// The run record's key must still be `hashText` of the text load reads, and a journal's hash that of the bytes:
// checked on files around and across the chunk size, with a byte-order mark and characters of every UTF-8 length.

const root = path.join(repoRoot, '.test-out', 'file-hashes');

describe('hashing a file a chunk at a time', () => {
  it('gives the hash of the text load reads, and of the bytes', () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const line = 'name: é’😀 x\n';
    const texts = ['', 'a', '\uFEFF', '\uFEFFmcpGen: 1\n', line.repeat(80_000), `\uFEFF${line.repeat(200_000)}`];
    for (const [i, text] of texts.entries()) {
      const file = path.join(root, `${i}.yaml`);
      writeFileSync(file, text);
      const bytes = readFileSync(file);
      expect(loadManifestHash(file, root), `text ${i}`).toBe(hashText(manifestTextOf(bytes)));
      expect(hashFileBytes(file), `text ${i}`).toBe(hashText(bytes));
    }
    expect(Buffer.byteLength(texts[5] ?? '')).toBeGreaterThan(3 * 1024 * 1024);
    expect(loadManifestHash(path.join(root, 'missing.yaml'), root)).toBeNull();
  });
});
