/**
 * Parts of a spec whose shape the OpenAPI Specification does not allow, which the draft would otherwise pass over
 * without a word: an operation that is not an object, an `operationId` that is not a string, a parameter that is not
 * an object or lacks its `name` or a valid `in`, `responses` that is not a mapping. Each is an import warning that
 * says what the draft does instead, so that no tool sends less, or elsewhere, than the document says in silence.
 */
import { isRecord } from '../util/guards.js';

type Raw = Readonly<Record<string, unknown>>;

const shown = (value: unknown): string =>
  Array.isArray(value)
    ? 'a list'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'a mapping'
        : JSON.stringify(value);

/** The warning of an operation `value` that is present but no Operation Object; null when it is one, or absent. */
export function operationShapeWarning(value: unknown, where: string): string | null {
  if (value === undefined || isRecord(value)) return null;
  return `${where}: is ${shown(value)}, not an Operation Object; the operation is left out`;
}

/**
 * The warnings of one operation's shape: `follow` resolves a parameter's `$ref` (null when it leads nowhere, which
 * the request's own notes report).
 */
export function operationShapeWarnings(
  item: Raw,
  operation: Raw,
  where: string,
  follow: (entry: unknown) => Raw | null,
): string[] {
  const out: string[] = [];
  if (operation.operationId !== undefined && typeof operation.operationId !== 'string')
    out.push(
      `${where}: operationId ${shown(operation.operationId)} is not a string; ` +
        'the tool is named from the method and path',
    );
  if (operation.responses !== undefined && !isRecord(operation.responses))
    out.push(`${where}: responses is ${shown(operation.responses)}, not a mapping; the tool's answer is not described`);
  for (const [level, list] of [
    ['path item', item.parameters],
    ['operation', operation.parameters],
  ] as const) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      out.push(`${where}: the ${level}'s parameters are ${shown(list)}, not a list; none of them is sent`);
      continue;
    }
    for (const [i, entry] of list.entries()) {
      const p = isRecord(entry) && typeof entry.$ref === 'string' ? follow(entry) : entry;
      const at = `${where}: the ${level}'s parameter ${i + 1}`;
      if (p === null) continue;
      if (!isRecord(p)) out.push(`${at} is ${shown(p)}, not a Parameter Object; it is left out`);
      else if (typeof p.name !== 'string') out.push(`${at} has no "name"; it is left out`);
      // Another location ("body", "formData") is reported in the draft as a parameter it cannot encode.
      else if (typeof p.in !== 'string')
        out.push(`${at} ("${p.name}") has no "in"; it is sent in the query, where a parameter goes by default`);
    }
  }
  return out;
}
