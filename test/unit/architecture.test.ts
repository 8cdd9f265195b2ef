import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

const srcDir = path.join(repoRoot, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const files = sourceFiles(srcDir).map((file) => ({
  rel: path.relative(srcDir, file).split(path.sep).join('/'),
  text: readFileSync(file, 'utf8'),
}));

function importsOf(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) => m[1] ?? '');
}

// The dependency rules of the style guide, enforced: who may read the disk, who may import which library.
describe('architecture rules', () => {
  it('only load/ imports yaml', () => {
    expect(files.filter((f) => importsOf(f.text).includes('yaml') && !f.rel.startsWith('load/')).map((f) => f.rel)).toEqual([]);
  });

  it('only load/ reads manifests from disk; only write/ changes it', () => {
    const offenders = files.filter((f) => {
      const usesFs = importsOf(f.text).some((i) => i === 'node:fs' || i === 'node:fs/promises');
      return usesFs && !f.rel.startsWith('load/') && !f.rel.startsWith('write/') && f.rel !== 'cli/version.ts';
    });
    expect(offenders.map((f) => f.rel)).toEqual([]);
  });

  it('stage folders import only model, diagnostics, util and their own files', () => {
    const stages = ['load', 'validate', 'normalize'];
    const allowed = ['model', 'diagnostics', 'util'];
    const offenders: string[] = [];
    for (const f of files) {
      const stage = f.rel.split('/')[0] ?? '';
      if (!stages.includes(stage)) continue;
      for (const spec of importsOf(f.text).filter((i) => i.startsWith('.'))) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(f.rel), spec)).split('/')[0] ?? '';
        if (target !== stage && !allowed.includes(target)) offenders.push(`${f.rel} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('never sorts with localeCompare', () => {
    expect(files.filter((f) => f.text.includes('.localeCompare(')).map((f) => f.rel)).toEqual([]);
  });

  it('keeps files small (under 300 lines)', () => {
    // Data tables, not logic: splitting them would only scatter one list over several files.
    const exempt = new Map([
      ['validate/manifest-schema.ts', 'the manifest JSON Schema as one object'],
      ['diagnostics/codes.ts', 'the diagnostic catalog, one entry per code'],
    ]);
    expect(files.filter((f) => f.text.split('\n').length > 300 && !exempt.has(f.rel)).map((f) => f.rel)).toEqual([]);
  });
});
