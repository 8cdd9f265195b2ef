/**
 * Emits `src/generated/server.gen.ts`: names every handler, checks it against
 * the generated handler types, and wraps every schema once, at module scope.
 * Handlers are imported on their first call (`lazyHandler`), so starting the
 * server loads no handler code. The SDK's HTTP entry builds a server per
 * request, so nothing that compiles a schema may run inside the factory.
 */
import { generatedPaths, moduleSpecifier, runtimePath, scaffoldPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import type { HandlerPlan } from '../../plan/index.js';
import { moduleSlots, runtimeFeatures } from '../runtime/index.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { key, singleQuoted, toLiteral } from '../shared/literal.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';

/** `{ name: lazyHandler(() => import('...'), (m) => m.symbol), ... }`; paths and exports come from the plan. */
function handlerMap(entries: readonly HandlerPlan[]): string {
  if (entries.length === 0) return '{}';
  const lines = entries.map((e) => {
    // A bound tool's handler is the binding's, generated under the same export name.
    const path = e.action === 'bind' ? generatedPaths.bindings : e.path;
    return (
      `  ${key(e.name)}: lazyHandler(() => ` +
      `import(${singleQuoted(moduleSpecifier(generatedPaths.server, path))}), (m) => m.${e.handler}),`
    );
  });
  return `{\n${lines.join('\n')}\n}`;
}

/**
 * `{ http: () => import('./runtime/http.gen.js'), ... }`: the optional runtime modules this server ships, decided
 * once from the model (runtime/modules.ts); the runtime loads the ones it is given and never computes a specifier.
 */
function moduleMap(model: ServerModel): string {
  const slots = moduleSlots(runtimeFeatures(model));
  if (slots.length === 0) return '{}';
  const lines = slots.map(({ slot, name }) => {
    const specifier = moduleSpecifier(generatedPaths.server, runtimePath(`runtime/${name}.gen.ts`));
    return `  ${key(slot)}: () => import(${singleQuoted(specifier)}),`;
  });
  return `{\n${lines.join('\n')}\n}`;
}

/** `src/generated/server.gen.ts`. */
export function emitServer(model: ServerModel, handlers: readonly HandlerPlan[], ctx: EmitContext): GeneratedFile {
  const of = (kind: HandlerPlan['kind']) => handlers.filter((h) => h.kind === kind);
  // Bound tools with an output schema check their answer themselves (runtime/upstream.gen.ts).
  const answerChecked = new Set(model.tools.filter((t) => t.output !== null).map((t) => t.name));
  const bound = of('tool')
    .filter((h) => h.action === 'bind' && answerChecked.has(h.name))
    .map((h) => h.name);
  // List and completion handlers are named only where the manifest has them, so other servers stay as they were.
  const extraHandlers = (
    [
      ['resourceLists', 'ResourceListHandlers', 'resource-list', 'The list handlers of `list: handler` resources.'],
      ['resourceCompletions', 'ResourceCompleteHandlers', 'resource-complete', 'The resource completion handlers.'],
      ['promptCompletions', 'PromptCompleteHandlers', 'prompt-complete', 'The prompt completion handlers.'],
    ] as const
  ).filter(([, , kind]) => of(kind).length > 0);
  const constant = (name: string, type: string, initializer: string, doc: string) =>
    documented(doc, `const ${name}: ${type} = ${initializer};`);
  const text = moduleText(
    [
      importDeclaration(['compileSchemas', 'lazyHandler'], './runtime/register.gen.js'),
      importDeclaration(['RuntimeModules', 'ServerDefinition', 'SetupModule'], './runtime/start.gen.js', true),
      importDeclaration(['Lazy'], './runtime/startup.gen.js', true),
      importDeclaration(['registry'], './registry.gen.js'),
      importDeclaration(
        [
          'Config',
          'PromptHandlers',
          'ResourceHandlers',
          'Services',
          'ToolHandlers',
          ...extraHandlers.map(([, type]) => type),
        ].sort(),
        './types.gen.js',
        true,
      ),
      importDeclaration(['validators'], './validators.gen.js'),
    ],
    [
      constant(
        'tools',
        'ToolHandlers',
        handlerMap(of('tool')),
        'The tool handlers; a handler whose signature drifted from the manifest fails to type-check here.',
      ),
      constant('resources', 'ResourceHandlers', handlerMap(of('resource')), 'The resource handlers.'),
      constant(
        'prompts',
        'PromptHandlers',
        handlerMap(of('prompt')),
        'The handlers of prompts without fixed messages.',
      ),
      ...extraHandlers.map(([name, type, kind, doc]) => constant(name, type, handlerMap(of(kind)), doc)),
      constant(
        'modules',
        'RuntimeModules',
        moduleMap(model),
        'The optional runtime modules this server contains, each imported when the server starts with it.',
      ),
      constant(
        'setup',
        'Lazy<SetupModule<Config, Services>>',
        `() => import(${singleQuoted(moduleSpecifier(generatedPaths.server, scaffoldPaths.setup))})`,
        `The start-up and shutdown hooks (${scaffoldPaths.setup}), imported once the configuration has been read.`,
      ),
      documented(
        'This server: registry, handlers, and every schema wrapped once, here at module scope, ' +
          'with its validator compiled to code.',
        `export const definition: ServerDefinition = { registry, schemas: compileSchemas(registry, validators${
          bound.length === 0 ? '' : `, ${toLiteral(bound)}`
        }), ` +
          `handlers: { ${['tools', 'resources', 'prompts', ...extraHandlers.map(([name]) => name)].join(', ')} }, ` +
          'modules, setup };',
      ),
    ],
  );
  return { path: generatedPaths.server, contents: finalText(`${tsBanner(ctx)}\n${text}`), ownership: 'generated' };
}
