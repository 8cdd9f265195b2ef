import type { ErrorObject } from 'ajv';
import type { DiagnosticCode } from '../diagnostics/index.js';
import { protocolVersion } from '../model/defaults.js';
import type { Manifest } from '../model/manifest.gen.js';
import { envPrefix, suggestName } from '../model/naming.js';
import { parsePointer } from '../util/json-pointer.js';
import { suggestClosest } from '../util/suggest.js';
import { describeValue, dottedPath, type RuleContext } from './context.js';
import { shapeValidator } from './validators.js';

const typeNames: Record<string, string> = {
  string: 'a string',
  object: 'a mapping',
  array: 'a list',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

/** How to write a value of the `expected` kind (typeNames) in place of `data`, under the key `key`. */
function typeHint(expected: string, data: unknown, key: string | undefined): string {
  if (expected === 'a string') {
    // YAML has already read `1.0` as 1: the text as written is not known here.
    if (key === 'version' && typeof data === 'number') return 'write the version in quotes, e.g. "1.0.0"';
    if (typeof data === 'number' && !Number.isInteger(data))
      return `quote the value as you wrote it: unquoted, YAML reads it as ${data}`;
    if (typeof data === 'number' || typeof data === 'boolean') return `quote the value: "${String(data)}"`;
    return 'write one text value here, quoted if it holds ": " or " #"';
  }
  if (expected === 'true or false') return 'write true or false, without quotes';
  if (expected === 'an integer' || expected === 'a number') return 'write the number without quotes';
  if (expected === 'a list') return 'write a list: [a, b], or one "- item" line per item';
  if (expected === 'a mapping') return 'write "key: value" entries indented under this key, or { key: value }';
  return `write ${expected} here`;
}

/** Keys a reader of older MCP material may write, and why the design gate rejects them. */
const rejectedFeatures: Record<string, readonly [string, string]> = {
  roots: [
    `Roots are deprecated in MCP ${protocolVersion} and rejected by the design gate (R3)`,
    'take directories as configuration or tool arguments instead',
  ],
  sampling: [
    `Sampling is deprecated in MCP ${protocolVersion} and rejected by the design gate (R3)`,
    'call a model provider from the handler, or ask the user through approval',
  ],
  logging: [
    `protocol logging is deprecated in MCP ${protocolVersion} and rejected by the design gate (R3)`,
    'generated servers log to stderr',
  ],
  sessions: [
    `protocol sessions do not exist in MCP ${protocolVersion}; the design gate rejects them on the modern path (R1)`,
    'carry workflow state in handles',
  ],
  'transports.http.sessions': [
    'Mcp-Session-Id sessions are rejected on the modern path by the design gate (R1)',
    'carry workflow state in handles; legacy clients are served by "protocol.legacy: serve"',
  ],
  'transports.http.getStream': [
    'standalone GET streams are rejected on the modern path by the design gate (R1)',
    'remove it; the endpoint answers POST only',
  ],
  'transports.http.resumable': [
    'Last-Event-ID resumption is rejected on the modern path by the design gate (R1)',
    'remove it; every request stands on its own',
  ],
  'transports.sse': [
    'the HTTP+SSE transport is handshake-era; the design gate rejects it (R1)',
    'use transports.http (Streamable HTTP, single POST endpoint)',
  ],
};

const mapKinds: Record<string, string> = {
  tools: 'tool',
  resources: 'resource',
  prompts: 'prompt',
  handles: 'handle kind',
  arguments: 'argument',
  scopes: 'scope',
  config: 'config variable',
  toolsets: 'toolset',
};

/** Checks the manifest against its JSON Schema and reports each violation in manifest terms. */
export function checkShape(ctx: RuleContext): void {
  const validateShape = shapeValidator();
  if (validateShape(ctx.data)) {
    // The data matches manifestSchema, from which the Manifest type is compiled.
    ctx.manifest = ctx.data as Manifest;
    return;
  }
  for (const error of validateShape.errors ?? []) reportAjvError(ctx, error);
}

function reportAjvError(ctx: RuleContext, error: ErrorObject): void {
  const path = parsePointer(error.instancePath);
  const where = dottedPath(path);
  const last = path[path.length - 1];
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      return; // the underlying errors are reported on their own
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty);
      const feature = `${path.join('.')}${path.length > 0 ? '.' : ''}${key}`;
      // Own keys only: not `__proto__`'s prototype.
      const rejected = Object.hasOwn(rejectedFeatures, feature) ? rejectedFeatures[feature] : undefined;
      if (rejected !== undefined) {
        ctx.report('design-rejected-feature', [...path, key], rejected[0], rejected[1], 'key');
        return;
      }
      const allowed = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const guess = suggestClosest(key, allowed);
      const hint =
        guess !== undefined
          ? `did you mean "${guess}"?`
          : allowed.length > 0
            ? `allowed keys: ${allowed.join(', ')}`
            : undefined;
      ctx.report('unknown-key', [...path, key], `unknown key "${key}" in ${where}`, hint, 'key');
      return;
    }
    case 'required': {
      const key = String(error.params.missingProperty);
      if (path.length === 0 && key === 'mcpGen') {
        ctx.report(
          'manifest-version',
          path,
          'missing "mcpGen: 1" at the top of the manifest',
          'add "mcpGen: 1" as the first line',
        );
        return;
      }
      ctx.report(
        'missing-key',
        path,
        `missing required key "${key}" in ${where}`,
        `add "${key}:" to ${where}`,
        path.length > 0 ? 'key' : 'value',
      );
      return;
    }
    case 'type': {
      const expected = typeNames[String(error.params.type).split(',')[0] ?? ''] ?? String(error.params.type);
      if (path.length === 0) {
        ctx.report(
          'manifest-not-mapping',
          path,
          `the manifest must be a mapping of keys, got ${describeValue(error.data)}`,
          'start from "mcp-gen init" or the reference manifest in docs/manifest.md',
        );
        return;
      }
      ctx.report(
        'wrong-type',
        path,
        `${where}: expected ${expected}, got ${describeValue(error.data)}`,
        typeHint(expected, error.data, path[path.length - 1]),
      );
      return;
    }
    case 'const':
      ctx.report(
        'manifest-version',
        path,
        `unsupported manifest language version ${describeValue(error.data)}`,
        'this mcp-gen reads "mcpGen: 1"',
      );
      return;
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      const guess =
        typeof error.data === 'string'
          ? suggestClosest(error.data, (error.params.allowedValues as unknown[]).map(String))
          : undefined;
      ctx.report(
        'enum-value',
        path,
        `${where}: expected one of ${allowed}, got ${describeValue(error.data)}`,
        guess !== undefined ? `did you mean "${guess}"?` : 'write one of the listed values, exactly as shown',
      );
      return;
    }
    case 'pattern':
    case 'maxLength':
    case 'minLength':
      if (error.propertyName !== undefined) reportName(ctx, path, error.propertyName, error.keyword);
      else reportString(ctx, error, path, where, last);
      return;
    default:
      reportRange(ctx, error, path, where);
  }
}

/**
 * Key patterns by kind: what MCP allows on the wire for tools, resources, prompts and arguments; ours for the
 * others.
 */
const namePatterns: Record<string, readonly [string, number]> = {
  scope: ['^[a-z][a-z0-9_.:-]*$', 64],
  'handle kind': ['^[a-z][a-z0-9_]*$', 64],
  'config variable': ['^[A-Z_][A-Z0-9_]*$', 128],
  toolset: ['^(?!all$)[a-z][a-z0-9_-]*$', 64],
};
const wireNamePattern = ['^[A-Za-z0-9_.-]+$', 128] as const;

function reportName(ctx: RuleContext, path: string[], name: string, keyword: string): void {
  const kind = mapKinds[path[path.length - 1] ?? ''] ?? 'name';
  const [pattern, maxLength] = namePatterns[kind] ?? wireNamePattern;
  if (keyword === 'maxLength' && name.length <= maxLength) return;
  // The pattern and the length rule can both fire for one key; report it once.
  if (keyword === 'maxLength' && new RegExp(pattern).test(name) === false) return;
  ctx.report(
    'name-format',
    [...path, name],
    `${kind} name "${name}" must match ${pattern} and be at most ${maxLength} characters`,
    name === 'all' && kind === 'toolset'
      ? '"all" means every toolset in <NAME>_TOOLSETS; choose another name'
      : `use "${kind === 'config variable' ? envPrefix(name) : suggestName(name)}"`,
    'key',
  );
}

function reportString(
  ctx: RuleContext,
  error: ErrorObject,
  path: string[],
  where: string,
  last: string | undefined,
): void {
  const value = describeValue(error.data);
  if (error.keyword === 'minLength') {
    ctx.report('value-range', path, `${where} must not be empty`);
    return;
  }
  if (error.keyword === 'maxLength') {
    ctx.report('value-range', path, `${where} is longer than ${String(error.params.limit)} characters`);
    return;
  }
  const code: DiagnosticCode = error.schemaPath.includes('duration')
    ? 'duration-format'
    : where === 'server.name'
      ? 'server-name-format'
      : where === 'server.version'
        ? 'server-version-format'
        : last === 'renamedFrom'
          ? 'name-format'
          : 'value-format';
  const hints: Partial<Record<DiagnosticCode, string>> = {
    'duration-format': 'write e.g. "500ms", "90s", "15m", "2h" or "1d"',
    'server-name-format':
      typeof error.data === 'string'
        ? `use "${suggestName(error.data).replace(/_/g, '-')}"`
        : 'use lower case letters, digits and "-"',
    'server-version-format': 'write MAJOR.MINOR.PATCH, e.g. "1.0.0"',
  };
  const messages: Partial<Record<DiagnosticCode, string>> = {
    'server-version-format': `server.version ${value} is not a semantic version (MAJOR.MINOR.PATCH)`,
    'duration-format': `${where} ${value} is not a duration`,
  };
  ctx.report(
    code,
    path,
    messages[code] ?? `${where}: ${value} does not match ${String(error.params.pattern)}`,
    hints[code] ?? (error.schemaPath.includes('/icon/') ? 'write a size as "48x48", or "any"' : undefined),
  );
}

function reportRange(ctx: RuleContext, error: ErrorObject, path: string[], where: string): void {
  const limit = String(error.params.limit);
  const messages: Record<string, string> = {
    minimum: `${where} must be at least ${limit}, got ${describeValue(error.data)}`,
    maximum: `${where} must be at most ${limit}, got ${describeValue(error.data)}`,
    minItems: `${where} must list at least ${limit} item${limit === '1' ? '' : 's'}`,
    minProperties: `${where} must have at least ${limit} entr${limit === '1' ? 'y' : 'ies'}`,
  };
  ctx.report(
    error.keyword === 'minimum' ||
      error.keyword === 'maximum' ||
      error.keyword.endsWith('Items') ||
      error.keyword.endsWith('Properties')
      ? 'value-range'
      : 'wrong-type',
    path,
    messages[error.keyword] ?? `${where}: ${error.message ?? 'is invalid'}`,
    error.keyword === 'minimum' || error.keyword === 'maximum'
      ? `use a value from the range the message names`
      : error.keyword.endsWith('Items') || error.keyword.endsWith('Properties')
        ? 'add or remove entries to fit the count the message names'
        : 'see docs/manifest.md for what this key takes',
  );
}
