/**
 * References and pointers of an OpenAPI document: data that holds a `$ref`, and a pointer segment or fragment as
 * written, decoded.
 */
import { isRecord } from '../util/guards.js';

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

/** A URI fragment's percent escapes decoded; a malformed one is taken as written. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
