/**
 * References and pointers of an OpenAPI document: data that holds a `$ref`, and a pointer segment or fragment as
 * written, decoded.
 */
import { isRecord } from '../util/guards.js';
import { parsePointer, resolvePointer } from '../util/json-pointer.js';
import { quote } from './names.js';

/**
 * Data with a `$ref` key (GitHub writes `example: { $ref: "#/components/examples/..." }`): every JSON Schema
 * tool after import would follow it as a reference into a document the manifest does not hold, so it is dropped.
 */
export function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  return isRecord(value) && ('$ref' in value || Object.values(value).some(holdsRef));
}

/** A JSON Pointer segment of a reference, percent escapes and `~1` `~0` decoded. */
export function decodeSegment(segment: string): string {
  return safeDecode(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Keywords whose next segment is a name of the schema's (a property, a definition). */
const namedMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * A name for the schema at `tail`, a pointer into a component written as in its `$ref`: the component, then the
 * names it goes through, an item as `item` and a list's index joined to its keyword (`Pet/properties/tags/items`
 * is `Pet_tags_item`, `Pet/allOf/0` is `Pet_allOf0`).
 */
export function pointerStem(tail: string): string {
  const segments = tail.split('/').map(decodeSegment);
  const words = [segments[0] ?? ''];
  for (let i = 1; i < segments.length; i += 1) {
    const segment = segments[i] ?? '';
    const next = segments[i + 1];
    if (namedMaps.has(segment) && next !== undefined) {
      words.push(next);
      i += 1;
    } else if (/^\d+$/.test(segment) && words.length > 1) words[words.length - 1] += segment;
    else words.push(segment === 'items' ? 'item' : segment);
  }
  return words.join('_');
}

/** A URI fragment's percent escapes decoded; a malformed one is taken as written. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The value at `ref`, a fragment of this document (`#/paths/~1pets`); undefined when it holds nothing. */
export function resolveFragment(api: unknown, ref: string): unknown {
  return ref.startsWith('#') ? resolvePointer(api, parsePointer(safeDecode(ref))) : undefined;
}

/**
 * Path item `written` of `route`, its `$ref` followed within the document (its own keys win over the referenced
 * item's); null and a warning when it refers elsewhere or to nothing.
 */
export function pathItem(
  api: unknown,
  route: string,
  written: unknown,
): { item: Readonly<Record<string, unknown>> | null; warning: string | null } {
  let item = written;
  const seen = new Set<string>();
  while (isRecord(item) && typeof item.$ref === 'string') {
    const { $ref: ref, ...own } = item;
    const target = seen.has(ref) ? undefined : resolveFragment(api, ref);
    seen.add(ref);
    if (!isRecord(target))
      return {
        item: null,
        warning:
          `path ${quote(route)}: its $ref ${quote(ref)} is not a path item of this document ` +
          '(a circular or outside reference); its operations are left out',
      };
    item = { ...target, ...own };
  }
  return { item: isRecord(item) ? item : null, warning: null };
}
