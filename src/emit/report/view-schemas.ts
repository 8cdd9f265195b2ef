/**
 * Section 8 of DESIGN.md: each tool's schemas and the findings about them. A shared schema (`schemas:`) is shown
 * once, at the end of the section, and each tool schema that reaches it names it instead of repeating it: the wire
 * schema holds every shared schema it reaches under `$defs`, and on a large API that repeats the same few hundred
 * schemas across every tool, most of the report.
 */
import type { Finding } from '../../diagnostics/index.js';
import type { JsonSchema, ServerModel, ToolModel } from '../../model/types.js';
import { compareText } from '../../util/compare.js';
import { type Memo, noMemo } from '../../util/memo.js';
import { block, code, inline } from '../shared/markdown.js';

type SharedByObject = ReadonlyMap<object, string>;

/** `schema` without the shared schemas under its `$defs` (known by object), and the names of those left out. */
function withoutShared(schema: JsonSchema, shared: SharedByObject): { shown: JsonSchema; reached: string[] } {
  const defs = (schema as Record<string, unknown>).$defs;
  if (shared.size === 0 || defs === null || typeof defs !== 'object' || Array.isArray(defs)) {
    return { shown: schema, reached: [] };
  }
  const own: Record<string, unknown> = {};
  const reached: string[] = [];
  for (const [key, value] of Object.entries(defs)) {
    if (value !== null && typeof value === 'object' && shared.get(value) === key) reached.push(key);
    else own[key] = value;
  }
  if (reached.length === 0) return { shown: schema, reached };
  const { $defs: _, ...rest } = schema as Record<string, unknown>;
  // Keys stay in the wire schema's (canonical) order: `$defs` goes back where it was when any of its own is left.
  const shown = Object.keys(own).length === 0 ? rest : { ...schema, $defs: own };
  return { shown: shown as JsonSchema, reached };
}

/** The lint findings of each tool's input (by tool pointer), in the order of `findings`. */
function inputFindings(model: ServerModel, findings: readonly Finding[]): Map<string, Finding[]> {
  const byPointer = new Map<string, Finding[]>(model.tools.map((t) => [t.pointer, []]));
  for (const f of findings) {
    if (!('pointer' in f.at) || !f.code.startsWith('lint-')) continue;
    const pointer = f.at.pointer;
    // A tool's pointer has no `/input` of its own (its name is one escaped segment), so each `/input` in the
    // finding's pointer is tried as the end of a tool's pointer; each tool is credited once.
    const credited = new Set<Finding[]>();
    for (let at = pointer.indexOf('/input'); at !== -1; at = pointer.indexOf('/input', at + 1)) {
      const list = byPointer.get(pointer.slice(0, at));
      if (list !== undefined && !credited.has(list)) {
        credited.add(list);
        list.push(f);
      }
    }
  }
  return byPointer;
}

/** Section 8: each tool's schemas and the findings about them, then each shared schema once. */
export function schemaDraft(model: ServerModel, findings: readonly Finding[], memo: Memo = noMemo) {
  const shared: SharedByObject = new Map(model.schemas.map((s) => [s.wire as object, s.name]));
  const byTool = inputFindings(model, findings);
  const tools = model.tools.map((t) => {
    const own = byTool.get(t.pointer) ?? [];
    // The schemas as shown: a function of the tool and of the shared schemas, outside `tools:`.
    const shown = memo.recall('report.tool-schemas', t, (tool) => shownSchemas(tool, shared));
    return {
      ...shown,
      // The same object for the same tool model while the shared schemas stay: what a rendering may be kept by.
      shownSchemas: shown,
      findings:
        own.length === 0
          ? ['none']
          : own.map((f) => memo.recall('report.finding', f, (it) => `${code(it.code)} ${inline(it.message)}`)),
    };
  });
  return {
    sharedNote:
      model.schemas.length === 0
        ? ''
        : `A shared schema (${code('schemas:')}) is shown once, at the end of this section; a tool's wire schema ` +
          `holds each one it reaches under ${code('$defs')}, named by ${code('$ref: "#/$defs/<name>"')}.`,
    tools,
    shared: model.schemas.map((s) => ({ name: code(s.name), schema: json(s.wire) })),
  };
}

const json = (schema: JsonSchema): string => block('json', JSON.stringify(schema, null, 2));

/** A tool's name, schemas and the shared schemas they reach, as section 8 shows them. */
function shownSchemas(t: ToolModel, shared: SharedByObject) {
  const input = withoutShared(t.wireInput, shared);
  const output = t.wireOutput === null ? null : withoutShared(t.wireOutput, shared);
  const reached = [...new Set([...input.reached, ...(output?.reached ?? [])])].sort(compareText);
  return {
    name: code(t.name),
    input: json(input.shown),
    hasOutput: output !== null,
    output: output === null ? '' : json(output.shown),
    shared: reached.map((name) => code(name)).join(', '),
  };
}
