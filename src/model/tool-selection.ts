/**
 * Which tools a manifest `toolsets:` entry holds, decided once for validate (an empty toolset is an error) and
 * normalize (the model records each tool's toolsets). A tool belongs to a toolset that names it in `tools`, has one
 * of its `tags`, or matches one of its `names` globs (no rule of the three: every tool), and whose hints, after MCP's
 * defaults, equal the toolset's `annotations`.
 */
import { isEffectivelyDestructive } from './defaults.js';

/** Tool hints as a manifest declares them. */
export interface DeclaredHints {
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/** A tool as a toolset rule reads it: from the manifest, before any default is applied. */
export interface SelectableTool {
  readonly name: string;
  readonly tags?: readonly string[] | undefined;
  readonly annotations?: DeclaredHints | undefined;
}

/** One `toolsets:` entry's rules. */
export interface ToolsetRules {
  readonly tools?: readonly string[] | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly names?: readonly string[] | undefined;
  readonly annotations?: DeclaredHints | undefined;
}

/** What a glob may contain: the characters of a tool name, and `*` and `?`. */
const globCharacters = /^[A-Za-z0-9_.*?-]+$/;

/**
 * A name glob as an anchored pattern: `*` any run of characters (none included), `?` exactly one, every other
 * character itself. Null when the glob has a character a tool name cannot (`[`, `{`, `/`, a space...): no richer
 * syntax is supported, so such a glob is a mistake, not a pattern.
 */
export function globPattern(glob: string): RegExp | null {
  if (!globCharacters.test(glob)) return null;
  const body = glob.replace(/[.*?-]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  return new RegExp(`^${body}$`);
}

/** MCP's defaults for every hint a toolset may filter on. */
function effectiveHints(tool: SelectableTool): Readonly<Record<string, boolean>> {
  const declared: DeclaredHints = tool.annotations ?? {};
  return {
    readOnlyHint: declared.readOnlyHint ?? false,
    destructiveHint: isEffectivelyDestructive(declared),
    idempotentHint: declared.idempotentHint ?? false,
    openWorldHint: declared.openWorldHint ?? true,
  };
}

/** The names of the tools `rules` selects, in the order of `tools`. */
export function toolsetMembers(rules: ToolsetRules, tools: readonly SelectableTool[]): string[] {
  const globs = (rules.names ?? []).map(globPattern).filter((g): g is RegExp => g !== null);
  const ruled = rules.tools !== undefined || rules.tags !== undefined || rules.names !== undefined;
  const wanted = Object.entries(rules.annotations ?? {}).filter(([, value]) => value !== undefined);
  return tools
    .filter((tool) => {
      const chosen =
        !ruled ||
        (rules.tools ?? []).includes(tool.name) ||
        (tool.tags ?? []).some((tag) => (rules.tags ?? []).includes(tag)) ||
        globs.some((glob) => glob.test(tool.name));
      const hints = effectiveHints(tool);
      return chosen && wanted.every(([hint, value]) => hints[hint] === value);
    })
    .map((tool) => tool.name);
}
