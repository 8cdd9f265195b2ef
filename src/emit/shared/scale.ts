/**
 * Past this many tool schemas (each tool's input, and its output when it has one) a project is large, as an
 * imported API description makes it (GitHub's: 1,223 tools, 2,153 schemas): a few outputs that programs read,
 * never people, are then written for the programs. Its validators are compiled on first use instead of to
 * code (validators/index.ts), and `registry.gen.json` is written without indentation (registry/index.ts).
 */
export const largeToolSchemas = 500;

/** How many tool schemas `tools` holds: every input, and every output that is not null. */
export function toolSchemaCount(tools: readonly { readonly outputSchema: unknown }[]): number {
  return tools.reduce((n, tool) => n + 1 + (tool.outputSchema === null ? 0 : 1), 0);
}
