/**
 * The tools of a curated manifest against a changed spec. A tool is known by its operation (the method and
 * path of its `http:` binding), so a tool the user renamed is still the same operation's; a tool whose binding the
 * user removed or pointed elsewhere is known by its name, and an operation the spec moved to another method or
 * path by the name drafted from its operationId. Per operation: one the spec added comes in (under a free name,
 * with the draft's comments); one the spec dropped goes, unless the user wrote its handler file; one both still
 * have is merged field by field (merge-values.ts); one the user removed stays removed; a tool of the user's own
 * is untouched.
 */
import { type Document, isMap, isPair, isScalar, type Node, parseDocument, type YAMLMap } from 'yaml';
import { isRecord } from '../util/guards.js';
import { type MergeLog, mergeValue, plain, sameValue, unshare } from './merge-values.js';

type Tool = Readonly<Record<string, unknown>>;

/** What happened to the tools, for the report. */
export interface ToolChanges {
  /** Tools the spec added, as named in the manifest. */
  readonly added: string[];
  /** Tools dropped because the spec no longer has their operation. */
  readonly removed: string[];
  /** Tools the spec no longer has, kept because their handler file exists. */
  readonly keptForHandler: string[];
  /** Operations the spec changed whose tool the user had removed: they stay removed. */
  readonly stillRemoved: string[];
  /** `name: spec's new name` where the spec now names an operation otherwise; the manifest's name stays. */
  readonly renamedBySpec: string[];
}

/** Where a tool's entry is in the user's manifest. */
interface Entry {
  readonly name: string;
  readonly tool: Tool;
}

/**
 * Merges `base` and `next` (name -> tool) into the user's `tools` mapping. `addedText(name)` is the draft's
 * YAML text of `next`'s tool `name` under a `tools:` key, comments included; `handlerExists(name)` tells
 * whether the user wrote a handler file for the manifest's tool `name`.
 */
export function mergeTools(
  doc: Document,
  tools: YAMLMap,
  base: Readonly<Record<string, Tool>>,
  next: Readonly<Record<string, Tool>>,
  io: { addedText: (name: string) => string; handlerExists: (name: string) => boolean },
  log: MergeLog,
): ToolChanges {
  const changes: ToolChanges = { added: [], removed: [], keptForHandler: [], stillRemoved: [], renamedBySpec: [] };
  const ours = new Map<string, Entry>();
  const oursByName = new Map<string, Entry>();
  for (const pair of tools.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const name = String(pair.key.value);
    const tool = isMap(pair.value) ? plain(doc, pair.value as Node) : undefined;
    if (!isRecord(tool)) continue;
    const entry = { name, tool };
    oursByName.set(name, entry);
    const id = operationOf(tool);
    if (id !== null) ours.set(id, entry);
  }
  const baseById = byOperation(base);
  const nextById = byOperation(next);
  const moved = movedOperations(baseById, nextById);
  // The user's tool of an operation: by its binding, else (a binding the user removed or pointed elsewhere) by the
  // name the last import drafted. By name only a tool the last import drafted: a tool of the user's own that shares
  // a new operation's name is not that operation's.
  const known = new Set([...baseById.keys(), ...nextById.keys()]);
  const ownOf = (ids: readonly string[], baseEntry: Entry | undefined) => {
    for (const id of ids) {
      const entry = ours.get(id);
      if (entry !== undefined) return entry;
    }
    return baseEntry === undefined ? undefined : draftedNamed(oursByName, baseEntry.name, known);
  };
  for (const [id, nextEntry] of nextById) {
    const baseId = baseById.has(id) ? id : moved.get(id);
    const baseEntry = baseId === undefined ? undefined : baseById.get(baseId);
    const own = ownOf(baseId === undefined || baseId === id ? [id] : [id, baseId], baseEntry);
    if (own === undefined) {
      if (baseEntry === undefined) changes.added.push(addTool(tools, nextEntry.name, io.addedText, oursByName));
      else if (!sameValue(baseEntry.tool, nextEntry.tool)) changes.stillRemoved.push(baseEntry.name);
      continue;
    }
    if (baseEntry !== undefined && baseEntry.name !== nextEntry.name && own.name === baseEntry.name)
      changes.renamedBySpec.push(`${own.name}: ${nextEntry.name}`);
    const node = tools.get(own.name, true) as unknown as YAMLMap;
    unshare(doc, node, false);
    for (const key of new Set([...Object.keys(baseEntry?.tool ?? {}), ...Object.keys(nextEntry.tool)]))
      mergeValue(doc, node, key, baseEntry?.tool[key], nextEntry.tool[key], ['tools', own.name, key], log);
  }
  const paired = new Set(moved.values());
  for (const [id, baseEntry] of baseById) {
    if (nextById.has(id) || paired.has(id)) continue;
    const own = ownOf([id], baseEntry);
    if (own === undefined) continue;
    // A tool renamed by hand keeps its handler under the old name until the next generate moves the file.
    const { renamedFrom } = own.tool;
    if (io.handlerExists(own.name) || (typeof renamedFrom === 'string' && io.handlerExists(renamedFrom)))
      changes.keptForHandler.push(own.name);
    else {
      unshare(doc, tools.get(own.name, true) as Node | undefined, true);
      tools.delete(own.name);
      changes.removed.push(own.name);
    }
  }
  return changes;
}

/** `METHOD path` of a tool's binding; null for a tool without one. */
function operationOf(tool: Tool): string | null {
  const http = tool.http;
  return isRecord(http) && typeof http.method === 'string' && typeof http.path === 'string'
    ? `${http.method.toUpperCase()} ${http.path}`
    : null;
}

/** A draft's tools by operation; one without a binding by `name:<name>`. */
function byOperation(tools: Readonly<Record<string, Tool>>): Map<string, Entry> {
  const map = new Map<string, Entry>();
  for (const [name, tool] of Object.entries(tools)) map.set(operationOf(tool) ?? `name:${name}`, { name, tool });
  return map;
}

/**
 * The user's tool named `name` when its binding is not one of the spec's operations, then or now (`known`): the
 * user replaced the binding by a handler, or pointed it elsewhere (a proxy's path, another method).
 */
function draftedNamed(oursByName: ReadonlyMap<string, Entry>, name: string, known: ReadonlySet<string>) {
  const entry = oursByName.get(name);
  const id = entry === undefined ? null : operationOf(entry.tool);
  return entry !== undefined && (id === null || !known.has(id)) ? entry : undefined;
}

/**
 * Operations the spec moved: one only the new draft has (a new method or path) that the new draft names as the last
 * one named an operation only it had, since a drafted name comes from the operationId. New id -> old id.
 */
function movedOperations(base: ReadonlyMap<string, Entry>, next: ReadonlyMap<string, Entry>): Map<string, string> {
  const gone = new Map<string, string>();
  for (const [id, entry] of base) if (!next.has(id)) gone.set(entry.name, id);
  const moved = new Map<string, string>();
  for (const [id, entry] of next) {
    const from = base.has(id) ? undefined : gone.get(entry.name);
    if (from !== undefined) moved.set(id, from);
  }
  return moved;
}

/** Adds the spec's new tool at the end of `tools`, under a name no tool of the manifest has; returns it. */
function addTool(
  tools: YAMLMap,
  name: string,
  addedText: (name: string) => string,
  oursByName: Map<string, Entry>,
): string {
  let free = name;
  for (let n = 2; oursByName.has(free) || tools.has(free); n += 1) free = `${name}_${n}`;
  const drafted = parseDocument(addedText(name));
  const section = (drafted.contents as YAMLMap).items[0]?.value;
  const entry = isMap(section) ? (section.items[0] ?? null) : null;
  if (!isMap(section) || !isPair(entry) || !isScalar(entry.key)) return free;
  entry.key.value = free;
  // The parser gives a comment above a mapping's first key to the mapping: it is the entry's.
  const notes = [
    ' added by import --update: an operation new in the spec',
    section.commentBefore,
    entry.key.commentBefore,
  ];
  entry.key.commentBefore = notes.filter((n) => typeof n === 'string' && n !== '').join('\n');
  tools.items.push(entry);
  oursByName.set(free, { name: free, tool: (entry.value as Node).toJSON() as Tool });
  return free;
}
