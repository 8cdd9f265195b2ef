/**
 * plan: decides which files this run produces and what happens to each
 * existing handler file: created, kept, renamed (`renamedFrom`), or reported
 * as orphaned. Cross-file questions are answered here, once.
 * In: the model and what exists on disk (as loaded). Out: a Plan. Pure.
 */
import type { Finding } from '../diagnostics/index.js';
import { handlerPath } from '../model/layout.js';
import { camelCase, handlerExport } from '../model/naming.js';
import type { ServerModel } from '../model/types.js';
import { compareText } from '../util/compare.js';

/** What happens to one handler file. */
export interface HandlerPlan {
  /** `resource-list`, `resource-complete`, `prompt-complete`: a resource's or prompt's second handler. */
  readonly kind: 'tool' | 'resource' | 'prompt' | 'resource-list' | 'resource-complete' | 'prompt-complete';
  readonly name: string;
  readonly path: string;
  /**
   * The exported constant the generated server imports: `<camelCase>Handler`, or the name files written
   * before that convention export (`<camelCase>`) when an existing file uses only that one.
   */
  readonly handler: string;
  /** The handler type, e.g. `ToolHandler`. */
  readonly handlerType:
    | 'ToolHandler'
    | 'ResourceHandler'
    | 'PromptHandler'
    | 'ResourceListHandler'
    | 'ResourceCompleteHandler'
    | 'PromptCompleteHandler';
  /** `bind`: no handler file, the tool's `http:` binding (src/generated/bindings.gen.ts) is its handler. */
  readonly action: 'create' | 'keep' | 'rename' | 'bind';
  /** For a rename: the old name, its file and its exported constant. */
  readonly from?: { readonly name: string; readonly path: string; readonly handler: string };
}

/** The plan of one generate run. */
export interface Plan {
  readonly handlers: readonly HandlerPlan[];
  /** Existing handler files that no manifest entry owns any more. */
  readonly orphans: readonly string[];
  readonly findings: readonly Finding[];
}

/** Whether `text` mentions `identifier` as a whole word (a cheap test: the handler check parses the file). */
function mentions(text: string, identifier: string): boolean {
  return new RegExp(`(?<![\\w$])${identifier.replace(/\$/g, '\\$')}(?![\\w$])`).test(text);
}

/**
 * The export an existing handler file uses: the current name when the file mentions it, else the name of
 * the earlier convention when the file mentions that one, else the current name (the check then reports it).
 */
export function existingExport(text: string | undefined, name: string): string {
  const current = handlerExport(name);
  if (text === undefined || mentions(text, current)) return current;
  const legacy = camelCase(name);
  return mentions(text, legacy) ? legacy : current;
}

/** Plans handler files against what exists; generated files need no planning beyond their fixed paths. */
export function planProject(model: ServerModel, existing: ReadonlyMap<string, string>): Plan {
  const handlers: HandlerPlan[] = [];
  const claimed = new Set<string>();
  for (const tool of model.tools) {
    const base = {
      kind: 'tool' as const,
      name: tool.name,
      path: tool.names.file,
      handler: tool.names.handler,
      handlerType: 'ToolHandler' as const,
    };
    const oldPath = tool.renamedFrom === null ? null : handlerPath('tool', tool.renamedFrom);
    if (existing.has(base.path)) {
      handlers.push({ ...base, handler: existingExport(existing.get(base.path), tool.name), action: 'keep' });
    } else if (oldPath !== null && tool.renamedFrom !== null && existing.has(oldPath)) {
      claimed.add(oldPath);
      handlers.push({
        ...base,
        action: 'rename',
        from: {
          name: tool.renamedFrom,
          path: oldPath,
          handler: existingExport(existing.get(oldPath), tool.renamedFrom),
        },
      });
    } else {
      // A bound tool needs no file: writing one (it keeps then) overrides the binding.
      handlers.push({ ...base, action: tool.http !== null && model.upstream !== null ? 'bind' : 'create' });
    }
    claimed.add(base.path);
  }
  for (const resource of model.resources) {
    const path = resource.names.file;
    const handler = existingExport(existing.get(path), resource.name);
    handlers.push({
      kind: 'resource',
      name: resource.name,
      path,
      handler,
      handlerType: 'ResourceHandler',
      action: existing.has(path) ? 'keep' : 'create',
    });
    claimed.add(path);
  }
  for (const prompt of model.prompts.filter((p) => p.messages === null)) {
    const path = prompt.names.file;
    const handler = existingExport(existing.get(path), prompt.name);
    handlers.push({
      kind: 'prompt',
      name: prompt.name,
      path,
      handler,
      handlerType: 'PromptHandler',
      action: existing.has(path) ? 'keep' : 'create',
    });
    claimed.add(path);
  }
  // Lists and completions from handlers: one more file per resource or prompt, kept once written.
  const extras = [
    ...model.resources.map((r) => ['resource-list', 'ResourceListHandler', r.name, r.list] as const),
    ...model.resources.map((r) => ['resource-complete', 'ResourceCompleteHandler', r.name, r.complete] as const),
    ...model.prompts.map((p) => ['prompt-complete', 'PromptCompleteHandler', p.name, p.complete] as const),
  ];
  for (const [kind, handlerType, name, names] of extras) {
    if (names === null) continue;
    const action = existing.has(names.file) ? 'keep' : 'create';
    handlers.push({ kind, name, path: names.file, handler: names.handler, handlerType, action });
    claimed.add(names.file);
  }
  const orphans = [...existing.keys()].filter((path) => !claimed.has(path)).sort(compareText);
  // A tool that already names the file's tool in renamedFrom, but has a handler file of its own: nothing moves.
  const renamedTo = new Map(
    model.tools.flatMap((tool) => (tool.renamedFrom === null ? [] : [[handlerPath('tool', tool.renamedFrom), tool]])),
  );
  const findings: Finding[] = orphans.map((path) => {
    const heir = renamedTo.get(path);
    return {
      code: 'handler-orphaned',
      message:
        `handler file "${path}" belongs to no tool, resource or ` +
        'prompt in the manifest; it is kept but no longer registered',
      hint:
        heir === undefined
          ? 'delete it, or add "renamedFrom: <old name>" to the tool that replaces it'
          : `tool "${heir.name}" renames it but has its own file, ${heir.names.file}: move what you need there, then ` +
            'delete this one',
      at: { projectFile: path, line: 1, col: 1 },
    };
  });
  return { handlers, orphans, findings };
}
