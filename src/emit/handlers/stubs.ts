import type { ServerModel } from '../../model/types.js';
import type { HandlerPlan } from '../../plan/index.js';
import { generatedPaths, moduleSpecifier } from '../../model/layout.js';
import { commentSafe } from '../shared/banner.js';
import type { GeneratedFile } from '../shared/files.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';

const parameters = {
  ToolHandler: '(input, ctx)',
  ResourceHandler: '(uri, variables, ctx)',
  PromptHandler: '(args, ctx)',
  ResourceListHandler: '({ cursor, pageSize }, ctx)',
  ResourceCompleteHandler: '({ argument, value, context }, ctx)',
  PromptCompleteHandler: '({ argument, value, context }, ctx)',
} as const;

/** What a fresh stub of a list or completion handler returns. */
const empty: Partial<Record<HandlerPlan['handlerType'], string>> = {
  ResourceListHandler: 'return { resources: [] }; // e.g. [{ uri: ..., name: ... }], and nextCursor for more',
  ResourceCompleteHandler: 'return []; // the values for `argument` that start with `value`',
  PromptCompleteHandler: 'return []; // the values for `argument` that start with `value`',
};

/** What the second handlers of a resource or prompt do, for their stub's comment. */
const roles: Partial<Record<HandlerPlan['kind'], string>> = {
  'resource-list': 'List handler of resource',
  'resource-complete': 'Completion handler of resource',
  'prompt-complete': 'Completion handler of prompt',
};

function describe(model: ServerModel, plan: HandlerPlan): string {
  const item =
    plan.kind === 'tool'
      ? model.tools.find((t) => t.name === plan.name)
      : plan.kind.startsWith('resource')
        ? model.resources.find((r) => r.name === plan.name)
        : model.prompts.find((p) => p.name === plan.name);
  const lines = [`${roles[plan.kind] ?? `Handler of ${plan.kind}`} "${plan.name}".`];
  if (item?.title) lines.push('', commentSafe(item.title));
  if (item?.description) lines.push('', commentSafe(item.description));
  return lines.join('\n');
}

/**
 * The argument path of a handle at `pointer` in an input schema: `/properties/draft`
 * -> `input.draft`, `/properties/loans/items` -> `input.loans[i]`.
 */
function argumentPath(pointer: string): string | null {
  const match = /^\/properties\/([A-Za-z_$][\w$]*)(\/items)?$/.exec(pointer);
  return match === null ? null : `input.${match[1]}${match[2] === undefined ? '' : '[i]'}`;
}

/** Comments that show what matters for this handler: the handles it mints or reads, and approval. */
function hints(model: ServerModel, plan: HandlerPlan): string[] {
  const tool = plan.kind === 'tool' ? model.tools.find((t) => t.name === plan.name) : undefined;
  if (tool === undefined) return [];
  const lines: string[] = [];
  for (const use of tool.consumes) {
    const path = argumentPath(use.pointer);
    lines.push(
      `// ${path ?? `The handle at ${use.pointer}`} arrives verified (a "${use.kind}" ` +
        `handle issued to this caller): read its id as ${path ?? '<that value>'}.id`,
    );
  }
  for (const kind of [...new Set(tool.issues.map((u) => u.kind))])
    lines.push(`// Mint the "${kind}" handle this tool returns: ctx.handles.${kind}.issue(id)`);
  if (tool.approval === 'confirm')
    lines.push(
      '// approval: confirm: the runtime asks the user before this handler runs; when it runs, the user said yes.',
    );
  return lines;
}

/** A new handler file: typed against the generated types, answering "not implemented yet" until written. */
export function emitStub(model: ServerModel, plan: HandlerPlan): GeneratedFile {
  const type = `${plan.handlerType}<${JSON.stringify(plan.name).replace(/"/g, "'")}>`;
  // A list or completion stub answers nothing rather than failing: resources/list and completion/complete keep
  // working (the fixed resources, the other arguments) until it is written.
  const answer = empty[plan.handlerType];
  const body = [
    '// Your code goes here: mcp-gen never overwrites this file.',
    ...hints(model, plan),
    answer ?? `throw notImplemented('${plan.kind}', '${plan.name}');`,
  ];
  const text = moduleText(
    // Handlers import only from the facade, never from a runtime file.
    [
      importDeclaration(
        [...(answer === undefined ? ['notImplemented'] : []), `type ${plan.handlerType}`],
        moduleSpecifier(plan.path, generatedPaths.facade),
      ),
    ],
    [
      documented(
        describe(model, plan),
        `export const ${plan.handler}: ${type} = async ${parameters[plan.handlerType]} => {\n` +
          `${body.map((line) => `  ${line}`).join('\n')}\n};`,
      ),
    ],
  );
  return { path: plan.path, contents: finalText(text), ownership: 'scaffold' };
}
