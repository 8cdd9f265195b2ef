/**
 * The wire form of a bound tool's arguments, by the OpenAPI Specification's serialization rules (Parameter Object
 * `style` and `explode`, Encoding Object): path (`simple`, `label`, `matrix`), query (`form`, `spaceDelimited`,
 * `pipeDelimited`, `deepObject`), header (`simple`) and cookie (`form`) values, and the members of form and multipart
 * bodies. Pure functions of the binding and the value; shipped only with a bound tool.
 *
 * Where the specification defines nothing, one convention, the bracket form Stripe and most form-encoded APIs read:
 * `deepObject` nests (`a[b][c]=v`) and numbers array items (`a[0]=v`), and a form body member that is an object, or an
 * array holding objects or arrays, is sent that way unless its Encoding Object names another style.
 */
import type { ArgumentSpec, FieldEncodingSpec, ParameterStyle } from './upstream-spec.gen.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A scalar as text; null is empty, and an object or array nested where a style has no place for it is JSON. */
export const scalarText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/** Lone surrogates, which no UTF-8 encoding holds: sent as U+FFFD. */
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Escapes of the RFC 3986 reserved characters, except `#` (a request target has no fragment). */
const reservedEscapes = /%(3A|2F|3F|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/g;

/**
 * `text` as UTF-8 with every byte but the unreserved characters percent-encoded; with `reserved` (`allowReserved`),
 * the reserved characters and existing `%XX` escapes are kept as they are.
 */
export function percentEncode(text: string, reserved = false): string {
  const encoded = encodeURIComponent(text.replace(loneSurrogates, '\uFFFD')).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  if (!reserved) return encoded;
  return encoded
    .replace(reservedEscapes, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
}

type Encode = (text: string) => string;

/** The defined members of an object, in its order. */
const members = (value: Record<string, unknown>) => Object.entries(value).filter(([, v]) => v !== undefined);

/** An array's items or an object's `key<pair>value` members joined by `separator`; a scalar alone. */
function joined(value: unknown, separator: string, pair: string, encode: Encode): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalarText(item))).join(separator);
  if (isObject(value))
    return members(value)
      .map(([k, v]) => `${encode(k)}${pair}${encode(scalarText(v))}`)
      .join(separator);
  return encode(scalarText(value));
}

/** The default style of each location (OpenAPI: `form` for query and cookie, `simple` for path and header). */
export const defaultStyle = (location: string): ParameterStyle =>
  location === 'path' || location === 'header' ? 'simple' : 'form';

/** The expansion of a path argument, each value percent-encoded, so no value brings a `/` of its own. */
export function pathText(arg: ArgumentSpec, value: unknown): string {
  const style = arg.style ?? 'simple';
  const explode = arg.explode ?? false;
  const name = percentEncode(arg.wire ?? arg.name);
  const e: Encode = (t) => percentEncode(t);
  if (style === 'label') return `.${explode ? joined(value, '.', '=', e) : joined(value, ',', ',', e)}`;
  if (style === 'matrix') {
    if (!explode) {
      const list = joined(value, ',', ',', e);
      return list === '' ? `;${name}` : `;${name}=${list}`;
    }
    if (Array.isArray(value)) return value.map((item) => `;${name}=${e(scalarText(item))}`).join('');
    if (isObject(value)) return matrixMembers(value);
    const one = e(scalarText(value));
    return one === '' ? `;${name}` : `;${name}=${one}`;
  }
  return explode ? joined(value, ',', '=', e) : joined(value, ',', ',', e);
}

/** `;key=value` for each member of an exploded matrix object. */
const matrixMembers = (value: Record<string, unknown>): string =>
  members(value)
    .map(([k, v]) => `;${percentEncode(k)}=${percentEncode(scalarText(v))}`)
    .join('');

/** The bracket form of `value` under `key`: `key[member]=v`, `key[0]=v`, nested as deep as the value goes. */
function brackets(key: string, value: unknown, encode: Encode): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => brackets(`${key}[${i}]`, item, encode));
  if (isObject(value)) return members(value).flatMap(([k, v]) => brackets(`${key}[${encode(k)}]`, v, encode));
  return [`${key}=${encode(scalarText(value))}`];
}

/** How a query or form value is serialized. */
interface QueryEncoding {
  readonly style?: ParameterStyle | undefined;
  readonly explode?: boolean | undefined;
  readonly allowReserved?: boolean | undefined;
}

/** The `name=value` pairs of a query (or form body) value under `name`, in order, each part percent-encoded. */
export function queryPairs(name: string, value: unknown, encoding: QueryEncoding): string[] {
  const style = encoding.style ?? 'form';
  const explode = encoding.explode ?? style === 'form';
  const e: Encode = (t) => percentEncode(t, encoding.allowReserved === true);
  const key = percentEncode(name);
  if (style === 'deepObject') return brackets(key, value, e);
  const scalar = !Array.isArray(value) && !isObject(value);
  if (scalar) return [`${key}=${e(scalarText(value))}`];
  if (explode)
    return Array.isArray(value)
      ? value.map((item) => `${key}=${e(scalarText(item))}`)
      : members(value as Record<string, unknown>).map(([k, v]) => `${e(k)}=${e(scalarText(v))}`);
  const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
  return [`${key}=${joined(value, separator, separator, e)}`];
}

/** A header argument's value (`simple`); headers are not percent-encoded. */
export function headerText(arg: ArgumentSpec, value: unknown): string {
  const same: Encode = (t) => t;
  return arg.explode === true ? joined(value, ',', '=', same) : joined(value, ',', ',', same);
}

/** The `name=value` cookies of a cookie argument (`form`); exploded arrays and objects are one cookie per item. */
export function cookiePairs(arg: ArgumentSpec, value: unknown): string[] {
  const name = arg.wire ?? arg.name;
  const e: Encode = (t) => percentEncode(t);
  if (arg.explode === false || (!Array.isArray(value) && !isObject(value)))
    return [`${name}=${joined(value, ',', ',', e)}`];
  if (Array.isArray(value)) return value.map((item) => `${name}=${e(scalarText(item))}`);
  // A member's name is data too: encoded, it cannot end the cookie or start another.
  return members(value as Record<string, unknown>).map(([k, v]) => `${e(k)}=${e(scalarText(v))}`);
}

/** Whether a form member without a style of its own is sent in the bracket form: an object, or an array of them. */
const nested = (value: unknown): boolean =>
  isObject(value) || (Array.isArray(value) && value.some((item) => isObject(item) || Array.isArray(item)));

/**
 * An `application/x-www-form-urlencoded` body: each member by its Encoding Object, else `form` (brackets nested); a
 * space is `+`, as the form encoding writes it.
 */
export function formBody(body: Record<string, unknown>, encoding: Readonly<Record<string, FieldEncodingSpec>>): string {
  return members(body)
    .flatMap(([name, value]) => {
      const own = encoding[name] ?? {};
      const style = own.style ?? (nested(value) ? 'deepObject' : 'form');
      return queryPairs(name, value, { ...own, style });
    })
    .join('&')
    .replace(/%20/g, '+');
}

/** A multipart part's name or file name as a quoted-string (CR, LF and `"` escaped as HTML forms do). */
const quotedName = (name: string) => `"${name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;

/**
 * A `multipart/form-data` body: one part per member (an array, one part per item); an object as an
 * `application/json` part, a scalar as text, bytes (a file, `encoding.<member>.bytes`) as themselves with a file
 * name and `application/octet-stream`, unless the member's Encoding Object names the content type.
 */
export function multipartBody(
  body: Record<string, unknown>,
  encoding: Readonly<Record<string, FieldEncodingSpec>>,
  boundary: string,
): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  const text = (t: string) => chunks.push(Buffer.from(t));
  for (const [name, value] of members(body))
    for (const item of Array.isArray(value) ? value : [value]) {
      const file = item instanceof Uint8Array;
      const type =
        encoding[name]?.contentType ??
        (file ? 'application/octet-stream' : typeof item === 'object' && item !== null ? 'application/json' : null);
      // A file's part names a file too (RFC 7578, 4.2): many servers read a part without one as a text field.
      const named = file ? `; filename=${quotedName(name)}` : '';
      const head = `Content-Disposition: form-data; name=${quotedName(name)}${named}`;
      text(`--${boundary}\r\n${head}\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}\r\n`);
      if (file) chunks.push(item);
      else text(scalarText(item));
      text('\r\n');
    }
  text(`--${boundary}--\r\n`);
  return new Uint8Array(Buffer.concat(chunks));
}
