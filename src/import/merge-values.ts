/**
 * The three-way merge of one value of a manifest, edited in place through the `yaml` document API so that
 * the user's comments, key order and styles stay: `base` is what the last import drafted, `next` what the spec
 * drafts now, and the manifest's node is the user's. The spec's change is taken where the user left the
 * value as drafted; the user's value stays where the spec did not change it; where both changed it
 * differently, the user's value stays and a conflict is recorded, never resolved.
 */
import { type Document, isAlias, isCollection, isMap, isNode, isScalar, type Node, visit, type YAMLMap } from 'yaml';
import { isRecord } from '../util/guards.js';

/** A field both the user and the spec changed, differently. */
export interface MergeConflict {
  /** Keys from the manifest's root to the field. */
  readonly path: readonly string[];
  /** The user's value (kept) and the spec's new value; `undefined` for a removed one. */
  readonly ours: unknown;
  readonly theirs: unknown;
}

/** What a merge did, for the report. */
export interface MergeLog {
  readonly conflicts: MergeConflict[];
  /** Fields that took the spec's new value, as dotted paths. */
  readonly updated: string[];
}

/** Merges the value under `key` of `parent` (a mapping of the user's document) at `path`. */
export function mergeValue(
  doc: Document,
  parent: YAMLMap,
  key: string,
  base: unknown,
  next: unknown,
  path: readonly string[],
  log: MergeLog,
): void {
  // What the spec did not change is the user's, whatever it is: the user's node is not even read.
  if (sameValue(base, next)) return;
  const node = parent.get(key, true) as Node | undefined;
  // Into a mapping both sides still have, key by key: a section the user only commented keeps its comments.
  if (isRecord(next) && isMap(node) && (base === undefined || isRecord(base))) {
    unshare(doc, node, false);
    const from = base ?? {};
    for (const k of unionKeys(from, next)) mergeValue(doc, node, k, from[k], next[k], [...path, k], log);
    return;
  }
  const ours = node === undefined ? undefined : plain(doc, node);
  if (sameValue(ours, base)) {
    setValue(doc, parent, key, next);
    log.updated.push(path.join('.'));
    return;
  }
  if (sameValue(ours, next)) return;
  log.conflicts.push({ path, ours, theirs: next });
}

/** `value` under `key`, keeping the node (and its comments) when a scalar replaces a scalar. */
export function setValue(doc: Document, parent: YAMLMap, key: string, value: unknown): void {
  const node = parent.get(key, true) as Node | undefined;
  const inPlace = isScalar(node) && (value === null || typeof value !== 'object');
  unshare(doc, node, !inPlace);
  if (value === undefined) {
    parent.delete(key);
    return;
  }
  if (isScalar(node) && inPlace) {
    node.value = value;
    return;
  }
  const created = doc.createNode(value, { aliasDuplicateObjects: false }) as Node;
  // A flow mapping (`annotations: { readOnlyHint: true, ... }`) stays one.
  if (isCollection(node) && isCollection(created) && node.flow === true) created.flow = true;
  parent.set(key, created);
}

/**
 * Before the merge changes `node` (`whole`: replaces or removes it, anchors inside included), each alias elsewhere
 * that refers to it becomes a copy of it as it is: the spec changed one place, and a place that shared its value
 * through an anchor (`annotations: *readonly` in another tool) keeps that value, and still has an anchor to refer to.
 */
export function unshare(doc: Document, node: Node | undefined, whole: boolean): void {
  if (node === undefined || isAlias(node)) return;
  const shared = new Set<Node>();
  if (whole)
    visit(node, (_, n) => {
      if (isNode(n) && !isAlias(n) && n.anchor !== undefined) shared.add(n);
    });
  else if (node.anchor !== undefined) shared.add(node);
  if (shared.size === 0) return;
  visit(doc, {
    Alias(_, alias) {
      const source = alias.resolve(doc) as Node | undefined;
      if (source === undefined || !shared.has(source)) return;
      const copy = source.clone() as Node;
      delete copy.anchor;
      visit(copy, (_, n) => {
        if (isNode(n) && !isAlias(n)) delete n.anchor;
      });
      return copy;
    },
  });
}

/** The node as plain data, aliases resolved against `doc`. */
export function plain(doc: Document, node: Node): unknown {
  return node.toJS(doc, { maxAliasCount: 100 });
}

/** Keys of `a`, then the keys only `b` has, in their order. */
export function unionKeys(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  return [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
}

/** Equal as data: key order does not count, list order does. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}
