/**
 * What an OpenAPI operation's request becomes in a draft: each parameter an input property with its `http.args`
 * entry (its location, its name on the wire when the property's differs, and its `style`, `explode` and
 * `allowReserved` when they are not the location's defaults), and the request body's media type and Encoding Object.
 */
import { type BodyKind, bodyKind } from '../model/media.js';
import { isRecord, stringOr } from '../util/guards.js';
import { quote } from './names.js';
import { formEncoding, stylesOf, swaggerFormArrays } from './openapi-encoding.js';

type Raw = Readonly<Record<string, unknown>>;

/** The default style of a location: `simple` in the path and headers, `form` in the query and cookies. */
const defaultStyle = (location: string) => (location === 'path' || location === 'header' ? 'simple' : 'form');

/** One parameter's `http.args` entry: the location alone, or an object when anything else differs from it. */
export type ArgumentEntry = string | Record<string, unknown>;

/**
 * The `args` entry of parameter `p` under the input property `property`, or the reason mcp-gen cannot encode it
 * (a style its location does not define, or an unknown one).
 */
export function argumentEntry(p: Raw, property: string): { entry: ArgumentEntry } | { problem: string } {
  const location = stringOr(p.in) ?? 'query';
  const name = stringOr(p.name) ?? property;
  const content = parameterContent(p);
  if (content !== null) {
    if ('problem' in content) return content;
    // Serialized by its media type, so no style, explode or allowReserved applies (OpenAPI: those go with `schema`).
    return { entry: { in: location, ...(name === property ? {} : { name }), content: content.type } };
  }
  // swagger2openapi marks a Swagger 2.0 collectionFormat that no OpenAPI 3 style of this location holds, and drops it.
  const lost =
    stringOr(p['x-collectionFormat']) ?? /collectionFormat:(\w+)/.exec(stringOr(p['x-s2o-warning']) ?? '')?.[1];
  if (lost !== undefined)
    return {
      problem: `has Swagger 2.0 collectionFormat ${quote(lost)}, which no OpenAPI style holds in the ${location}`,
    };
  const style = stringOr(p.style) ?? defaultStyle(location);
  if (!(stylesOf[location] ?? []).includes(style))
    return { problem: `has style ${quote(style)}, which mcp-gen cannot encode in the ${location}` };
  const entry: Record<string, unknown> = { in: location };
  if (name !== property) entry.name = name;
  if (style !== defaultStyle(location)) entry.style = style;
  if (typeof p.explode === 'boolean' && p.explode !== (style === 'form')) entry.explode = p.explode;
  if (p.allowReserved === true && location === 'query') entry.allowReserved = true;
  return { entry: Object.keys(entry).length === 1 ? location : entry };
}

/**
 * The media type and schema of a parameter described by `content` (a map of one media type) rather than `schema`:
 * its value is that type's text, percent-encoded where its location needs. A binding writes JSON only; any other
 * type, or a map of none or several, is the reason mcp-gen cannot send it. Null for a parameter with a `schema`.
 */
export function parameterContent(p: Raw): { type: string; schema: Raw } | { problem: string } | null {
  if (isRecord(p.schema) || !isRecord(p.content)) return null;
  const types = Object.keys(p.content);
  const [type] = types;
  if (type === undefined) return { problem: 'has content with no media type, so mcp-gen cannot tell how to encode it' };
  if (types.length > 1)
    return {
      problem:
        `has content in ${types.length} media types (${types.map(quote).join(', ')}), where OpenAPI allows one, so ` +
        'mcp-gen cannot tell which encodes it',
    };
  const location = stringOr(p.in) ?? 'query';
  if (bodyKind(type) !== 'json')
    return { problem: `has content ${quote(type)}, which mcp-gen cannot encode in the ${location} (JSON only)` };
  const media = p.content[type];
  // No schema: any JSON value.
  return { type, schema: isRecord(media) && isRecord(media.schema) ? media.schema : {} };
}

/** The schema of a parameter's value: its `schema`, or its JSON `content`'s; null when it has neither. */
export function parameterSchema(p: Raw): Raw | null {
  if (isRecord(p.schema)) return p.schema;
  const content = parameterContent(p);
  return content !== null && 'schema' in content ? content.schema : null;
}

/**
 * The input property of parameter `name` in `location`: the name itself, or `<location>_<name>` when another
 * location's parameter already holds it (a path and a query `name`), numbered when even that is taken.
 */
export function propertyName(name: string, location: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const base = `${location}_${name}`;
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}_${n}`;
  return candidate;
}

/**
 * The input property of each parameter, named path parameters first, so that they keep their own names and a
 * query parameter of the same name becomes `query_<name>`.
 */
export function propertyNames(params: readonly Raw[]): Map<Raw, string> {
  const names = new Map<Raw, string>();
  const taken = new Set<string>();
  for (const p of [...params].sort((a, b) => Number(b.in === 'path') - Number(a.in === 'path'))) {
    const wire = stringOr(p.name);
    if (wire === undefined) continue;
    const name = propertyName(wire, stringOr(p.in) ?? 'query', taken);
    taken.add(name);
    names.set(p, name);
  }
  return names;
}

/**
 * The input properties of an operation's parameters (each schema from `schemaOf`), their `http.args` entries, the
 * required ones (path parameters always), and a line for each parameter mcp-gen cannot encode, which is left out.
 */
export function parameterInputs(params: readonly Raw[], schemaOf: (p: Raw) => Record<string, unknown>) {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const args = new Map<string, ArgumentEntry>();
  const problems: string[] = [];
  const named = propertyNames(params);
  // A path parameter left out: no request of the operation can be built, so the tool has no binding.
  let unbuilt = false;
  for (const p of params) {
    const name = named.get(p);
    if (name === undefined) continue;
    const wire = stringOr(p.name) ?? name;
    // OpenAPI: a header parameter named Accept or Content-Type "SHALL be ignored"; the binding sends both from the
    // operation's responses and body. (One named Authorization carries a credential: import sends it from config.)
    if (p.in === 'header' && ['accept', 'content-type'].includes(wire.toLowerCase())) {
      problems.push(
        `header parameter ${quote(wire)} is left out of the tool, as OpenAPI says of a header of that name: the ` +
          "binding sends the media types of the operation's body and answers",
      );
      continue;
    }
    const argument = argumentEntry(p, name);
    if ('problem' in argument) {
      problems.push(`parameter ${quote(wire)} ${argument.problem}; it is left out of the tool (write a handler)`);
      if (p.in === 'path') unbuilt = true;
      continue;
    }
    properties[name] = schemaOf(p);
    if (p.required === true || p.in === 'path') required.push(name);
    args.set(name, argument.entry);
  }
  return { properties, required, args, problems, unbuilt };
}

/** The request body's media type, as the binding sends it, its schema and what else the operation offers. */
export interface RequestMedia {
  readonly type: string;
  /** How a binding sends it; null: it cannot. */
  readonly kind: BodyKind | null;
  /** Whether a binding sends it as the spec says: JSON, a form, or one string of a text or bytes type. */
  readonly sendable: boolean;
  readonly schema: Raw | null;
  /** The `http.encoding` entries of a form or multipart body: only what differs from the defaults. */
  readonly encoding: Record<string, Record<string, unknown>>;
  /** What the binding does not send of the Encoding Object, one line per member. */
  readonly unsent: readonly string[];
  /** The members whose Swagger 2.0 collectionFormat the binding cannot send, each with its format. */
  readonly lost: readonly string[];
  readonly others: readonly string[];
}

const isJson = (type: string) => bodyKind(type) === 'json';
/** A form or multipart body: built from the members of the body object. */
const isForm = (type: string) => ['form', 'multipart'].includes(bodyKind(type) ?? '');

/**
 * The media type a binding sends of those `content` offers: `application/json`, else a JSON merge patch (the one a
 * model writes as the object it wants), else another JSON type, a form, one a binding can send (text or bytes), or
 * the first; the user may pick another by setting `http.body`.
 */
export function requestMedia(content: unknown, styledParts: boolean): RequestMedia | null {
  if (!isRecord(content)) return null;
  const types = Object.keys(content);
  const chosen =
    types.find((t) => t === 'application/json') ??
    types.find((t) => t === 'application/merge-patch+json') ??
    types.find(isJson) ??
    types.find(isForm) ??
    types.find((t) => bodyKind(t) !== null) ??
    types[0];
  if (chosen === undefined) return null;
  const media = content[chosen];
  const declared = isRecord(media) && isRecord(media.encoding) ? media.encoding : {};
  const schema = isRecord(media) && isRecord(media.schema) ? media.schema : null;
  const { encoding, unsent } = isForm(chosen)
    ? formEncoding(chosen, declared, styledParts)
    : { encoding: {}, unsent: [] };
  const lost = isForm(chosen) ? swaggerFormArrays(chosen, schema, declared, encoding) : [];
  const kind = bodyKind(chosen);
  // A text or bytes body is one string (no schema says the same); any other shape has no way onto the wire.
  const single = kind === 'text' || kind === 'bytes';
  return {
    type: chosen,
    kind,
    sendable: kind !== null && (!single || schema === null || schema.type === 'string'),
    schema,
    encoding,
    unsent,
    lost,
    others: types.filter((t) => t !== chosen && (isJson(t) || isForm(t))),
  };
}

/** A file, as a multipart member's schema says it: a binary string (OpenAPI 3.0's `format: binary`). */
const isFile = (schema: Raw | null): boolean => schema?.type === 'string' && schema.format === 'binary';

/** A file member's schema as the tool takes it: the bytes as base64 text, which a model can write. */
function base64File(schema: Raw): Raw {
  const { format: _binary, ...rest } = schema;
  const said = stringOr(schema.description);
  return {
    ...rest,
    contentEncoding: 'base64',
    description: `${said === undefined ? '' : `${said} `}(the file's bytes, base64)`,
  };
}

/**
 * A multipart body's schema with each file member (or array of them) as base64 text, whose bytes the binding sends as
 * the part; `schema` itself when it has none. A member that stayed `format: binary` would be sent as the text a model
 * wrote for it.
 */
export function multipartFiles(schema: Raw, follow: (value: unknown) => Raw | null): Raw {
  const object = follow(schema);
  if (object === null || !isRecord(object.properties)) return schema;
  let files = 0;
  const properties: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(object.properties)) {
    const member = follow(raw);
    const items = member?.type === 'array' ? follow(member.items) : null;
    if (member !== null && isFile(member)) properties[name] = base64File(member);
    else if (member !== null && items !== null && isFile(items))
      properties[name] = { ...member, items: base64File(items) };
    else properties[name] = raw;
    if (properties[name] !== raw) files += 1;
  }
  return files === 0 ? schema : { ...object, properties };
}
