import type { ServerModel } from '../../model/types.js';
import type { HandlerPlan } from '../../plan/index.js';
import { facadeImport } from '../facade/index.js';
import { commentSafe } from '../shared/banner.js';
import type { GeneratedFile } from '../shared/files.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';

const parameters = {
  ToolHandler: '(input, ctx)',
  ResourceHandler: '(uri, variables, ctx)',
  PromptHandler: '(args, ctx)',
} as const;

function describe(model: ServerModel, plan: HandlerPlan): string {
  const item =
    plan.kind === 'tool'
      ? model.tools.find((t) => t.name === plan.name)
      : plan.kind === 'resource'
        ? model.resources.find((r) => r.name === plan.name)
        : model.prompts.find((p) => p.name === plan.name);
  const lines = [`Handler of ${plan.kind} "${plan.name}".`];
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
  const body = [
    '// Your code goes here: mcp-gen never overwrites this file.',
    ...hints(model, plan),
    `throw notImplemented('${plan.kind}', '${plan.name}');`,
  ];
  const text = moduleText(
    // Handlers import only from the facade, never from a runtime file.
    [importDeclaration(['notImplemented', `type ${plan.handlerType}`], facadeImport)],
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
