/**
 * Breaking changes between a baseline manifest and the current one: what a
 * reviewer needs before a release. Each finding points at the current
 * manifest, or at its top-level section when the item is gone.
 */
import type { Finding } from '../diagnostics/index.js';
import type { JsonSchema, ServerModel, ToolModel } from '../model/types.js';
import { compareText } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import { stableJson } from '../util/stable-json.js';

function finding(code: Finding['code'], pointer: string, message: string, hint?: string): Finding {
  return hint === undefined
    ? { code, message, at: { pointer, target: 'key' } }
    : { code, message, hint, at: { pointer, target: 'key' } };
}

function properties(schema: JsonSchema | null): Record<string, JsonSchema> {
  return schema !== null && isRecord(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
}

function required(schema: JsonSchema | null): string[] {
  return schema !== null && Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
}

function typeSet(schema: JsonSchema): Set<string> | null {
  if (typeof schema.$handle === 'string') return new Set(['string']);
  if (schema.type === undefined) return null;
  const types = new Set(Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)]);
  if (types.has('number')) types.add('integer');
  return types;
}

/** A type set as written: `integer` is left out where `number` already covers it. */
function typeList(types: Set<string>): string {
  return [...types].filter((t) => t !== 'integer' || !types.has('number')).join('|');
}

/** Why `after` accepts less than `before`, or null when it accepts at least as much. */
export function narrowing(before: JsonSchema, after: JsonSchema): string | null {
  const oldTypes = typeSet(before);
  const newTypes = typeSet(after);
  if (newTypes !== null && (oldTypes === null || [...oldTypes].some((t) => !newTypes.has(t)))) {
    return `type ${oldTypes === null ? 'any' : typeList(oldTypes)} became ${typeList(newTypes)}`;
  }
  if (Array.isArray(after.enum)) {
    const allowed = new Set(after.enum.map((v) => stableJson(v)));
    if (!Array.isArray(before.enum)) return 'an enum now restricts its values';
    const lost = before.enum.filter((v) => !allowed.has(stableJson(v)));
    if (lost.length > 0) return `enum no longer allows ${lost.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  for (const key of ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxProperties'] as const) {
    const a = after[key];
    const b = before[key];
    if (typeof a === 'number' && (typeof b !== 'number' || a < b))
      return `${key} ${typeof b === 'number' ? `went down from ${b} to ${a}` : `${a} was added`}`;
  }
  for (const key of ['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minProperties'] as const) {
    const a = after[key];
    const b = before[key];
    if (typeof a === 'number' && (typeof b !== 'number' || a > b))
      return `${key} ${typeof b === 'number' ? `went up from ${b} to ${a}` : `${a} was added`}`;
  }
  for (const key of ['pattern', 'format', 'const'] as const) {
    if (after[key] !== undefined && stableJson(after[key]) !== stableJson(before[key]))
      return `${key} ${before[key] === undefined ? 'was added' : 'changed'}`;
  }
  return null;
}

const permissive: readonly [keyof ToolModel['annotations'], boolean, string][] = [
  ['readOnlyHint', true, 'is no longer read-only'],
  ['destructiveHint', false, 'may now be destructive'],
  ['idempotentHint', true, 'is no longer idempotent'],
  ['openWorldHint', false, 'may now reach an open world'],
];

function effective(tool: ToolModel, hint: keyof ToolModel['annotations']): boolean {
  const declared = tool.annotations[hint];
  if (declared !== undefined) return declared;
  return hint === 'destructiveHint' ? tool.destructive : hint === 'openWorldHint';
}

function compareTool(before: ToolModel, after: ToolModel): Finding[] {
  const out: Finding[] = [];
  const base = after.pointer;
  const oldArgs = properties(before.input);
  const newArgs = properties(after.input);
  for (const name of required(after.input)) {
    if (!required(before.input).includes(name))
      out.push(
        finding(
          'breaking-required-argument',
          `${base}/input/required`,
          `tool "${after.name}" now requires argument "${name}"`,
          'make it optional, with a default in the handler',
        ),
      );
  }
  for (const [name, schema] of Object.entries(newArgs).sort(([a], [b]) => compareText(a, b))) {
    const old = oldArgs[name];
    const why = old === undefined ? null : narrowing(old, schema);
    if (why !== null)
      out.push(
        finding(
          'breaking-argument-narrowed',
          `${base}/input/properties/${name}`,
          `tool "${after.name}" argument "${name}" accepts less than before: ${why}`,
          'keep accepting the old values, or release this as a breaking change',
        ),
      );
  }
  if (after.input.additionalProperties === false) {
    for (const name of Object.keys(oldArgs).sort(compareText)) {
      if (!(name in newArgs))
        out.push(
          finding(
            'breaking-argument-removed',
            `${base}/input`,
            `tool "${after.name}" no longer accepts argument "${name}" (its input is closed)`,
            'keep accepting and ignoring it for a release',
          ),
        );
    }
  }
  const oldOut = properties(before.output);
  const newOut = properties(after.output);
  for (const name of Object.keys(oldOut).sort(compareText)) {
    if (!(name in newOut))
      out.push(
        finding(
          'breaking-output-removed',
          after.output === null ? base : `${base}/output`,
          `tool "${after.name}" no longer returns output field "${name}"`,
          'keep returning the field',
        ),
      );
    else if (required(before.output).includes(name) && !required(after.output).includes(name))
      out.push(
        finding(
          'breaking-output-removed',
          `${base}/output`,
          `tool "${after.name}" output field "${name}" is no longer required`,
          'keep returning the field every time',
        ),
      );
  }
  for (const [hint, safe, what] of permissive) {
    if (effective(before, hint) === safe && effective(after, hint) !== safe)
      out.push(
        finding(
          'breaking-hint-permissive',
          base,
          `tool "${after.name}" ${what} (${hint})`,
          'review the change with whoever configured hosts to trust this tool',
        ),
      );
  }
  if (before.approval === 'confirm' && after.approval === 'none')
    out.push(
      finding(
        'breaking-approval-removed',
        base,
        `tool "${after.name}" no longer asks for approval`,
        'keep approval: confirm, or confirm with reviewers that the tool is safe without it',
      ),
    );
  return out;
}

/** Every breaking change from `before` to `after`. */
export function findBreakingChanges(before: ServerModel, after: ServerModel): Finding[] {
  const out: Finding[] = [];
  const current = new Map(after.tools.map((t) => [t.name, t]));
  const renamedFrom = new Map(after.tools.filter((t) => t.renamedFrom !== null).map((t) => [t.renamedFrom ?? '', t]));
  for (const old of before.tools) {
    const same = current.get(old.name);
    const renamed = same === undefined ? renamedFrom.get(old.name) : undefined;
    if (same !== undefined) out.push(...compareTool(old, same));
    else if (renamed !== undefined) {
      out.push(
        finding(
          'breaking-tool-renamed',
          `${renamed.pointer}/renamedFrom`,
          `tool "${old.name}" was renamed to "${renamed.name}"; clients calling "${old.name}" will fail`,
          'release it as a breaking change, or keep a tool with the old name',
        ),
      );
      out.push(...compareTool(old, renamed));
    } else
      out.push(
        finding(
          'breaking-tool-removed',
          '/tools',
          `tool "${old.name}" was removed`,
          `if it was renamed, add "renamedFrom: ${old.name}" to the new tool`,
        ),
      );
  }
  for (const [kind, oldItems, newItems] of [
    ['resource', before.resources, after.resources],
    ['prompt', before.prompts, after.prompts],
  ] as const) {
    const names = new Set(newItems.map((i) => i.name));
    for (const item of oldItems)
      if (!names.has(item.name))
        out.push(
          finding(
            'breaking-primitive-removed',
            `/${kind}s`,
            `${kind} "${item.name}" was removed`,
            'keep it, or release this as a breaking change',
          ),
        );
  }
  for (const prompt of after.prompts) {
    const old = before.prompts.find((p) => p.name === prompt.name);
    if (old === undefined) continue;
    for (const arg of prompt.arguments.filter((a) => a.required)) {
      if (!old.arguments.some((a) => a.name === arg.name && a.required))
        out.push(
          finding(
            'breaking-required-argument',
            `${prompt.pointer}/arguments/${arg.name}`,
            `prompt "${prompt.name}" now requires argument "${arg.name}"`,
            'make it optional',
          ),
        );
    }
  }
  return out;
}
