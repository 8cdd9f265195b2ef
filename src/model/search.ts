/**
 * The tool-search surface of `discovery: search`: the two tools `tools/list` sends instead of the server's own. The
 * registry carries these exact descriptors (the runtime registers them as written) and the review costs them, so the
 * budget counts what a client receives.
 */
import { isEffectivelyDestructive } from './defaults.js';
import { searchExamples } from './search-examples.js';
import { defaultTools, type WireTool, wireTools } from './toolset.js';
import type { ServerModel } from './types.js';

/** The names of the surface, which no tool of a searching server may take. */
export const searchToolNames = ['call_tool', 'search_tools'] as const;

/** One tool of the surface, as `tools/list` sends it. */
export type SurfaceTool = {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations: Readonly<Record<string, boolean>>;
};

/** How many matches `search_tools` answers without a `limit`, and at most. */
export const searchLimits = { default: 5, max: 20 } as const;

/**
 * `search_tools` and `call_tool`, sorted by name, as `tools/list` sends them. `call_tool`'s hints are the most
 * permissive of the tools it reaches: read-only only when every tool is, destructive when any is.
 */
export function searchSurface(model: ServerModel): SurfaceTool[] {
  const tools = model.tools;
  const every = (test: (hints: ServerModel['tools'][number]['annotations']) => boolean) =>
    tools.every((t) => test(t.annotations));
  const readOnly = every((h) => h.readOnlyHint === true);
  // From the tools a deployment searches without choosing toolsets: a model finds what the examples name.
  const examples = searchExamples(defaultTools(model));
  return [
    {
      name: 'call_tool',
      title: 'Call a tool',
      description:
        "Call one of this server's tools by the name search_tools gave, with its arguments as its input schema " +
        'describes. The tool answers exactly as if called directly: the same validation, approval and errors.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 128, description: "The tool's name." },
          arguments: { type: 'object', description: "The tool's arguments." },
        },
      },
      annotations: {
        readOnlyHint: readOnly,
        ...(readOnly ? {} : { destructiveHint: tools.some((t) => isEffectivelyDestructive(t.annotations)) }),
        idempotentHint: every((h) => h.readOnlyHint === true || h.idempotentHint === true),
        openWorldHint: tools.some((t) => t.annotations.openWorldHint !== false),
      },
    },
    {
      name: 'search_tools',
      title: 'Search tools',
      description:
        "Find this server's tools for a task: describe what you want to do in a few words" +
        (examples.length === 0 ? '' : ` (${examples.map((task) => JSON.stringify(task)).join(', ')})`) +
        ' and get the best matches, best first, each with its name, description, input schema and hints. Then call ' +
        'one with call_tool.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['query'],
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500, description: 'What you want to do.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: searchLimits.max,
            default: searchLimits.default,
            description: 'How many tools to return.',
          },
        },
      },
      outputSchema: {
        type: 'object',
        required: ['tools'],
        properties: { tools: { type: 'array', items: { type: 'object' } } },
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  ];
}

/** What `tools/list` sends: the search surface with `discovery: search`, else every tool (what verify compares). */
export const listedTools = (model: ServerModel): WireTool[] =>
  model.discovery === 'search' ? searchSurface(model) : wireTools(model);
