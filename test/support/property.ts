import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { formatReport } from '../../src/diagnostics/index.js';
import { bannerMark } from '../../src/emit/index.js';
import { buildProject } from './build-project.js';
import { repoRoot } from './paths.js';
import type { ExistingProject } from '../../src/load/index.js';
import { handlerDirs, markerPath } from '../../src/model/layout.js';
import { compareText } from '../../src/util/compare.js';
import { joinText } from '../../src/util/file-text.js';
import { planActions } from '../../src/write/actions.js';

// The property "regeneration never loses a byte the user wrote", shared by its two runs: many
// seeds against a project held in memory (test/unit/property.test.ts) and a few seeds on disk
// through the real executable (test/integration/property-disk.test.ts). A seed fixes the whole
// sequence of manifest and handler edits, so a failing case replays from its number.

/** A project the property runs against. */
export interface PropertyProject {
  /** Saves `manifest` as mcp.yaml and regenerates; resolves with what stopped the run, or '' on success. */
  generate(manifest: string): Promise<string>;
  /** The tool handler files (src/handlers/tools), by file name, in compareText order. */
  handlers(): Map<string, string>;
  /** Overwrites one tool handler file, as the user's editor does. */
  editHandler(name: string, text: string): void;
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
  };
}

interface Tool {
  name: string;
  renamedFrom?: string;
  fields: string[];
}

function manifestText(tools: readonly Tool[]): string {
  const lines = ['mcpGen: 1', 'server: { name: prop, version: 1.0.0 }', 'tools:'];
  for (const tool of tools) {
    lines.push(
      `  ${tool.name}:`,
      `    description: Tool ${tool.name} does one thing well.`,
      '    annotations: { readOnlyHint: true }',
    );
    if (tool.renamedFrom !== undefined) lines.push(`    renamedFrom: ${tool.renamedFrom}`);
    lines.push('    input:', '      type: object', '      additionalProperties: false', '      properties:');
    for (const field of tool.fields) lines.push(`        ${field}: { type: string, maxLength: 50 }`);
    if (tool.fields.length === 0) lines.push('        {}');
  }
  if (tools.length === 0) lines.push('  {}');
  const text = lines.join('\n').replace('properties:\n        {}', 'properties: {}');
  return `${text.replace('tools:\n  {}', 'tools: {}')}\n`;
}

const alphabet = ['a', 'b', 'é', '日', '`', '$', '{', '}', '*/', '\\', '"', "'", ' ', '\t', '🚀'];

/** Inserts user code right after the opening brace of the handler body: a comment and a statement. */
function userEdit(text: string, marker: string): string {
  const at = text.indexOf('=> {');
  if (at < 0) return `${text}// ${marker}\n`;
  const insert = `\n  // ${marker}\n  const kept = ${JSON.stringify(marker)}; void kept;`;
  return text.slice(0, at + 4) + insert + text.slice(at + 4);
}

/**
 * One random sequence of manifest edits (add, remove, rename with renamedFrom, change a schema)
 * interleaved with user edits of handler bodies; after every regeneration, every byte the user
 * wrote must still be in a handler file.
 */
export async function runEditSequence(seed: number, project: PropertyProject): Promise<void> {
  const rng = random(seed);
  let counter = 0;
  let tools: Tool[] = Array.from({ length: 1 + rng.int(3) }, () => ({ name: `tool_${counter++}`, fields: ['q'] }));
  const markers: string[] = [];
  const run = async () => {
    expect(await project.generate(manifestText(tools)), `seed ${seed}`).toBe('');
    tools = tools.map(({ renamedFrom: _done, ...rest }) => rest);
    const all = [...project.handlers().values()].join('\n');
    for (const marker of markers)
      expect(all.includes(marker), `seed ${seed}: lost ${JSON.stringify(marker)}`).toBe(true);
  };
  await run();
  const steps = 2 + rng.int(3);
  for (let step = 0; step < steps; step++) {
    for (const [name, text] of project.handlers()) {
      if (rng.next() < 0.6) {
        const marker = `user ${seed}.${step} ${Array.from({ length: 6 }, () => rng.pick(alphabet)).join('')}`;
        markers.push(marker);
        project.editHandler(name, userEdit(text, marker));
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

const toolsFolder = 'src/handlers/tools/';

/** What load would find in `files`: the handler files and the previous run's list of generated files. */
function existingIn(files: ReadonlyMap<string, string>): ExistingProject {
  const folders = new Set<string>(Object.values(handlerDirs));
  const handlers = new Map(
    [...files]
      .filter(([file]) => folders.has(path.posix.dirname(file)) && file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .sort(([a], [b]) => compareText(a, b)),
  );
  const marker = files.get(markerPath);
  const listed = marker === undefined ? null : (JSON.parse(marker) as { files?: unknown }).files;
  const previouslyGenerated =
    marker === undefined ? null : Array.isArray(listed) ? listed.filter((f): f is string => typeof f === 'string') : [];
  return { handlers, previouslyGenerated };
}

/**
 * A project held in a Map (relative path -> text). `generate` runs the in-process pipeline and the
 * writer's own planning against the map, then applies the planned actions to it; the manifest,
 * the pipeline's input, is the only file (written under `scratch`).
 */
export function memoryProject(
  scratch: string,
  version: string,
): PropertyProject & { readonly files: ReadonlyMap<string, string> } {
  const files = new Map<string, string>();
  mkdirSync(scratch, { recursive: true });
  return {
    files,
    async generate(manifest) {
      writeFileSync(path.join(scratch, 'mcp.yaml'), manifest);
      const options = resolveOptions({ manifest: 'mcp.yaml' }, scratch);
      const existing = existingIn(files);
      const result = await buildProject(options, version, existing, scratch);
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) return formatReport(errors);
      for (const action of planActions(options.outDir, result.files, existing.previouslyGenerated ?? [], bannerMark, {
        readFile: (relative) => files.get(relative),
      })) {
        if (action.kind === 'remove') files.delete(action.path);
        if (action.kind === 'move' && action.from !== undefined) files.delete(action.from);
        if (
          (action.kind === 'create' || action.kind === 'update' || action.kind === 'move') &&
          action.contents !== undefined
        )
          files.set(action.path, joinText(action.contents));
      }
      return '';
    },
    handlers: () =>
      new Map(
        [...files]
          .filter(([file]) => file.startsWith(toolsFolder))
          .map(([file, text]): [string, string] => [file.slice(toolsFolder.length), text])
          .sort(([a], [b]) => compareText(a, b)),
      ),
    editHandler: (name, text) => void files.set(`${toolsFolder}${name}`, text),
  };
}

/** The in-memory property over seeds `first` to `last`, one test per seed (test/unit/property*.test.ts). */
export function describeSeeds(first: number, last: number): void {
  describe('regeneration never loses a user-written byte (property, in memory)', () => {
    const scratch = path.join(repoRoot, '.test-out', `property-memory-${first}`);
    for (let seed = first; seed <= last; seed++) {
      it(`seed ${seed}`, () => runEditSequence(seed, memoryProject(scratch, '0.1.0')));
    }
  });
}
