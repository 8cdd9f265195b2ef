import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkOf } from '../../src/check.js';
import { printCheck } from '../../src/cli/review-commands.js';
import { importOpenApi } from '../../src/import.js';
import { runPipeline, type PipelineResult } from '../../src/pipeline.js';
import { repoRoot } from '../support/golden.js';

// import's review prints every error and only the first warnings; it locates only the findings of the first
// entries (src/locate.ts). Whatever the limit, the text printed must be the one locating every finding
// gives, on a real draft (README's API: 54 tools, a few hundred findings spread over the file).

const out = path.join(repoRoot, '.test-out', 'locate-first');
const spec = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi', 'readme.json');
const plain = { red: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s, bold: (s: string) => s };

function printed(result: Parameters<typeof printCheck>[0], shown: number): string {
  let text = '';
  const io = {
    cwd: repoRoot,
    isTty: false,
    env: {},
    stdout: () => {},
    stderr: (s: string) => {
      text += s;
    },
  };
  printCheck(result, 'mcp.yaml', false, io, plain, shown);
  return text;
}

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
});

describe('the first findings of a review', () => {
  it('print as locating every finding prints them, for every limit', async () => {
    const manifest = path.join(out, 'readme.yaml');
    await importOpenApi(spec, { out: manifest, force: true, cwd: repoRoot });
    const compiled: PipelineResult = await runPipeline({ manifest, cwd: repoRoot }, 'review');
    const all = checkOf(compiled);
    const warnings = all.diagnostics.filter((d) => d.severity !== 'error').length;
    expect(warnings).toBeGreaterThan(150);
    for (const shown of [0, 1, 2, 7, 30, 100, warnings - 1, warnings, warnings + 5]) {
      const first = checkOf(compiled, shown);
      expect(printed(first, shown), `shown ${shown}`).toBe(printed(all, shown));
      // Only findings past the limit are left unlocated.
      expect(first.diagnostics.length + (first.counted?.length ?? 0)).toBe(all.diagnostics.length);
    }
    // With a small limit, most findings are only counted.
    expect(checkOf(compiled, 7).counted?.length).toBeGreaterThan(warnings / 2);
  });
});
