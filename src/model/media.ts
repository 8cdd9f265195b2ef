/**
 * How a binding sends a request body of each media type (`http.body`): the one classification the manifest
 * schema, validation, the import and the emitted binding share.
 */

/** `json` as JSON, `form` and `multipart` from the body's members, `text` a string as it is, `bytes` base64 decoded. */
export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'bytes';

/** A media type without parameters or wildcards: `type/subtype` of RFC 9110 token characters but `*`. */
export const mediaTypePattern = "^[A-Za-z0-9!#$%&'+.^_`|~-]+/[A-Za-z0-9!#$%&'+.^_`|~-]+$";

const jsonType = /^[a-z]+\/([^\s;/]+\+)?json$/i;
/** Text that is not `text/*`: what a model writes as a string and the API reads as it is. */
const textTypes = /^(text\/.+|application\/((x-)?yaml|([^\s;/]+\+)?xml|jwt|sql|graphql|javascript|x-ndjson))$/i;

const mediaType = new RegExp(mediaTypePattern);

/**
 * The kind of body `media` is; null for one a binding cannot send: a wildcard type, parameters, nothing, a
 * multipart type other than a form (its parts and boundary are the API's own), or a form type not in lower case.
 */
export function bodyKind(media: string): BodyKind | null {
  if (!mediaType.test(media)) return null;
  const lower = media.toLowerCase();
  if (jsonType.test(lower)) return 'json';
  if (media === 'application/x-www-form-urlencoded') return 'form';
  if (media === 'multipart/form-data') return 'multipart';
  // The runtime builds a form from the body's members only for these two as written; another case of either would
  // be sent as the members' JSON text under a form's type.
  if (lower === 'application/x-www-form-urlencoded' || lower.startsWith('multipart/')) return null;
  return textTypes.test(lower) ? 'text' : 'bytes';
}
