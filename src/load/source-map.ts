import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

/** A 1-based line and column in the manifest text. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** Which part of a mapping entry a pointer should resolve to. */
export type Target = 'key' | 'value';

/**
 * Maps JSON pointer segments to the YAML node they name, walking the parsed
 * document. When a segment is missing (a required key that is absent), the
 * position of the deepest existing node is returned, so every diagnostic still
 * points somewhere sensible.
 */
export function createLocator(doc: Document, lineCounter: LineCounter) {
  const positionOf = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
  return (segments: readonly string[], target: Target = 'value'): Position => {
    let node: Node | null = (doc.contents as Node | null) ?? null;
    let keyNode: Node | null = null;
    for (const segment of segments) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
        if (!pair) break;
        keyNode = pair.key as Node;
        node = (pair.value as Node | null) ?? keyNode;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)] as Node | undefined;
        if (!item) break;
        keyNode = item;
        node = item;
      } else {
        break;
      }
    }
    const chosen = target === 'key' && keyNode ? keyNode : node;
    const offset = chosen?.range?.[0] ?? 0;
    return positionOf(offset);
  };
}
