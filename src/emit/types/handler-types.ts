import { StructureKind, type StatementStructures } from 'ts-morph';
import type { ServerModel } from '../../model/types.js';

/**
 * The maps from manifest names to types, and the handler types built on them:
 * `ToolHandler<'search_notes'>` is `(input, ctx) => Promise<output>`. A name
 * that is no longer in the manifest (an orphaned handler file) still compiles,
 * with an input of type `never`, so removing a tool never breaks the build;
 * the server simply no longer registers it.
 */
export function handlerTypeStatements(model: ServerModel): StatementStructures[] {
  const withHandlers = model.prompts.filter((p) => p.messages === null);
  const issuers = model.handles.map((h) => `readonly ${h.name}: HandleIssuer<${h.typeName}>;`);
  const tools = model.tools.map((t) => `${t.name}: { input: ${t.names.inputType}; output: ${t.names.outputType} };`);
  const resources = model.resources.map((r) => `${r.name}: { variables: ${r.names.argsType} };`);
  const prompts = withHandlers.map((p) => `${p.name}: { args: ${p.names.argsType} };`);
  const block = (lines: string[]) => (lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n}`);
  const alias = (declared: string, type: string, doc: string): StatementStructures => {
    // `Name<N extends string>` declares one type parameter.
    const [name = declared, parameter] = declared.replace('>', '').split('<');
    const typeParameters = parameter === undefined ? [] : [{ name: parameter.split(' ')[0] ?? 'N', constraint: 'string' }];
    return { kind: StructureKind.TypeAlias, isExported: true, name, typeParameters, type, docs: [doc] };
  };
  const [first] = model.handles;
  const issuersDoc =
    first === undefined
      ? 'The manifest declares no handle kinds, so `ctx.handles` is empty.'
      : `Issuers for every handle kind (${model.handles.map((h) => `\`${h.name}\``).join(', ')}): \`ctx.handles.${first.name}.issue(id)\` mints a handle bound to the caller.`;
  return [
    alias('HandleIssuers', block(issuers), issuersDoc),
    alias('ToolContext', 'HandlerContext<HandleIssuers>', 'The context every handler receives.'),
    alias('ToolTypes', block(tools), 'Input and output type of every tool, by name.'),
    alias('ToolName', 'keyof ToolTypes', 'Every tool name.'),
    alias(
      'ToolHandler<N extends string>',
      "N extends ToolName ? (input: ToolTypes[N]['input'], ctx: ToolContext) => Promise<ToolTypes[N]['output'] | ToolSdkResult> : (input: never, ctx: ToolContext) => Promise<unknown>",
      'The signature of the handler of tool `N`; `sdkResult(...)` returns an SDK result as-is (e.g. `inputRequired`).',
    ),
    alias('ToolHandlers', '{ readonly [N in ToolName]: ToolHandler<N> }', 'One handler per tool.'),
    alias('ResourceTypes', block(resources), 'URI template variables of every resource, by name.'),
    alias('ResourceName', 'keyof ResourceTypes', 'Every resource name.'),
    alias(
      'ResourceHandler<N extends string>',
      "N extends ResourceName ? (uri: URL, variables: ResourceTypes[N]['variables'], ctx: ToolContext) => Promise<ResourceReply> : (uri: URL, variables: never, ctx: ToolContext) => Promise<ResourceReply>",
      'The signature of the handler of resource `N`.',
    ),
    alias('ResourceHandlers', '{ readonly [N in ResourceName]: ResourceHandler<N> }', 'One handler per resource.'),
    alias('PromptTypes', block(prompts), 'Arguments of every prompt that has a handler (prompts without fixed messages), by name.'),
    alias('PromptName', 'keyof PromptTypes', 'Every prompt name that has a handler.'),
    alias(
      'PromptHandler<N extends string>',
      "N extends PromptName ? (args: PromptTypes[N]['args'], ctx: ToolContext) => Promise<PromptReply> : (args: never, ctx: ToolContext) => Promise<PromptReply>",
      'The signature of the handler of prompt `N`.',
    ),
    alias('PromptHandlers', '{ readonly [N in PromptName]: PromptHandler<N> }', 'One handler per prompt without fixed messages.'),
  ];
}
