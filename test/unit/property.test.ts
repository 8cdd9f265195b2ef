import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { generateProject } from '../../src/generate.js';
import { repoRoot } from '../support/golden.js';

/** A small deterministic PRNG (mulberry32), so every failing case can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T };
}

interface Tool {
  name: string;
  renamedFrom?: string;
  fields: string[];
}

function manifestText(tools: readonly Tool[]): string {
  const lines = ['mcpGen: 1', 'server: { name: prop, version: 1.0.0 }', 'tools:'];
  for (const tool of tools) {
    lines.push(`  ${tool.name}:`, `    description: Tool ${tool.name} does one thing well.`, '    annotations: { readOnlyHint: true }');
    if (tool.renamedFrom !== undefined) lines.push(`    renamedFrom: ${tool.renamedFrom}`);
    lines.push('    input:', '      type: object', '      additionalProperties: false', '      properties:');
    for (const field of tool.fields) lines.push(`        ${field}: { type: string, maxLength: 50 }`);
    if (tool.fields.length === 0) lines.push('        {}');
  }
  if (tools.length === 0) lines.push('  {}');
  return `${lines.join('\n').replace('properties:\n        {}', 'properties: {}').replace('tools:\n  {}', 'tools: {}')}\n`;
}

const alphabet = ['a', 'b', 'é', '日', '`', '$', '{', '}', '*/', '\\', '"', "'", ' ', '\t', '🚀'];

/** Inserts user code right after the opening brace of the handler body: a comment and a statement. */
function userEdit(text: string, marker: string): string {
  const at = text.indexOf('=> {');
  if (at < 0) return `${text}// ${marker}\n`;
  const insert = `\n  // ${marker}\n  const kept = ${JSON.stringify(marker)}; void kept;`;
  return text.slice(0, at + 4) + insert + text.slice(at + 4);
}

function handlerFiles(dir: string): Map<string, string> {
  const folder = path.join(dir, 'src', 'handlers', 'tools');
  const files = new Map<string, string>();
  for (const name of readdirSync(folder)) files.set(name, readFileSync(path.join(folder, name), 'utf8'));
  return files;
}

// Random sequences of manifest edits (add, remove, rename with renamedFrom, change schemas)
// interleaved with random user edits of handler bodies: after every regeneration, every byte
// the user wrote must still be there.
describe('regeneration never loses a user-written byte (property)', () => {
  const cases = 200;
  it(`${cases} random edit sequences`, async () => {
    const root = path.join(repoRoot, '.test-out', 'property');
    for (let seed = 1; seed <= cases; seed++) {
      const rng = random(seed);
      const dir = path.join(root, `case-${seed % 4}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      let counter = 0;
      let tools: Tool[] = Array.from({ length: 1 + rng.int(3) }, () => ({ name: `tool_${counter++}`, fields: ['q'] }));
      const markers: string[] = [];
      const run = async () => {
        writeFileSync(path.join(dir, 'mcp.yaml'), manifestText(tools));
        const result = await generateProject(resolveOptions({ manifest: 'mcp.yaml' }, dir), '0.1.0', dir);
        expect(result.diagnostics.filter((d) => d.severity === 'error'), `seed ${seed}`).toEqual([]);
        tools = tools.map(({ renamedFrom: _done, ...rest }) => rest);
        const all = [...handlerFiles(dir).values()].join('\n');
        for (const marker of markers) expect(all.includes(marker), `seed ${seed}: lost ${JSON.stringify(marker)}`).toBe(true);
      };
      await run();
      const steps = 2 + rng.int(3);
      for (let step = 0; step < steps; step++) {
        for (const [name, text] of handlerFiles(dir)) {
          if (rng.next() < 0.6) {
            const marker = `user ${seed}.${step} ${Array.from({ length: 6 }, () => rng.pick(alphabet)).join('')}`;
            markers.push(marker);
            writeFileSync(path.join(dir, 'src', 'handlers', 'tools', name), userEdit(text, marker));
          }
        }
        const edit = rng.int(4);
        if (edit === 0 || tools.length === 0) tools.push({ name: `tool_${counter++}`, fields: ['q'] });
        else if (edit === 1) tools.splice(rng.int(tools.length), 1);
        else if (edit === 2) {
          const i = rng.int(tools.length);
          const old = tools[i]!;
          tools[i] = { name: `tool_${counter++}`, renamedFrom: old.name, fields: old.fields };
        } else {
          const tool = rng.pick(tools);
          tool.fields = rng.next() < 0.5 ? [...tool.fields, `f${counter++}`] : tool.fields.slice(1);
        }
        await run();
      }
    }
  }, 300_000);
});
