import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, listTree, repoRoot, runIn } from '../support/golden.js';
import { mermaidBlocks, parseFlowchart } from '../support/mermaid.js';

const examples = readdirSync(path.join(repoRoot, 'examples')).sort();

describe('mcp-gen report', () => {
  for (const name of examples) {
    it(`examples/${name}: Markdown equals the committed DESIGN.md, JSON equals its golden`, async () => {
      const md = await runIn(repoRoot, ['report', `examples/${name}/mcp.yaml`, '--out', '-']);
      expect(md.code).toBe(0);
      expect(md.stdout).toBe(readFileSync(path.join(repoRoot, 'examples', name, 'DESIGN.md'), 'utf8'));
      const json = await runIn(repoRoot, ['report', `examples/${name}/mcp.yaml`, '--format', 'json', '--out', '-']);
      expect(json.code).toBe(0);
      expectGolden(path.join(repoRoot, 'test', 'fixtures', 'golden', 'reports', `${name}.json`), json.stdout);
    });
  }

  it('writes DESIGN.md next to the manifest by default, and leaves it alone when unchanged', async () => {
    const first = await runIn(repoRoot, ['report', 'examples/notes/mcp.yaml']);
    expect(first).toEqual({ code: 0, stdout: 'examples/notes/DESIGN.md: unchanged (gate PASS)\n', stderr: '' });
  });

  it('rejects an unknown --format', async () => {
    expect(await runIn(repoRoot, ['report', 'examples/notes/mcp.yaml', '--format', 'html'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: --format must be "md" or "json", got "html"\n',
    });
  });
});

describe('the Mermaid state diagram', () => {
  const reports = [
    ...examples.map((name) => path.join(repoRoot, 'examples', name, 'DESIGN.md')),
    ...listTree(path.join(repoRoot, 'test', 'fixtures', 'valid'))
      .filter((f) => f.endsWith('DESIGN.md'))
      .map((f) => path.join(repoRoot, 'test', 'fixtures', 'valid', f)),
  ];

  it('parses in every report that has handles, with an edge for every issuer and consumer', () => {
    let checked = 0;
    for (const file of reports) {
      for (const block of mermaidBlocks(readFileSync(file, 'utf8'))) {
        const chart = parseFlowchart(block);
        expect(chart.direction).toBe('LR');
        expect(chart.edges.length).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });

  it('the notes example shows start_note_draft -> note_draft -> publish_note_draft', () => {
    const [block] = mermaidBlocks(readFileSync(path.join(repoRoot, 'examples', 'notes', 'DESIGN.md'), 'utf8'));
    const chart = parseFlowchart(block ?? '');
    expect(chart.edges).toEqual([
      { from: 't_start_note_draft', label: 'issues', to: 'h_note_draft' },
      { from: 'h_note_draft', label: 'consumed by', to: 't_publish_note_draft' },
    ]);
  });

  it('the parser rejects what Mermaid would reject or misdraw', () => {
    expect(() => parseFlowchart('graph LR\n  a["x"]')).toThrow('line 1');
    expect(() => parseFlowchart('flowchart LR\n  a["x"y"]')).toThrow('line 2');
    expect(() => parseFlowchart('flowchart LR\n  a["x"]\n  a -->|to| b')).toThrow('undeclared node b');
    expect(() => parseFlowchart('flowchart LR\n  a["x"]\n  a["y"]')).toThrow('declared twice');
  });
});
