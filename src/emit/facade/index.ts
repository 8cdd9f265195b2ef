/**
 * Emits `src/generated/index.gen.ts`: the one module handlers import from. It
 * re-exports the generated types and the handler-facing part of the runtime
 * (errors, results, context types, and handle types when the manifest has
 * handle kinds), so that how the runtime is split into files stays private.
 */
import { generatedPaths, moduleSpecifier, runtimePath } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { facadeExports, runtimeFeatures } from '../runtime/index.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';

const handlerTemplate = 'runtime/handler.gen.ts';
const handlesTemplate = 'runtime/handles.gen.ts';
const testingTemplate = 'runtime/testing.gen.ts';
const dynamicTemplate = 'runtime/dynamic.gen.ts';
const fetchTemplate = 'runtime/http-fetch.gen.ts';
const from = (file: string): string => moduleSpecifier(generatedPaths.facade, file);

function reexport(moduleSpecifier: string, values: readonly string[], types: readonly string[]): string {
  // A list of types only is one `export type { ... }`.
  if (values.length === 0) return `export type { ${types.join(', ')} } from '${moduleSpecifier}';`;
  return `export { ${[...values, ...types.map((name) => `type ${name}`)].join(', ')} } from '${moduleSpecifier}';`;
}

/** `src/generated/index.gen.ts`. */
export function emitFacade(model: ServerModel, ctx: EmitContext): GeneratedFile {
  const features = runtimeFeatures(model);
  const handler = facadeExports('handler');
  const handles = features.handles ? facadeExports('handles') : null;
  const testing = facadeExports('testing');
  // The reply types of list and completion handlers; the module ships with resources or prompts.
  const dynamic = features.resources || features.prompts ? facadeExports('dynamic') : null;
  const testingModule = from(runtimePath(testingTemplate));
  const statements = [
    reexport(from(runtimePath(handlerTemplate)), handler.values, handler.types),
    ...(handles === null ? [] : [reexport(from(runtimePath(handlesTemplate)), handles.values, handles.types)]),
    ...(dynamic === null ? [] : [reexport(from(runtimePath(dynamicTemplate)), dynamic.values, dynamic.types)]),
    reexport(testingModule, testing.values, testing.types),
    "export type * from './types.gen.js';",
    // Typed here, where ToolContext is known, so a test needs neither a type argument nor a cast.
    documented(
      'A `ToolContext` for a unit test of one handler (tools, resources and prompts take the same context):\n' +
        'defaults for everything, handles issued by `ctx.handles.<kind>.issue(id)` read back with `readHandle`.',
      'export const testContext = (options: TestContextOptions<ToolContext> = {}): ToolContext =>\n' +
        '  makeTestContext(options);',
    ),
    // For src/main.ts, which starts the server with them and imports nothing else.
    reexport(from(generatedPaths.server), ['definition'], []),
    reexport(from(generatedPaths.start), ['main'], []),
    ...(features.http
      ? [
          documented(
            'The server as a web fetch handler (Streamable HTTP, as `--transport http` serves it): for Cloudflare\n' +
              "Workers and any runtime with the Fetch API. `env`, `context`: a Worker's env and execution\n" +
              'context. The HTTP runtime is imported on the first request, so a stdio start never loads it.',
            'let served: Promise<FetchHandler> | undefined;\n' +
              'export const fetch: FetchHandler = async (request, env, context) => {\n' +
              `  served ??= import('${from(runtimePath(fetchTemplate))}').then((m) => m.serveFetch(definition));\n` +
              '  return (await served)(request, env, context);\n' +
              '};',
          ),
        ]
      : []),
  ];
  const imports = [
    importDeclaration(['makeTestContext', 'type TestContextOptions'], testingModule),
    importDeclaration(['ToolContext'], from(generatedPaths.types), true),
    ...(features.http
      ? [
          importDeclaration(['FetchHandler'], from(runtimePath(fetchTemplate)), true),
          importDeclaration(['definition'], from(generatedPaths.server)),
        ]
      : []),
  ];
  const doc =
    '/**\n * Everything a handler needs: its types, errors, results and context. Import from here,\n' +
    ' * never from ./runtime/ or ./types.gen.js directly: their layout may change between versions.\n */\n';
  return {
    path: generatedPaths.facade,
    contents: finalText(`${tsBanner(ctx)}\n${doc}${moduleText(imports, statements)}`),
    ownership: 'generated',
  };
}
