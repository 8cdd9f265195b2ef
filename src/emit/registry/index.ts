/**
 * Emits the sorted registry twice: `registry.gen.ts` for the server (keys in
 * the runtime's fixed order) and `registry.gen.json` for other tools (keys
 * sorted). Both come from the same data, so they cannot disagree.
 */
import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import { generatedPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { stableJson } from '../../util/stable-json.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { toLiteral } from '../shared/literal.js';
import { createProject, finalText, formatSourceFile } from '../shared/project.js';
import { registryData } from './data.js';

export { registryData } from './data.js';

/** `src/generated/registry.gen.ts` and `src/generated/registry.gen.json`. */
export function emitRegistry(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const data = registryData(model);
  const file = createProject().createSourceFile('registry.gen.ts', {
    statements: [
      { kind: StructureKind.ImportDeclaration, isTypeOnly: true, namedImports: ['RegistrySpec'], moduleSpecifier: './runtime/spec.gen.js' },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['Everything this server offers, sorted by name. Written from the manifest; read by the runtime.'],
        declarations: [{ name: 'registry', type: 'RegistrySpec', initializer: (writer) => writer.write(toLiteral(data)) }],
      },
    ],
  });
  return [
    { path: generatedPaths.registry, contents: finalText(`${tsBanner(ctx)}\n${formatSourceFile(file)}`), ownership: 'generated' },
    { path: generatedPaths.registryJson, contents: stableJson(data), ownership: 'generated' },
  ];
}
