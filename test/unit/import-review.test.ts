import { describe, expect, it } from 'vitest';
import { printCheck } from '../../src/cli/review-commands.js';
import { makeDiagnostic, type Diagnostic } from '../../src/diagnostics/index.js';

// import's review of its draft prints every error but at most `shown` warnings and notes, then counts the rest
// by code; `check` (no limit) prints them all.

function warnings(n: number, code: 'lint-unbounded-string' | 'lint-open-schema', from: number): Diagnostic[] {
  return Array.from({ length: n }, (_, i) =>
    makeDiagnostic(code, { file: 'mcp.yaml', pointer: `/tools/t${from + i}`, line: from + i, col: 3 }, `w${from + i}`),
  );
}

function stderrOf(diagnostics: Diagnostic[], shown?: number): string {
  let stderr = '';
  const io = {
    cwd: '/',
    isTty: false,
    env: {},
    stdout: () => {},
    stderr: (s: string) => {
      stderr += s;
    },
  };
  const plain = { red: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s, bold: (s: string) => s };
  printCheck({ diagnostics, review: null, model: null, manifest: null }, 'mcp.yaml', false, io, plain, shown);
  return stderr;
}

describe('the review import prints', () => {
  const error = makeDiagnostic('yaml-syntax', { file: 'mcp.yaml', pointer: '', line: 9, col: 1 }, 'bad');
  const all = [...warnings(2, 'lint-open-schema', 1), error, ...warnings(3, 'lint-unbounded-string', 10)];

  it('shows every error and the first warnings, then counts the rest by code, most frequent first', () => {
    const lines = stderrOf(all, 2).split('\n');
    expect(lines.filter((l) => l.startsWith('mcp.yaml:')).map((l) => l.split(' ')[0])).toEqual([
      'mcp.yaml:1:3:',
      'mcp.yaml:2:3:',
      'mcp.yaml:9:1:',
    ]);
    expect(lines.slice(-3)).toEqual([
      '... and 3 more (3 lint-unbounded-string); run "mcp-gen check mcp.yaml" to see each one',
      '1 error, 5 warnings',
      '',
    ]);
  });

  it('is the full report when nothing is over the limit, and without a limit', () => {
    expect(stderrOf(all, 5)).toBe(stderrOf(all));
    expect(
      stderrOf(all)
        .split('\n')
        .filter((l) => l.startsWith('mcp.yaml:')),
    ).toHaveLength(6);
  });
});
