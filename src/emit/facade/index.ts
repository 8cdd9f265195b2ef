/**
 * Emits `src/generated/index.gen.ts`: the one module handlers import from. It
 * re-exports the generated types and the handler-facing part of the runtime
 * (errors, results, context types, and handle types when the manifest has
 * handle kinds), so that how the runtime is split into files stays private.
 */
import { generatedPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { runtimeFeatures } from '../runtime/index.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { finalText, moduleText } from '../shared/ts-text.js';

/** Where handlers import from, relative to a handler file (src/handlers/<kind>/<name>.ts). */
export const facadeImport = '../../generated/index.gen.js';

function reexport(moduleSpecifier: string, values: readonly string[], types: readonly string[]): string {
  // A list of types only is one `export type { ... }`.
  if (values.length === 0) return `export type { ${types.join(', ')} } from '${moduleSpecifier}';`;
  return `export { ${[...values, ...types.map((name) => `type ${name}`)].join(', ')} } from '${moduleSpecifier}';`;
}

/** `src/generated/index.gen.ts`. */
export function emitFacade(model: ServerModel, ctx: EmitContext): GeneratedFile {
  const features = runtimeFeatures(model);
  const statements = [
    reexport(
      './runtime/handler.gen.js',
      [
        'acceptedContent',
        'inputRequired',
        'inputResponse',
        'isInputRequiredResult',
        'notImplemented',
        'ResourceNotFoundError',
        'SdkResult',
        'sdkResult',
        'ToolError',
      ],
      [
        'AnySdkResult',
        'ErrorKind',
        'HandlerContext',
        'Principal',
        'PromptMessageReply',
        'PromptReply',
        'PromptSdkResult',
        'RequestInput',
        'ResourceContent',
        'ResourceReply',
        'ResourceSdkResult',
        'ToolContent',
        'ToolSdkResult',
      ],
    ),
    ...(features.handles ? [reexport('./runtime/handles.gen.js', [], ['Handle', 'HandleIssuer', 'Verified'])] : []),
    "export type * from './types.gen.js';",
  ];
  const doc =
    '/**\n * Everything a handler needs: its types, errors, results and context. Import from here,\n' +
    ' * never from ./runtime/ or ./types.gen.js directly: their layout may change between versions.\n */\n';
  return {
    path: generatedPaths.facade,
    contents: finalText(`${tsBanner(ctx)}\n${doc}${moduleText([], statements)}`),
    ownership: 'generated',
  };
}
