/**
 * What verify compares of a list item, put the same way for the manifest's
 * side and the server's: schemas, hints and prompt arguments by meaning, not
 * by spelling; fields a manifest cannot declare set aside as information.
 * Pure.
 */
import type { WireItem } from '../live/index.js';
import { compareText } from '../util/compare.js';
import { isRecord } from '../util/guards.js';

/** A field on the server that a manifest has no place for, so verify reports it and does not compare it. */
export interface Undeclarable {
  readonly field: string;
  readonly value: unknown;
}

/** The comparable part of one item, and what was set aside. */
export interface ItemView {
  readonly view: Record<string, unknown>;
  readonly undeclarable: readonly Undeclarable[];
}

/** Each hint's value when a server leaves it out (the spec's defaults). */
const hintDefaults = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
/** Keywords whose values are data, not schemas: nothing inside them is normalized. */
const dataKeywords = new Set(['const', 'default', 'enum', 'examples']);

/**
 * A JSON Schema by meaning: the root `$schema` left out (a manifest's tool
 * schemas are 2020-12 and import drops a draft-07 one), `required` sorted and
 * deduplicated (a set; generated servers sort it), and an empty `required` or
 * `properties` dropped (the SDK writes `properties: {}` for a tool without
 * arguments; it says nothing).
 */
export function schemaView(schema: unknown, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => schemaView(s, false));
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (root && key === '$schema') continue;
    if (key === 'required' && Array.isArray(value)) {
      if (value.length > 0) out[key] = [...new Set(value.map(String))].sort(compareText);
      continue;
    }
    if (key === 'properties' && isRecord(value) && Object.keys(value).length === 0) continue;
    out[key] = dataKeywords.has(key) ? value : schemaView(value, false);
  }
  return out;
}

/** A tool: its hints as their effective values; `execution` and other wire-only fields set aside. */
export function toolView(tool: WireItem): ItemView {
  const undeclarable: Undeclarable[] = [];
  const view: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(tool)) {
    if (field === 'name') continue;
    if (field === 'title' || field === 'description' || field === 'icons') view[field] = value;
    else if (field === 'inputSchema' || field === 'outputSchema') view[field] = schemaView(value);
    else if (field === 'annotations') continue;
    // `taskSupport: forbidden` is what a tool without `execution` means.
    else if (field === 'execution' && isRecord(value) && canonicalForbidden(value)) continue;
    else undeclarable.push({ field, value });
  }
  const annotations = isRecord(tool.annotations) ? tool.annotations : {};
  const hints: Record<string, unknown> = {};
  for (const [hint, fallback] of Object.entries(hintDefaults)) hints[hint] = annotations[hint] ?? fallback;
  view.annotations = hints;
  for (const [key, value] of Object.entries(annotations))
    if (!(key in hintDefaults)) undeclarable.push({ field: `annotations.${key}`, value });
  return { view, undeclarable };
}

function canonicalForbidden(execution: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(execution);
  return keys.every((k) => k === 'taskSupport') && (execution.taskSupport ?? 'forbidden') === 'forbidden';
}

/** A resource or resource template: name, title, description and media type. */
export function resourceView(resource: WireItem): ItemView {
  const compared = ['name', 'title', 'description', 'mimeType', 'icons', 'annotations', 'size'];
  return picked(resource, compared, ['uri', 'uriTemplate']);
}

/** A prompt: its arguments keyed by name, each `required` as true or false. */
export function promptView(prompt: WireItem): ItemView {
  const { view, undeclarable } = picked(prompt, ['title', 'description', 'icons'], ['name', 'arguments']);
  const args: Record<string, unknown> = {};
  for (const arg of Array.isArray(prompt.arguments) ? prompt.arguments.filter(isRecord) : []) {
    const entry: Record<string, unknown> = { required: arg.required === true };
    if (arg.title !== undefined) entry.title = arg.title;
    if (arg.description !== undefined) entry.description = arg.description;
    args[String(arg.name)] = entry;
  }
  if (Object.keys(args).length > 0) view.arguments = args;
  return { view, undeclarable };
}

/** `compared` fields into the view, `key` fields (the item's identity) skipped, the rest set aside. */
function picked(item: WireItem, compared: readonly string[], key: readonly string[]): ItemView {
  const view: Record<string, unknown> = {};
  const undeclarable: Undeclarable[] = [];
  for (const [field, value] of Object.entries(item)) {
    if (compared.includes(field)) view[field] = value;
    else if (!key.includes(field)) undeclarable.push({ field, value });
  }
  return { view, undeclarable };
}
