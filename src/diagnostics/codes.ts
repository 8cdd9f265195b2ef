/**
 * The diagnostic catalog: every code mcp-gen can report, with a title, the
 * usual cause and the fix. `docs/diagnostics.md` is written from this table
 * and a test fails if a code here has no fixture that triggers it.
 */

import { protocolVersion } from '../model/defaults.js';
import type { CodeInfo } from './code-info.js';
import { generateCodes } from './codes-generate.js';
import { limitCodes } from './codes-limits.js';
import { contextCodes } from './codes-context.js';
import { targetCodes } from './codes-targets.js';
import { reviewCodes } from './codes-review.js';

export type { CodeInfo } from './code-info.js';

const manifestCodes = {
  // --- load: reading and parsing the file ---
  'manifest-unreadable': {
    severity: 'error',
    title: 'Manifest cannot be read',
    cause: 'The manifest path does not exist, is a directory, or is not readable.',
    fix: 'Pass the path of an existing YAML file, or run the command where `mcp.yaml` lives.',
  },
  'manifest-not-text': {
    severity: 'error',
    title: 'Manifest is not text',
    cause: 'The file holds a NUL byte or bytes that are not UTF-8: a binary file, or text saved in another encoding.',
    fix: 'Pass the path of the YAML manifest, saved as UTF-8. The offending bytes are never printed.',
  },
  'yaml-syntax': {
    severity: 'error',
    title: 'YAML syntax error',
    cause: 'The file is not well-formed YAML (bad indentation, unclosed quote or bracket, tab indentation).',
    fix:
      'Fix the YAML at the reported position; nothing else is checked until the file parses. Only the first ' +
      'syntax error is reported, with a hint for a tab, a missing colon, an unclosed bracket or bad indentation; ' +
      'the parser errors after it usually follow from it, so they are only counted.',
  },
  'yaml-duplicate-key': {
    severity: 'error',
    title: 'Duplicate key',
    cause: 'The same key appears twice in one mapping; YAML would silently keep only one of them.',
    fix: 'Remove or rename one of the two keys.',
  },
  'yaml-alias-limit': {
    severity: 'error',
    title: 'Too many alias expansions',
    cause: 'Aliases (`*name`) expand to more nodes than allowed, the shape of a "billion laughs" attack.',
    fix: 'Write the values out instead of nesting aliases; a manifest needs few or none.',
  },
  'manifest-not-mapping': {
    severity: 'error',
    title: 'Manifest is not a mapping',
    cause: 'The document is empty, a list or a scalar instead of a mapping of keys.',
    fix: 'Start from `mcp-gen init` or the reference manifest in `docs/manifest.md`.',
  },
  // --- schema: shape of the manifest ---
  'manifest-version': {
    severity: 'error',
    title: 'Unknown manifest language version',
    cause: '`mcpGen` is missing or is not a version this mcp-gen understands.',
    fix: 'Set `mcpGen: 1` as the first line of the manifest.',
  },
  'unknown-key': {
    severity: 'error',
    title: 'Unknown key',
    cause: 'A key that the manifest language does not define, often a typo.',
    fix: 'Use the suggested key, or remove it. `docs/manifest.md` lists every key.',
  },
  'missing-key': {
    severity: 'error',
    title: 'Required key missing',
    cause: 'A key that must be present is absent.',
    fix: 'Add the key named in the message.',
  },
  'wrong-type': {
    severity: 'error',
    title: 'Value has the wrong type',
    cause: 'A value is, for example, a number where a string or a mapping is expected.',
    fix: 'Write the value in the expected type; quote strings that YAML would read as numbers or booleans.',
  },
  'enum-value': {
    severity: 'error',
    title: 'Value is not one of the allowed values',
    cause: 'A key with a fixed set of values (such as `auth.type` or `protocol.legacy`) has another value.',
    fix: 'Use one of the values listed in the message.',
  },
  'value-format': {
    severity: 'error',
    title: 'Value does not match the expected format',
    cause: 'A string (an env var name, an HTTP path, a MIME type) does not match its pattern.',
    fix: 'Follow the pattern given in the message.',
  },
  'value-range': {
    severity: 'error',
    title: 'Value is out of range',
    cause: 'A number or a list length is outside the allowed bounds (a port above 65535, an empty list).',
    fix: 'Use a value inside the bounds given in the message.',
  },
  'name-format': {
    severity: 'error',
    title: 'Invalid name',
    cause:
      'A tool, resource, prompt or argument name is not one MCP allows (1 to 128 characters of `A-Z a-z 0-9 _ - .`), ' +
      'or a handle or scope name does not match its pattern.',
    fix:
      'Use letters, digits, `_`, `-` and `.`; the convention is snake_case (`get_weather`). ' +
      'Handle kinds: lower case letters, digits and `_`, starting with a letter, at most 64 characters.',
  },
  'server-name-format': {
    severity: 'error',
    title: 'Invalid server name',
    cause: '`server.name` must match `^[a-z][a-z0-9-]*$`; it becomes `serverInfo.name` and the package name.',
    fix: 'Use lower case letters, digits and `-`, starting with a letter.',
  },
  'registry-description': {
    severity: 'error',
    title: 'Registry entry needs a short description',
    cause:
      'With a `registry` key, `server.json` takes `server.description`, ' +
      'and the MCP registry accepts 1 to 100 characters.',
    fix: 'Write a `server.description` of at most 100 characters (the longer text can go to `server.instructions`).',
  },
  'server-version-format': {
    severity: 'error',
    title: 'Server version is not semver',
    cause: '`server.version` must be a semantic version such as `1.2.3`.',
    fix: 'Write the version as `MAJOR.MINOR.PATCH`, quoted if YAML would read it as a number.',
  },
  'duration-format': {
    severity: 'error',
    title: 'Invalid duration',
    cause: 'A `ttl` is not a whole number followed by `ms`, `s`, `m`, `h` or `d`.',
    fix: 'Write durations like `500ms`, `90s`, `15m`, `2h`, or use the `ttlMs` key with milliseconds.',
  },
  'duration-conflict': {
    severity: 'error',
    title: 'Both `ttl` and `ttlMs` given',
    cause: 'A duration is given twice, once as text and once in milliseconds.',
    fix: 'Keep only one of `ttl` and `ttlMs`.',
  },
  // --- semantic rules ---
  'name-collision': {
    severity: 'error',
    title: 'Names collide after case conversion',
    cause:
      'Two names of the same kind become the same TypeScript identifier, type name or handler file ' +
      '(`get_item2` and `get_item_2` are both `getItem2`; `get-sum`, `get_sum` and `getSum` are all `getSum`).',
    fix: 'Rename one of them so that the generated identifiers and files differ.',
  },
  'protocol-version-unsupported': {
    severity: 'error',
    title: 'Protocol version not implemented',
    cause: '`protocol.versions` lists a revision that generated servers do not implement.',
    fix: `List only implemented revisions (\`${protocolVersion}\`); older clients are answered by \`protocol.legacy\`.`,
  },
  'protocol-version-duplicate': {
    severity: 'error',
    title: 'Protocol version listed twice',
    cause: 'The same revision appears twice in `protocol.versions`.',
    fix: 'List each revision once.',
  },
  'http-public-without-auth': {
    severity: 'error',
    title: 'Non-loopback HTTP host without authorization',
    cause:
      '`transports.http.host` is reachable from other machines but ' +
      '`auth.type` is `none`, so anyone on the network could call every tool.',
    fix: 'Bind to `127.0.0.1`, or set `auth.type` to `bearer` or `oauth`.',
  },
  'bearer-wildcard-without-resource': {
    severity: 'error',
    title: 'Bearer auth on a wildcard host without a public URL',
    cause:
      '`transports.http.host` is a wildcard address (`0.0.0.0`, `::`) and `auth.type` is `bearer` without ' +
      '`auth.resource`. The protected-resource metadata and every 401 challenge name the public URL, which is ' +
      'then where the server listens, and no client can use a wildcard address; it is never taken from the ' +
      "request's `Host` header, which any client chooses.",
    fix: 'Set `auth.resource` to the public URL of the MCP endpoint, e.g. `https://mcp.example.com/mcp`.',
  },
  'origin-malformed': {
    severity: 'error',
    title: 'Malformed allowed origin',
    cause: 'An `allowedOrigins` entry is not an origin (`scheme://host[:port]`, no path, no trailing slash).',
    fix: 'Write the origin exactly as a browser sends it, e.g. `http://localhost:6274`.',
  },
  'url-malformed': {
    severity: 'error',
    title: 'Malformed URL',
    cause: 'An OAuth URL is not an absolute `https://` URL (plain `http://` is allowed only for loopback hosts).',
    fix: 'Write the full URL, e.g. `https://auth.example.com`.',
  },
  'config-name-taken': {
    severity: 'error',
    title: 'Config variable named like a runtime variable',
    cause:
      'A `config` entry has the name of a variable the runtime reads itself (the signing keys, `auth.tokensEnv`, ' +
      '`store.urlEnv`), or starts with `MCP_GEN_`.',
    fix: 'Give it a name of its own; the runtime variables are listed beside it in the README and `.env.example`.',
  },
  'upstream-unknown-variable': {
    severity: 'error',
    title: 'Upstream names an undeclared config variable',
    cause:
      "`upstream.baseUrl`, a tool's `http.baseUrl` or a credential key names a variable `config` does not declare.",
    fix: 'Declare the variable under `config` (a credential as `secret: true`, `required: false`).',
  },
  'upstream-credential-incomplete': {
    severity: 'error',
    title: 'Upstream credential without what its type needs',
    cause:
      'A `bearer` credential needs `token`, `apiKey` needs `name` and `value`, `basic` needs `username` and ' +
      '`password`, `oauth2` needs `tokenUrl`, `clientId` and `clientSecret`.',
    fix: 'Add the missing key, naming the config variable that holds the value.',
  },
  'http-unknown-credential': {
    severity: 'error',
    title: 'Binding security names an undeclared credential',
    cause: 'A name in `http.security` is not a key of `upstream.credentials`.',
    fix: 'Declare the credential under `upstream.credentials`, or correct the name.',
  },
  'http-without-upstream': {
    severity: 'error',
    title: 'HTTP binding without upstream',
    cause: 'A tool declares `http:` but the manifest has no `upstream:` to send the request to.',
    fix: 'Add `upstream: { baseUrl: <config variable> }`.',
  },
  'http-path-parameter': {
    severity: 'error',
    title: 'Path parameter and path argument disagree',
    cause:
      'A `{name}` of the path template is not an input property mapped to `path`, or a `path` argument has no ' +
      'placeholder in the template.',
    fix: 'Map each placeholder to an input property with `args: { name: path }`, and only those.',
  },
  'http-argument-style': {
    severity: 'error',
    title: 'Parameter style its location does not take',
    cause:
      'An `http.args` entry names a `style` the OpenAPI Specification does not define for its location (path: ' +
      '`simple`, `label`, `matrix`; query and form fields: `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`; ' +
      'header: `simple`; cookie: `form`), or a body argument has a style.',
    fix: "Use a style of the argument's location, or drop `style` for the location's default.",
  },
  'http-encoding': {
    severity: 'error',
    title: 'Body member encoding a binding does not send',
    cause:
      'An `http.encoding` entry gives a part a `contentType` that is a range or a list (`image/*`, ' +
      '`image/png, image/jpeg`), which would be sent as the Content-Type as written; a `contentType` to a member ' +
      'of a form, which is sent by style; or a `style`, `explode` or `allowReserved` to a part of a multipart ' +
      'body, which is sent as its value, an array one part per item; or an `http.encoding` at all on a body ' +
      'that is neither a form nor multipart (JSON, text, bytes), whose members are never encoded one by one.',
    fix:
      'Name the one media type the API takes; keep `contentType` to multipart parts and the style keys to form ' +
      'members, and `encoding` to form and multipart bodies; write a handler if the API reads another encoding.',
  },
  'http-argument-content': {
    severity: 'error',
    title: 'Argument content a binding cannot send',
    cause:
      'An `http.args` entry names a `content` media type that is not JSON (a binding sends a `content` argument as ' +
      'its JSON text), puts a `content` argument in the body or a field, or gives it a `style`, `explode` or ' +
      '`allowReserved`, which apply to values serialized by style only.',
    fix:
      'Name a JSON media type (`application/json`, `application/*+json`) for a path, query, header or cookie ' +
      'argument, and drop the style keys; or drop `content` and serialize the value by style.',
  },
  'http-body-media': {
    severity: 'error',
    title: 'Request body its media type cannot carry',
    cause:
      '`http.body` names a media type no binding can send (a wildcard, a multipart type other than ' +
      '`multipart/form-data`, a form type with parameters), or a text or bytes type whose arguments are not one ' +
      'string: the `body` argument must be a string (bytes: `contentEncoding: base64`), and no argument may be ' +
      'a `field`.',
    fix: 'Give the body argument the string schema its media type needs, or name another media type.',
  },
  'http-accept-output': {
    severity: 'error',
    title: 'Answer its output schema cannot hold',
    cause:
      '`http.accept` asks only for media types that are not JSON (text, images, PDF, ...), but the tool has an ' +
      "output schema and `result: body`, which returns the answer's JSON object: every call would fail.",
    fix:
      "Drop `output` (a text answer is the tool's text, a binary one an image, audio or resource block), set " +
      '`http.result: wrap` with a string `result`, or ask for JSON.',
  },
  'http-unknown-argument': {
    severity: 'error',
    title: 'HTTP argument that is not an input property',
    cause: "An `http.args` entry names a property the tool's input does not have.",
    fix: 'Name an input property, or drop the entry.',
  },
  'config-default-type': {
    severity: 'error',
    title: 'Config default of the wrong type',
    cause: "A `config` default is not a value of the variable's `type` (an integer, a number, a boolean, a URL).",
    fix: 'Write the default as a value of that type, e.g. `default: 20` for an integer, or change `type`.',
  },
  'config-required-default': {
    severity: 'error',
    title: 'Required config variable with a default',
    cause: 'A `config` entry says `required: true` and gives a `default`, which could never be used.',
    fix: 'Drop the default, or drop `required: true`: a variable with a default is optional.',
  },
  'config-secret-default': {
    severity: 'error',
    title: 'Secret with a default',
    cause:
      'A `secret: true` config variable has a `default`: the manifest is committed, its defaults appear in the ' +
      'README, and the default is compiled into dist/server.mjs, so the secret would not be one.',
    fix:
      'Drop the default and set the value in the environment only; for a value that is no secret in development ' +
      '(a local database password), opt in with `allowDefault: true` on the variable.',
  },
  'auth-without-http': {
    severity: 'warning',
    title: 'Authorization configured without an HTTP transport',
    cause: 'MCP authorization applies to HTTP only; a stdio-only server never checks tokens.',
    fix: 'Add `transports.http`, or set `auth.type: none` for a local stdio server.',
  },
  'scope-unknown': {
    severity: 'error',
    title: 'Unknown scope',
    cause: 'A tool names a scope that `auth.scopes` does not declare.',
    fix: 'Declare the scope under `auth.scopes`, or correct its name.',
  },
  'scope-grant-missing': {
    severity: 'error',
    title: 'No granted scope admits a tool',
    cause:
      'With `auth.grants`, a call needs a scope that admits its tool by class (read-only, non-destructive, all); ' +
      'no scope admits this tool, so no token could call it.',
    fix: 'Grant a scope the class `all` (or `nonDestructive` for a tool with `destructiveHint: false`).',
  },
  'toolset-unknown-tool': {
    severity: 'error',
    title: 'Toolset names an unknown tool or tag',
    cause: 'A `toolsets.<name>.tools` entry names no tool of the manifest, or a `tags` entry no tool carries.',
    fix: 'Correct the name (the hint suggests the closest one), or declare the tool or add the tag to a tool.',
  },
  'toolset-glob-invalid': {
    severity: 'error',
    title: 'Toolset name glob with an unsupported character',
    cause:
      'A `toolsets.<name>.names` glob uses a character that is neither part of a tool name (`A-Z a-z 0-9 _ - .`) ' +
      'nor `*` (any run of characters) or `?` (one character); brackets, braces and other glob syntax are not ' +
      'supported.',
    fix: 'Write the glob with `*` and `?` only, or list the tools by name under `tools`.',
  },
  'discovery-name-taken': {
    severity: 'error',
    title: 'Tool named like the search surface',
    cause:
      'With `discovery: search` the server adds the tools `search_tools` and `call_tool`; a tool of the manifest ' +
      'with one of these names would collide with them.',
    fix: 'Rename the tool (add `renamedFrom` to keep its handler file), or remove `discovery: search`.',
  },
  'toolset-empty': {
    severity: 'error',
    title: 'Toolset selects no tool',
    cause:
      'No tool matches the toolset: its `tools`, `tags` and `names` select nothing, or its `annotations` filter ' +
      'out every tool they select. A deployment that chooses it would list nothing from it.',
    fix: 'Fix the rules so that they select the intended tools, or remove the toolset.',
  },
  'hints-contradictory': {
    severity: 'error',
    title: 'Contradictory tool hints',
    cause: 'A tool says `readOnlyHint: true` and `destructiveHint: true`; a read-only tool cannot destroy anything.',
    fix: 'Drop `destructiveHint`, or set `readOnlyHint: false` if the tool changes data.',
  },
  'approval-none-destructive': {
    severity: 'warning',
    title: 'Destructive tool without approval',
    cause: 'A destructive tool sets `approval: none`, so it runs without asking the user.',
    fix: 'Remove `approval: none` (destructive tools default to `confirm`), or make the tool non-destructive.',
  },
  'renamed-from-conflict': {
    severity: 'error',
    title: 'Invalid `renamedFrom`',
    cause:
      '`renamedFrom` names a tool that still exists, the tool itself, or a name another tool was also renamed from.',
    fix: 'Point `renamedFrom` at the old name of this tool only, and remove it once the rename has been generated.',
  },
  'input-not-object': {
    severity: 'error',
    title: 'Tool input is not an object schema',
    cause: 'MCP requires every tool `inputSchema` to have `type: object` at its root.',
    fix: 'Wrap the arguments in `type: object` with `properties`.',
  },
  'example-invalid': {
    severity: 'error',
    title: 'Example does not match its tool or prompt',
    cause:
      'An `examples` entry gives a tool `input` or `output` that its schema rejects, ' +
      'both an `output` and an `error`, or prompt arguments the prompt does not ' +
      'declare. The contract tests would make a call that cannot succeed as written.',
    fix: 'Correct the example (the message names each mismatch and where), or the schema if the example is right.',
  },
  'schema-invalid': {
    severity: 'error',
    title: 'Invalid JSON Schema',
    cause:
      'A tool `input` or `output` is not valid JSON Schema 2020-12 ' +
      '(a misspelled type, a negative bound, a non-list `required`).',
    fix: 'Correct the keyword named in the message.',
  },
  'ref-not-local': {
    severity: 'error',
    title: 'Non-local `$ref`',
    cause: 'A `$ref` points at a file or URL; mcp-gen never reads other files or the network while generating.',
    fix: 'Move the definition under `$defs` in the same schema and use `#/$defs/Name`.',
  },
  'ref-unresolved': {
    severity: 'error',
    title: 'Unresolvable `$ref`',
    cause:
      'A local `$ref` points at a place in the schema that does not exist, or `#/schemas/<name>` names no ' +
      'shared schema.',
    fix: 'Define the target under `$defs` (or under the top-level `schemas`), or correct the pointer.',
  },
  'schema-keyword-unknown': {
    severity: 'warning',
    title: 'Unknown JSON Schema keyword',
    cause:
      'A tool schema has a key that is no JSON Schema 2020-12 keyword (often a typo such as `minLenght`); ' +
      'validators ignore it, so the rule it meant is not applied.',
    fix: 'Correct the keyword the hint names, or prefix a vendor extension with `x-`.',
  },
  'required-not-declared': {
    severity: 'error',
    title: 'Required property that cannot exist',
    cause:
      'A schema with `additionalProperties: false` lists in `required` a name that neither `properties` nor ' +
      '`patternProperties` allows, so no arguments satisfy it and the tool can never be called.',
    fix: 'Declare the property under `properties`, correct its name in `required`, or remove it from `required`.',
  },
  'handle-undeclared': {
    severity: 'error',
    title: 'Undeclared handle kind',
    cause: 'A `$handle` names a kind that `handles` does not declare.',
    fix: 'Declare the kind under `handles`, or correct its name.',
  },
  'handle-never-issued': {
    severity: 'warning',
    title: 'Handle kind never issued',
    cause: 'No tool `output` contains this `$handle`, so no client can ever obtain one.',
    fix: 'Add the handle to the output of the tool that creates it, or remove the kind.',
  },
  'handle-never-consumed': {
    severity: 'warning',
    title: 'Handle kind never consumed',
    cause: 'No tool `input` takes this `$handle`, so the handle leads nowhere.',
    fix: 'Add the handle to the input of the tools that continue the workflow, or remove the kind.',
  },
  'resource-uri-choice': {
    severity: 'error',
    title: 'Resource needs exactly one of `uri` and `uriTemplate`',
    cause: 'A resource has neither a `uri` nor a `uriTemplate`, or has both.',
    fix: 'Use `uri` for one fixed resource and `uriTemplate` for a family of resources.',
  },
  'uri-malformed': {
    severity: 'error',
    title: 'Malformed resource URI',
    cause: 'A resource `uri` is not an absolute URI with a scheme (RFC 3986), or contains spaces or braces.',
    fix: 'Write an absolute URI such as `notes://style-guide`; use `uriTemplate` for `{variables}`.',
  },
  'uri-template-malformed': {
    severity: 'error',
    title: 'Malformed URI template',
    cause: 'A `uriTemplate` is not a valid RFC 6570 template with a scheme and at least one `{variable}`.',
    fix: 'Balance the braces and name each variable with letters, digits and `_`, e.g. `notes://notes/{id}`.',
  },
  'resource-uri-duplicate': {
    severity: 'error',
    title: 'Two resources share a URI',
    cause: 'Two resources declare the same `uri` or the same `uriTemplate`, so reads would be ambiguous.',
    fix: 'Give each resource its own URI.',
  },
  'completion-unknown-variable': {
    severity: 'error',
    title: 'Completions for a variable the template does not have',
    cause:
      'A resource lists `completions` for a name that is not a `{variable}` of its ' +
      '`uriTemplate` (or the resource has a fixed `uri`), so they could never be offered.',
    fix: 'Use the variable names of the `uriTemplate`, or remove the entry.',
  },
  'icon-src-unsafe': {
    severity: 'error',
    title: 'Icon source is not https: or an image data: URI',
    cause:
      "An `icons` entry's `src` uses another scheme (`http:`, `javascript:`, `file:`, a relative path), is not a " +
      'well-formed URL, or is a `data:` URI of something other than an icon image type; hosts must refuse such ' +
      'sources.',
    fix: 'Serve the image over `https:`, or inline it as `data:image/png;base64,...` (PNG, JPEG, SVG or WebP).',
  },
  'date-time-format': {
    severity: 'error',
    title: 'Not an ISO 8601 date-time',
    cause: "A resource's `annotations.lastModified` is not a real date and time with a zone.",
    fix: 'Write it as `2026-07-28T09:00:00Z` (or with an offset, `+02:00`), quoted.',
  },
  'resource-size-template': {
    severity: 'error',
    title: 'A resource template has a size',
    cause: '`size` is the byte length of one resource; a `uriTemplate` names many, and MCP gives templates no size.',
    fix: 'Remove `size` from the template, or give it to a resource with a fixed `uri`.',
  },
  'resource-list-fixed': {
    severity: 'error',
    title: 'A fixed resource listed by a handler',
    cause:
      '`list: handler` is on a resource with a fixed `uri`; a list handler returns members of a `uriTemplate` ' +
      'family, and each listed URI is checked against that template.',
    fix: 'Give the resource a `uriTemplate` or remove `list`.',
  },
  'completion-choice': {
    severity: 'error',
    title: 'Completions both fixed and from a handler',
    cause:
      'A template variable or prompt argument has fixed `completions` and `complete: handler`; only one of them ' +
      'can answer `completion/complete`.',
    fix: 'Keep the fixed values or the handler (which can return the same values).',
  },
  'prompt-placeholder-unknown': {
    severity: 'error',
    title: 'Prompt placeholder names no argument',
    cause: "A `{{name}}` placeholder in a prompt message is not one of the prompt's arguments.",
    fix: 'Declare the argument under `arguments`, or correct the placeholder.',
  },
} as const satisfies Record<string, CodeInfo>;

const catalog = {
  ...manifestCodes,
  ...limitCodes,
  ...generateCodes,
  ...reviewCodes,
  ...contextCodes,
  ...targetCodes,
};

/** Every diagnostic code. */
export type DiagnosticCode = keyof typeof catalog;

/** The catalog, sorted by code for display. */
export const codeCatalog: Readonly<Record<DiagnosticCode, CodeInfo>> = catalog;

/** All codes in byte order. */
export const allCodes: readonly DiagnosticCode[] = (Object.keys(catalog) as DiagnosticCode[]).sort((a, b) =>
  a < b ? -1 : a > b ? 1 : 0,
);
