/**
 * Every identifier that appears in generated code is derived here, once, from
 * a manifest name. Emitters and templates never convert case themselves.
 */

const reservedWords = new Set(
  (
    'await break case catch class const continue debugger default ' +
    'delete do else enum export extends false finally for ' +
    'function if implements import in instanceof interface let ' +
    'new null package private protected public return static ' +
    'super switch this throw true try typeof var void while with yield arguments eval undefined NaN Infinity'
  ).split(' '),
);

/** The manifest's convention for tool, resource and prompt names; other names MCP allows are accepted too. */
export const snakeCasePattern = /^[a-z][a-z0-9_]*$/;

/**
 * The words of a name: split at `_`, `-`, `.` and `:`, and where a capital
 * starts a word (`printEnv` -> print, Env; `HTTPServer` -> HTTP, Server).
 * Never empty: a name with no letter or digit (`-`) is one word of its
 * character codes (`x2d`), so every derivation below is total.
 */
function words(name: string): string[] {
  const found = name
    .split(/[_\-.:]+/)
    .flatMap((part) => part.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/))
    .filter((w) => w !== '');
  return found.length > 0 ? found : [`x${[...name].map((c) => c.charCodeAt(0).toString(16)).join('')}`];
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** An identifier never starts with a digit: `2fa` -> `_2fa`. */
function identifierStart(identifier: string): string {
  return /^[0-9]/.test(identifier) ? `_${identifier}` : identifier;
}

/** The first word in lower case, the others capitalised: `get-sum` and `getSum` -> `getSum`. */
function camelWords(name: string): string {
  const [first = '', ...rest] = words(name);
  return identifierStart(first.toLowerCase() + rest.map(capitalize).join(''));
}

/**
 * `search_notes` -> `SearchNotes`, `printEnv` -> `PrintEnv`, `get-sum` -> `GetSum`; a letter after a digit is a
 * capital (`io.k8s.api.v1alpha1.Rule` -> `IoK8SApiV1Alpha1Rule`), as json-schema-to-typescript writes the names it
 * declares, so a type is declared and used under one name.
 */
export function pascalCase(name: string): string {
  return identifierStart(words(name).map(capitalize).join('')).replace(/\d[a-z]/g, (m) => m.toUpperCase());
}

/**
 * Type names that types.gen.ts declares or imports itself: a shared schema, tool, resource or prompt type of the
 * same name is the error type-name-collision, and import names no shared schema so.
 */
export const reservedTypeNames: ReadonlySet<string> = new Set([
  'Config',
  'Services',
  ...['Tool', 'Resource', 'Prompt'].flatMap((kind) => [
    `${kind}Types`,
    `${kind}Name`,
    `${kind}Handlers`,
    `${kind}Handler`,
    `${kind}Completions`,
    `${kind}CompleteHandlers`,
    `${kind}CompleteHandler`,
  ]),
  'ToolContext',
  'BoundTool',
  'ResourceListName',
  'ResourceListHandlers',
  'ResourceListHandler',
  'HandleIssuers',
  'HandlerContext',
  'PromptReply',
  'ResourceReply',
  'ToolContent',
  'ToolSdkResult',
  'CompletionReply',
  'ListPage',
  'ListRequest',
  'Handle',
  'HandleIssuer',
  'Verified',
  // Global types the generated modules name.
  ...['Record', 'Promise', 'Partial', 'Readonly', 'Awaited', 'ReturnType', 'Array', 'ReadonlyArray', 'Omit'],
]);

/** `search_notes` -> `searchNotes`; a reserved word gets a trailing `_` (`delete` -> `delete_`). */
export function camelCase(name: string): string {
  const identifier = camelWords(name);
  return reservedWords.has(identifier) ? `${identifier}_` : identifier;
}

/**
 * The constant a handler file exports: `append_to_draft` -> `appendToDraftHandler`. The suffix keeps the
 * tool's natural camelCase name free for the domain function the handler calls (`appendToDraft`).
 */
export function handlerExport(name: string): string {
  return `${camelWords(name)}Handler`;
}

/**
 * Device names Windows reserves in every folder, whatever the extension and case: `con.ts` cannot be
 * created or opened there as a file.
 */
const windowsDeviceNames = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/**
 * The file name (without `.ts`) of a handler: a snake_case name is its own
 * file name (`search_notes`), any other name its words in lower-case
 * kebab-case (`get-sum` -> `get-sum`, `printEnv` -> `print-env`), so that two
 * handler files never differ only in case. A Windows device name gets a
 * trailing `_` (`con` -> `con_`), so the project checks out on every system.
 */
export function fileStem(name: string): string {
  const stem = snakeCasePattern.test(name) ? name : words(name).join('-').toLowerCase();
  return windowsDeviceNames.test(stem) ? `${stem}_` : stem;
}

/**
 * What a manifest name becomes in a generated project, by what a diagnostic
 * calls it. Two names of one kind must differ in each (`name-collision`), and
 * an import renames a wire name that would not.
 */
export function derivedNames(name: string): readonly (readonly [string, string])[] {
  return [
    ['identifier', camelCase(name)],
    ['type name', pascalCase(name)],
    ['handler file name', `${fileStem(name)}.ts`],
  ];
}

/** The snake_case form of a name, for rules that read words: `deleteItem` and `delete-item` -> `delete_item`. */
export function snakeCase(name: string): string {
  return words(name).join('_').toLowerCase();
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
