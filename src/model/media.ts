/**
 * How a binding sends a request body of each media type (`http.body`) and reads an answer (`http.accept`): the one
 * classification the manifest schema, validation, the import and the emitted binding share.
 */

/** `json` as JSON, `form` and `multipart` from the body's members, `text` a string as it is, `bytes` base64 decoded. */
export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'bytes';

/** RFC 9110 token characters: a type, a subtype, a parameter's name or plain value. */
const token = "[A-Za-z0-9!#$%&'+.^_`|~-]+";
/** Parameters after a type (`;version=2018-01-01`, `; charset="utf-8"`); a quoted value holds no comma. */
const parameters = `( *; *${token}=(${token}|"[^",\\\\]*"))*`;

/** A media type without wildcards: `type/subtype`, and parameters sent as written (`application/json;version=2`). */
export const mediaTypePattern = `^${token}/${token}${parameters}$`;

const jsonType = /^[a-z]+\/([^\s;/]+\+)?json$/i;
/** Text that is not `text/*` (XML of any kind, SVG too): what a model writes and reads as a string. */
const textTypes =
  /^(text\/.+|[^\s;/]+\/[^\s;/]+\+xml|application\/((x-)?yaml|xml|jwt|sql|graphql|javascript|x-ndjson))$/i;

const mediaType = new RegExp(mediaTypePattern);

/** Whether `media` is one media type (parameters allowed), not a range (`image/*`) or a list, as a Content-Type. */
export const isMediaType = (media: string): boolean => mediaType.test(media);

/** The type without its parameters, in lower case. */
const essenceOf = (media: string): string => (media.split(';')[0] ?? '').trim().toLowerCase();

/**
 * The kind of body `media` is; null for one a binding cannot send: a wildcard type, nothing, a multipart type other
 * than a form (its parts and boundary are the API's own), or a form type not in lower case or with parameters.
 */
export function bodyKind(media: string): BodyKind | null {
  if (!mediaType.test(media)) return null;
  const essence = essenceOf(media);
  if (jsonType.test(essence)) return 'json';
  if (media === 'application/x-www-form-urlencoded') return 'form';
  if (media === 'multipart/form-data') return 'multipart';
  // The runtime builds a form from the body's members only for these two as written; another case of either would
  // be sent as the members' JSON text under a form's type.
  if (essence === 'application/x-www-form-urlencoded' || essence.startsWith('multipart/')) return null;
  return textTypes.test(essence) ? 'text' : 'bytes';
}

/** What an answer is read as (`http.accept`, and the runtime by each answer's own type): JSON, text or bytes. */
export type AnswerKind = 'json' | 'text' | 'bytes';

/** One media range an Accept header lists: `type/subtype`, `type/*` or `*\/*`, with parameters. */
const mediaRange = `(\\*/\\*|${token}/(\\*|${token}))${parameters}`;
/** `http.accept`: media ranges separated by commas, as an Accept header writes them. */
export const mediaRangesPattern = `^${mediaRange}( *, *${mediaRange})*$`;

/**
 * What an answer of the media range `media` (parameters aside) is read as: `*\/*` as JSON (the usual answer of an
 * API that documents no type), a text range or type (or a form, as OAuth token endpoints answer) as text, any other
 * as bytes.
 */
export function answerKind(media: string): AnswerKind {
  const essence = essenceOf(media);
  if (essence === '*/*' || jsonType.test(essence)) return 'json';
  return essence === 'application/x-www-form-urlencoded' || textTypes.test(essence) ? 'text' : 'bytes';
}
