import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

/** A 1-based line and column in the manifest text. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** Which part of a mapping entry a pointer should resolve to. */
export type Target = 'key' | 'value';

/**
 * Where each node of the document starts, without the document: a scalar (or anything that is neither a
 * mapping nor a sequence) is its offset alone; a mapping lists its scalar keys in order with the offset of each
 * key and its value; a sequence its items. The parsed document of a large manifest (tens of MB for GitHub's
 * draft) would otherwise stay alive for the whole run only to answer `locate`.
 */
type Spot = number | MapSpot | SeqSpot;
interface MapSpot {
  readonly offset: number;
  readonly keys: readonly string[];
  readonly keyOffsets: readonly number[];
  /** A missing value (`key:` with nothing after it) is the key's own spot, as the document walk had it. */
  readonly values: readonly Spot[];
}
interface SeqSpot {
  readonly offset: number;
  /** null where the document holds no node (the walk stops there, as at a missing index). */
  readonly items: readonly (Spot | null)[];
}

function offsetOf(node: Node | null | undefined): number {
  return node?.range?.[0] ?? 0;
}

function spotOf(node: Node | null): Spot {
  if (isMap(node)) {
    const keys: string[] = [];
    const keyOffsets: number[] = [];
    const values: Spot[] = [];
    for (const pair of node.items) {
      // Only scalar keys can be named by a pointer segment; other keys are never matched.
      if (!isScalar(pair.key)) continue;
      keys.push(String(pair.key.value));
      keyOffsets.push(offsetOf(pair.key));
      const value = (pair.value as Node | null) ?? null;
      values.push(value === null ? offsetOf(pair.key) : spotOf(value));
    }
    return { offset: offsetOf(node), keys, keyOffsets, values };
  }
  if (isSeq(node))
    return { offset: offsetOf(node), items: node.items.map((item) => (item ? spotOf(item as Node) : null)) };
  return offsetOf(node);
}

function spotOffset(spot: Spot): number {
  return typeof spot === 'number' ? spot : spot.offset;
}

/**
 * Maps JSON pointer segments to the YAML node they name, from the spots of the parsed document (taken once,
 * here). When a segment is missing (a required key that is absent), the position of the deepest existing node is
 * returned, so every diagnostic still points somewhere sensible.
 */
export function createLocator(doc: Document, lineCounter: LineCounter) {
  const root: Spot | null = doc.contents === null ? null : spotOf(doc.contents as Node);
  const positionOf = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
  return (segments: readonly string[], target: Target = 'value'): Position => {
    let spot: Spot | null = root;
    let keyOffset: number | null = null;
    for (const segment of segments) {
      if (spot === null || typeof spot === 'number') break;
      if ('keys' in spot) {
        const index = spot.keys.indexOf(segment);
        if (index < 0) break;
        keyOffset = spot.keyOffsets[index] ?? 0;
        spot = spot.values[index] ?? null;
      } else {
        const item = spot.items[Number(segment)];
        if (item === undefined || item === null) break;
        keyOffset = spotOffset(item);
        spot = item;
      }
    }
    const offset = target === 'key' && keyOffset !== null ? keyOffset : spot === null ? 0 : spotOffset(spot);
    return positionOf(offset);
  };
}
