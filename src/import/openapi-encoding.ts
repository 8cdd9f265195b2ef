/**
 * The Encoding Object of a form or multipart body in a draft: what a binding sends of it (`http.encoding`: style,
 * explode, allowReserved, a part's content type), a line for each field it does not send, and the array members of a
 * form converted from Swagger 2.0.
 */
import { isMediaType } from '../model/media.js';
import { isRecord, stringOr } from '../util/guards.js';
import { quote } from './names.js';

type Raw = Readonly<Record<string, unknown>>;

/** The styles each parameter location takes (OpenAPI Parameter Object); a form body's members take the query's. */
export const stylesOf: Readonly<Record<string, readonly string[]>> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

/** A part header the Encoding Object may declare that OpenAPI says to ignore: the part's type is `contentType`. */
const isContentType = (name: string) => name.toLowerCase() === 'content-type';

/**
 * The `http.encoding` entries of the body of media type `type` (a form or multipart) from its Encoding Object
 * `declared`: only what differs from the defaults; and a line for each field a binding does not send, so the import
 * says it: a part's required headers (OpenAPI ignores them in a form), a part's type that is a range or a list, a form
 * member's style no form takes, or its `contentType` (which OpenAPI ignores beside a style). A multipart part keeps
 * no style, explode or allowReserved, which the multipart body does not read: where `styledParts` (OpenAPI 3.1, not
 * 3.0, applies them to a part) and they ask for other than one part per item, the line says so.
 */
export function formEncoding(
  type: string,
  declared: Raw,
  styledParts: boolean,
): { encoding: Record<string, Raw>; unsent: string[] } {
  const multipart = type === 'multipart/form-data';
  const encoding: Record<string, Raw> = {};
  const unsent: string[] = [];
  for (const [member, raw] of Object.entries(declared)) {
    if (!isRecord(raw)) continue;
    const at = `body member ${quote(member)}`;
    const own: Record<string, unknown> = multipart ? {} : formStyle(at, raw, unsent);
    const styled = multipart && styledParts ? partStyle(raw) : [];
    if (styled.length > 0)
      unsent.push(
        `${at} has ${styled.join(', ')} in its Encoding Object, which OpenAPI 3.1 applies to a multipart part but ` +
          'the binding does not: an array is sent one part per item, an object as one application/json part ' +
          '(write a handler if the API reads one joined value)',
      );
    const contentType = stringOr(raw.contentType)?.trim();
    if (multipart && contentType !== undefined && isMediaType(contentType)) own.contentType = contentType;
    else if (multipart && contentType !== undefined)
      unsent.push(
        `${at} has contentType ${quote(contentType)}, a range or list rather than one type; its part is sent with ` +
          'the default type (application/octet-stream for a file, application/json for an object, none for ' +
          `text): set http.encoding.${member}.contentType to the one the API takes`,
      );
    else if (contentType !== undefined && !isStyled(raw) && !/^text\/plain\b/i.test(contentType))
      unsent.push(
        `${at} has contentType ${quote(contentType)}, which mcp-gen does not encode a form member by; it is sent ` +
          'in the form style (write a handler if the API reads that type)',
      );
    const headers = multipart && isRecord(raw.headers) ? requiredHeaders(raw.headers) : [];
    const [s, them] = headers.length > 1 ? ['s', 'them'] : ['', 'it'];
    if (headers.length > 0)
      unsent.push(
        `${at} has the required part header${s} ${headers.map(quote).join(', ')} in its Encoding Object, which the ` +
          `binding does not send (write a handler if the API needs ${them})`,
      );
    if (Object.keys(own).length > 0) encoding[member] = own;
  }
  return { encoding, unsent };
}

/**
 * The part headers a request must carry: `required: true`, or a `$ref` whose Header Object is not read here. An
 * optional one may be left out, as the binding does, so it is no line of its own; `Content-Type` is the part's type.
 */
const requiredHeaders = (headers: Raw): string[] =>
  Object.entries(headers)
    .filter(([name, h]) => !isContentType(name) && isRecord(h) && (h.required === true || typeof h.$ref === 'string'))
    .map(([name]) => name);

/** A form member's style, explode and allowReserved that differ from the defaults; a style no form takes, flagged. */
function formStyle(at: string, raw: Raw, unsent: string[]): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  const style = stringOr(raw.style);
  if (style !== undefined && !(stylesOf.query ?? []).includes(style))
    unsent.push(`${at} has style ${quote(style)}, which mcp-gen cannot encode in a form; it is sent as form`);
  else if (style !== undefined && style !== 'form') own.style = style;
  const explodeDefault = (style ?? 'form') === 'form';
  if (typeof raw.explode === 'boolean' && raw.explode !== explodeDefault) own.explode = raw.explode;
  if (raw.allowReserved === true) own.allowReserved = true;
  return own;
}

/**
 * The style fields of a multipart part that ask for other than what a binding sends (each array item its own part):
 * a style but `form`, or `explode: false`. `allowReserved` is left out: a part's value goes as it is, never
 * percent-encoded, which is what OpenAPI's appendix on form media types advises for `multipart/form-data`.
 */
function partStyle(raw: Raw): string[] {
  const style = stringOr(raw.style);
  const fields = style !== undefined && style !== 'form' ? [`style ${quote(style)}`] : [];
  if (raw.explode === false) fields.push('explode false');
  return fields;
}

/** Whether an Encoding Object serializes its member by style, when OpenAPI 3.1 ignores its `contentType`. */
const isStyled = (raw: Raw) => raw.style !== undefined || raw.explode !== undefined || raw.allowReserved !== undefined;

/** The form style of each Swagger 2.0 collectionFormat a form body can send (`multi` is the default, exploded). */
const formCollections: Readonly<Record<string, Record<string, unknown>>> = {
  csv: { explode: false },
  ssv: { style: 'spaceDelimited' },
  pipes: { style: 'pipeDelimited' },
  multi: {},
};

/**
 * The `encoding` of each array member of a form converted from Swagger 2.0 `formData` (its collectionFormat, which
 * the loader keeps as `x-mcp-gen-collection-format`), added to `encoding` unless the spec declares one; the members a
 * binding cannot send so (`tsv`, and any but `multi` in a multipart body, one part per item), as `"name" (format)`.
 */
export function swaggerFormArrays(
  type: string,
  schema: Raw | null,
  declared: Raw,
  encoding: Record<string, Record<string, unknown>>,
): string[] {
  const lost: string[] = [];
  const properties = schema !== null && isRecord(schema.properties) ? schema.properties : {};
  for (const [member, raw] of Object.entries(properties)) {
    const format = isRecord(raw) ? stringOr(raw['x-mcp-gen-collection-format']) : undefined;
    if (format === undefined || format === 'multi' || member in declared) continue;
    const style = type === 'multipart/form-data' ? undefined : formCollections[format];
    if (style === undefined) lost.push(`${quote(member)} (collectionFormat ${quote(format)})`);
    else encoding[member] = style;
  }
  return lost;
}
