import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type Node, Project, SyntaxKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { facadeExports, runtimeModuleTable } from '../../src/emit/runtime/modules.js';
import { compareText } from '../../src/util/compare.js';
import { repoRoot } from '../support/paths.js';

// The module table (src/emit/runtime/modules.ts) is the generator's only knowledge of the runtime. Here it is
// held against the templates as the compiler reads them, so a new template, a renamed slot or a new export of a
// handler-facing module fails this test instead of silently missing from a generated server.
const runtimeDir = path.join(repoRoot, 'templates', 'runtime');
const project = new Project({
  tsConfigFilePath: path.join(repoRoot, 'templates', 'tsconfig.json'),
  skipAddingFilesFromTsConfig: true,
});
const source = (name: string) => project.addSourceFileAtPath(path.join(runtimeDir, `${name}.gen.ts`));

/** Whether `node`'s doc comment marks it `@internal`: the runtime's own, never in the facade. */
function isInternal(node: Node): boolean {
  const holder = node.getFirstAncestorByKind(SyntaxKind.VariableStatement) ?? node;
  const docs = 'getJsDocs' in holder ? (holder as unknown as { getJsDocs(): Node[] }).getJsDocs() : [];
  return docs.some((doc) => doc.getText().includes('@internal'));
}

/** Case-insensitive, then byte order: the facade's order (`SdkResult` before `sdkResult`). */
const facadeOrder = (a: string, b: string) => compareText(a.toLowerCase(), b.toLowerCase()) || compareText(a, b);

/** The public exports of runtime module `name`, split into values and types, in the facade's order. */
function publicExports(name: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  for (const [exported, nodes] of source(name).getExportedDeclarations()) {
    const node = nodes[0];
    if (node === undefined || isInternal(node)) continue;
    const isType = node.isKind(SyntaxKind.InterfaceDeclaration) || node.isKind(SyntaxKind.TypeAliasDeclaration);
    (isType ? types : values).push(exported);
  }
  return { values: values.sort(facadeOrder), types: types.sort(facadeOrder) };
}

describe('the runtime module table', () => {
  it('has one row per runtime template', () => {
    const templates = readdirSync(runtimeDir)
      .filter((file) => file.endsWith('.gen.ts'))
      .map((file) => file.slice(0, -'.gen.ts'.length))
      .sort(compareText);
    expect(Object.keys(runtimeModuleTable).sort(compareText)).toEqual(templates);
  });

  it("names exactly RuntimeModules' keys as slots (start.gen.ts and its augmentations)", () => {
    // The modules that load others add their slots by augmenting the interface (`declare module './start.gen.js'`).
    const keys = readdirSync(runtimeDir)
      .filter((file) => file.endsWith('.gen.ts'))
      .flatMap((file) => source(file.slice(0, -'.gen.ts'.length)).getDescendantsOfKind(SyntaxKind.InterfaceDeclaration))
      .filter((declaration) => declaration.getName() === 'RuntimeModules')
      .flatMap((declaration) => declaration.getProperties().map((p) => p.getName()))
      .sort(compareText);
    const slots = Object.values(runtimeModuleTable).flatMap((row) => (row.slot === null ? [] : [row.slot]));
    expect(slots.sort(compareText)).toEqual(keys);
  });

  it('lists every public export of handler.gen.ts and testing.gen.ts, values and types', () => {
    expect(facadeExports('handler')).toEqual(publicExports('handler'));
    // makeTestContext is @internal: the facade types testContext itself.
    expect(facadeExports('testing')).toEqual(publicExports('testing'));
    expect(facadeExports('testing').values).not.toContain('makeTestContext');
  });

  it('lists every type of handles.gen.ts and only types, and of dynamic.gen.ts only types it exports', () => {
    expect(facadeExports('handles')).toEqual({ values: [], types: publicExports('handles').types });
    const dynamic = facadeExports('dynamic');
    expect(dynamic.values).toEqual([]);
    expect(dynamic.types.filter((name) => !publicExports('dynamic').types.includes(name))).toEqual([]);
  });
});
