/**
 * Every identifier that appears in generated code is derived here, once, from
 * a manifest name. Emitters and templates never convert case themselves.
 */

const reservedWords = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if implements import in instanceof interface let new null package private protected public return static ' +
    'super switch this throw true try typeof var void while with yield arguments eval undefined NaN Infinity'
  ).split(' '),
);

function words(name: string): string[] {
  return name.split(/[_\-.:]+/).filter((w) => w !== '');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `search_notes` -> `SearchNotes`. */
export function pascalCase(name: string): string {
  return words(name).map(capitalize).join('');
}

/** `search_notes` -> `searchNotes`; a reserved word gets a trailing `_` (`delete` -> `delete_`). */
export function camelCase(name: string): string {
  const [first = '', ...rest] = words(name);
  const identifier = first + rest.map(capitalize).join('');
  return reservedWords.has(identifier) ? `${identifier}_` : identifier;
}

/**
 * The constant a handler file exports: `append_to_draft` -> `appendToDraftHandler`. The suffix keeps the
 * tool's natural camelCase name free for the domain function the handler calls (`appendToDraft`).
 */
export function handlerExport(name: string): string {
  const [first = '', ...rest] = words(name);
  return `${first}${rest.map(capitalize).join('')}Handler`;
}

/** `NOTES` style prefix for environment variables: `team-notes` -> `TEAM_NOTES`. */
export function envPrefix(serverName: string): string {
  return serverName.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/** A best-effort valid manifest name for a suggestion in a hint: `Get Weather` -> `get_weather`. */
export function suggestName(raw: string): string {
  const cleaned = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, 64);
  return cleaned === '' ? 'name' : cleaned;
}
