import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
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

/** Every module a file depends on, type-only and dynamic imports included, as paths relative to src/. */
function localDependencies(file: { rel: string; text: string }): string[] {
  const specifiers = [...file.text.matchAll(/(?:^(?:import|export)[^'"]*?from\s*|\bimport\()'(\.[^']+)'/gm)].map(
    (m) => m[1] ?? '',
  );
  return specifiers.map((s) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file.rel), s)).replace(/\.js$/, '.ts'),
  );
}

/** The import cycles among `files`, each as the list of modules around it (depth-first search). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Text of every string and template literal in a source file, comments excluded. */
function stringLiterals(file: { rel: string; text: string }): { text: string; line: number; node: ts.Node }[] {
  const source = ts.createSourceFile(file.rel, file.text, ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number; node: ts.Node }[] = [];
  const walk = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, node });
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return out;
}

// Where output paths are decided; everything else asks it.
const layoutModule = 'model/layout.ts';

/** A literal that spells a path of a generated project: under src/ or test/, the marker, or the report. */
function looksLikeOutputPath(text: string): boolean {
  return /^(src|test)\//.test(text) || /(^|\/)(\.mcp-gen|DESIGN\.(md|json))$/.test(text);
}

// The dependency rules of the style guide, enforced: who may read the disk, who may import which library.
describe('architecture rules', () => {
  it('only load/ (parsing) and import/ (drafts through the document API) import yaml', () => {
    expect(
      files
        .filter((f) => importsOf(f.text).includes('yaml') && !f.rel.startsWith('load/') && !f.rel.startsWith('import/'))
        .map((f) => f.rel),
    ).toEqual([]);
  });

  it('only live/ starts processes or opens connections (the MCP client, child processes, sockets)', () => {
    const network = [
      '@modelcontextprotocol/client',
      '@modelcontextprotocol/client/stdio',
      'node:child_process',
      'node:net',
      'node:http',
      'node:https',
    ];
    // load/baseline.ts runs `git show` to read a baseline manifest: a disk read through git, no network.
    // write/pack.ts runs `npm pack` so that init can place mcp-gen's tarball in a new project: a disk write.
    const allowed = new Set(['load/baseline.ts', 'write/pack.ts']);
    const offenders = files.filter(
      (f) => importsOf(f.text).some((i) => network.includes(i)) && !f.rel.startsWith('live/') && !allowed.has(f.rel),
    );
    expect(offenders.map((f) => f.rel)).toEqual([]);
  });

  it('import/ and verify/ stay pure: no disk, no network, only model, util, diagnostics and live types', () => {
    const offenders: string[] = [];
    for (const f of files.filter((x) => x.rel.startsWith('import/') || x.rel.startsWith('verify/'))) {
      for (const spec of importsOf(f.text)) {
        if (spec === 'node:fs' || spec === 'node:fs/promises' || spec.startsWith('@modelcontextprotocol/'))
          offenders.push(`${f.rel} -> ${spec}`);
        if (!spec.startsWith('.')) continue;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(f.rel), spec)).split('/')[0] ?? '';
        const own = f.rel.split('/')[0];
        if (target !== own && !['model', 'util', 'diagnostics', 'live', 'emit'].includes(target))
          offenders.push(`${f.rel} -> ${spec}`);
        if (target === 'live' && !/^import type /m.test(f.text.split('\n').find((line) => line.includes(spec)) ?? ''))
          offenders.push(`${f.rel} -> ${spec} (types only)`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('only load/ reads manifests from disk; only write/ changes it (and cache/ its own files)', () => {
    const touches = ['load/', 'write/', 'cache/'];
    const offenders = files.filter((f) => {
      const usesFs = importsOf(f.text).some((i) => i === 'node:fs' || i === 'node:fs/promises');
      return usesFs && !touches.some((t) => f.rel.startsWith(t)) && f.rel !== 'cli/version.ts';
    });
    expect(offenders.map((f) => f.rel)).toEqual([]);
  });

  it('no stage knows a cache: no import of cache/, no cache field', () => {
    const stages = ['load', 'validate', 'normalize', 'review', 'plan', 'emit', 'write'];
    const offenders: string[] = [];
    for (const f of files.filter((x) => stages.includes(x.rel.split('/')[0] ?? ''))) {
      for (const spec of importsOf(f.text).filter((i) => i.startsWith('.')))
        if (path.posix.normalize(path.posix.join(path.posix.dirname(f.rel), spec)).startsWith('cache/'))
          offenders.push(`${f.rel} -> ${spec}`);
      // The model's `cache` block (list freshness, `ttlMs`/`cacheScope`) is data of the manifest, not a run cache.
      for (const match of f.text.matchAll(/^\s*(?:readonly\s+)?(cached\w*|cacheable\w*|handlerChecks)\??:/gm))
        offenders.push(`${f.rel}: ${match[1]}`);
      for (const match of f.text.matchAll(/\b(PipelineCache|RunCache|ParseCache)\b/g))
        offenders.push(`${f.rel}: ${match[1]}`);
    }
    expect(offenders).toEqual([]);
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

  it('has no import cycles in src/', () => {
    const graph = new Map(files.map((f) => [f.rel, localDependencies(f)]));
    expect(findCycles(graph)).toEqual([]);
  });

  it('the cycle check finds a cycle, type-only and dynamic imports included', () => {
    const graph = new Map(
      [
        { rel: 'a/index.ts', text: "import type { B } from '../b/b.js';\n" },
        { rel: 'b/b.ts', text: "const c = () => import('./c.js');\n" },
        { rel: 'b/c.ts', text: "export { A } from '../a/index.js';\n" },
      ].map((f) => [f.rel, localDependencies(f)]),
    );
    expect(findCycles(graph)).toEqual(['a/index.ts -> b/b.ts -> b/c.ts -> a/index.ts']);
  });

  it('takes every output path from the layout module', () => {
    const offenders: string[] = [];
    for (const f of files.filter((file) => file.rel !== layoutModule)) {
      for (const literal of stringLiterals(f)) {
        // An emitted file's path is never written out where the file is built.
        const isFilePath =
          ts.isPropertyAssignment(literal.node.parent) &&
          literal.node.parent.name.getText() === 'path' &&
          literal.node.parent.initializer === literal.node;
        const inTemplate =
          ts.isTemplateHead(literal.node) &&
          ts.isPropertyAssignment(literal.node.parent.parent) &&
          literal.node.parent.parent.name.getText() === 'path';
        if (looksLikeOutputPath(literal.text) || (f.rel.startsWith('emit/') && (isFilePath || inTemplate)))
          offenders.push(`${f.rel}:${literal.line} ${JSON.stringify(literal.text)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the output-path check sees paths in strings, templates and file objects, not in comments', () => {
    const sample = {
      rel: 'emit/sample.ts',
      text:
        "// src/generated/x.ts is fine in a comment\nconst a = 'src/generated/x.ts';\n" +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: sample source text with template literals
        "const b = `${dir}/DESIGN.md`;\nconst c = { path: 'x.gen.ts', contents: '' " +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: sample source text with template literals
        '};\nconst d = { path: `${dir}/y.gen.ts` };\n',
    };
    const found = stringLiterals(sample).filter(
      (l) =>
        looksLikeOutputPath(l.text) ||
        (ts.isPropertyAssignment(l.node.parent) && l.node.parent.name.getText() === 'path') ||
        (ts.isTemplateHead(l.node) && ts.isPropertyAssignment(l.node.parent.parent)),
    );
    expect(found.map((l) => l.line)).toEqual([2, 3, 4, 5]);
  });

  it('never sorts with localeCompare', () => {
    expect(files.filter((f) => f.text.includes('.localeCompare(')).map((f) => f.rel)).toEqual([]);
  });

  it('keeps files small (under 300 lines)', () => {
    // Data tables, not logic: splitting them would only scatter one list over several files.
    const exempt = new Map([
      ['validate/manifest-schema.ts', 'the manifest JSON Schema as one object'],
      ['diagnostics/codes.ts', 'the diagnostic catalog, one entry per code'],
      ['model/manifest.gen.ts', "generated from the manifest schema by npm run docs, with every key's description"],
    ]);
    expect(files.filter((f) => f.text.split('\n').length > 300 && !exempt.has(f.rel)).map((f) => f.rel)).toEqual([]);
  });
});
