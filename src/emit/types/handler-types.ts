import { scaffoldPaths } from '../../model/layout.js';
import type { ConfigVarModel, ServerModel } from '../../model/types.js';
import { commentSafe } from '../shared/banner.js';
import { key } from '../shared/literal.js';
import { docComment, documented } from '../shared/ts-text.js';

interface Property {
  readonly name: string;
  readonly type: string;
  readonly isReadonly?: boolean;
}

/** An exported type alias with its doc comment; `generic` declares the one parameter `N extends string`. */
function alias(name: string, type: string, doc: string, generic = false): string {
  return documented(doc, `export type ${name}${generic ? '<N extends string>' : ''} = ${type};`);
}

/** An object type with one member per line; `{}` without members. */
function objectType(properties: readonly Property[]): string {
  if (properties.length === 0) return '{}';
  const lines = properties.map((p) => `  ${p.isReadonly === true ? 'readonly ' : ''}${p.name}: ${p.type};`);
  return `{\n${lines.join('\n')}\n}`;
}

/** `{ a: A; b: B; }` as one line, for the entries of the name -> types maps. */
function inlineObject(members: readonly (readonly [string, string])[]): string {
  return `{ ${members.map(([key, type]) => `${key}: ${type};`).join(' ')} }`;
}

const configTypes: Readonly<Record<ConfigVarModel['type'], string>> = {
  string: 'string',
  url: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
};

/** `{ readonly NAME: type; ... }`, each with its description; `undefined` for an optional one without default. */
function configType(model: ServerModel): string {
  if (model.config.length === 0) return '{}';
  const members = model.config.map((v) => {
    const type = configTypes[v.type] + (v.required || v.default !== null ? '' : ' | undefined');
    return `${docComment(commentSafe(v.description), '  ')}\n  readonly ${v.name}: ${type};`;
  });
  return `{\n${members.join('\n')}\n}`;
}

/** The configuration and services types: what `setup` receives and what it returns, as every handler sees it. */
export function lifecycleTypeStatements(model: ServerModel): string[] {
  return [
    alias(
      'Config',
      configType(model),
      `The manifest's \`config\`, read from the environment and checked at start: ` +
        `what \`setup\` in ${scaffoldPaths.setup} gets.`,
    ),
    alias(
      'Services',
      'Awaited<ReturnType<typeof setup>>',
      `What \`setup\` in ${scaffoldPaths.setup} returns: every handler's \`ctx.services\`.`,
    ),
    alias(
      'ReadyChecks',
      'Readonly<Record<string, ReadyCheck<Services>>>',
      `Readiness checks by name, as ${scaffoldPaths.setup} may export them (\`export const ready: ReadyChecks\`): ` +
        '`/readyz` runs each with the services and answers 503 while one fails.',
    ),
  ];
}

/**
 * The maps from manifest names to types, and the handler types built on them:
 * `ToolHandler<'search_notes'>` is `(input, ctx) => Promise<output>`. A name
 * that is no longer in the manifest (an orphaned handler file) still compiles,
 * with an input of type `never`, so removing a tool never breaks the build;
 * the server simply no longer registers it.
 */
export function handlerTypeStatements(model: ServerModel, bound: ReadonlySet<string> = new Set()): string[] {
  const issuers: Property[] = model.handles.map((h) => ({
    name: h.name,
    isReadonly: true,
    type: `HandleIssuer<${h.typeName}>`,
  }));
  // Tool, resource and prompt names may be `get-sum` or `v2.search`: quoted where they are no identifier.
  // A tool its binding serves has no named types (emitTypes): its entry says only what the binding takes.
  const tools: Property[] = model.tools.map((t) => ({
    name: key(t.name),
    type: bound.has(t.name)
      ? 'BoundTool'
      : inlineObject([
          ['input', t.names.inputType],
          ['output', t.names.outputType],
        ]),
  }));
  const resources: Property[] = model.resources.map((r) => ({
    name: key(r.name),
    type: inlineObject([['variables', r.names.argsType]]),
  }));
  const prompts: Property[] = model.prompts
    .filter((p) => p.messages === null)
    .map((p) => ({ name: key(p.name), type: inlineObject([['args', p.names.argsType]]) }));
  const [first] = model.handles;
  const issuersDoc =
    first === undefined
      ? 'The manifest declares no handle kinds, so `ctx.handles` is empty.'
      : `Issuers for every handle kind (${model.handles.map((h) => `\`${h.name}\``).join(', ')}): ` +
        `\`ctx.handles.${first.name}.issue(id)\` mints a handle bound to the caller.`;
  return [
    alias('HandleIssuers', objectType(issuers), issuersDoc),
    alias('ToolContext', 'HandlerContext<HandleIssuers, Services>', 'The context every handler receives.'),
    ...(bound.size === 0
      ? []
      : [
          alias(
            'BoundTool',
            '{ input: Readonly<Record<string, unknown>>; output: unknown }',
            'A tool its `http:` binding serves: its types are compiled once a handler file is written for it.',
          ),
        ]),
    alias('ToolTypes', objectType(tools), 'Input and output type of every tool, by name.'),
    alias('ToolName', 'keyof ToolTypes', 'Every tool name.'),
    alias(
      'ToolHandler',
      "N extends ToolName ? (input: ToolTypes[N]['input'], ctx: ToolContext) => " +
        "Promise<ToolTypes[N]['output'] | ToolSdkResult> : (input: never, ctx: ToolContext) => Promise<unknown>",
      'The signature of the handler of tool `N`; `sdkResult(...)` returns an SDK result as-is (e.g. `inputRequired`).',
      true,
    ),
    alias('ToolHandlers', '{ readonly [N in ToolName]: ToolHandler<N> }', 'One handler per tool.'),
    alias('ResourceTypes', objectType(resources), 'URI template variables of every resource, by name.'),
    alias('ResourceName', 'keyof ResourceTypes', 'Every resource name.'),
    alias(
      'ResourceHandler',
      "N extends ResourceName ? (uri: URL, variables: ResourceTypes[N]['variables'], ctx: ToolContext) => " +
        'Promise<ResourceReply> : (uri: URL, variables: never, ctx: ToolContext) => Promise<ResourceReply>',
      'The signature of the handler of resource `N`.',
      true,
    ),
    alias('ResourceHandlers', '{ readonly [N in ResourceName]: ResourceHandler<N> }', 'One handler per resource.'),
    alias(
      'PromptTypes',
      objectType(prompts),
      'Arguments of every prompt that has a handler (prompts without fixed messages), by name.',
    ),
    alias('PromptName', 'keyof PromptTypes', 'Every prompt name that has a handler.'),
    alias(
      'PromptHandler',
      "N extends PromptName ? (args: PromptTypes[N]['args'], ctx: ToolContext) => " +
        'Promise<PromptReply> : (args: never, ctx: ToolContext) => Promise<PromptReply>',
      'The signature of the handler of prompt `N`.',
      true,
    ),
    alias(
      'PromptHandlers',
      '{ readonly [N in PromptName]: PromptHandler<N> }',
      'One handler per prompt without fixed messages.',
    ),
  ];
}
