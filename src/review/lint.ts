/**
 * Design lint rules: what a reviewer would flag in a manifest that is valid
 * but not a good MCP server. Every finding points at the manifest line that
 * causes it; the gate (gate.ts) turns findings into PASS / WARN / FAIL.
 */
import type { Finding } from '../diagnostics/index.js';
import { legacyProtocolVersion } from '../model/defaults.js';
import { snakeCase, snakeCasePattern } from '../model/naming.js';
import { mutatingVerbs } from '../model/verbs.js';
import type { ServerModel, ToolModel } from '../model/types.js';
import { defaultTools } from '../model/toolset.js';
import { lintCredentials } from './lint-credentials.js';
import { finding, lintInputSchema } from './lint-input.js';
import { lintUnsafeText } from './unsafe-text.js';
import { type Memo, noMemo } from '../util/memo.js';

const hintNames = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

function isShort(text: string | null): boolean {
  return text === null || text.trim().length < 20 || text.trim().split(/\s+/).length < 4;
}

/** What the lint finds in one tool alone: a function of the tool and of what lies outside `tools:` (auth). */
function lintTool(tool: ToolModel, model: ServerModel): Finding[] {
  const out = [...lintToolHints(tool, model), ...lintInputSchema(tool)];
  if (isShort(tool.description))
    out.push(
      finding(
        'lint-description-short',
        `${tool.pointer}/description`,
        `tool "${tool.name}" has a description too short to choose it by`,
        'say what it does, what it returns and when to use it',
        'value',
      ),
    );
  return out;
}

function lintToolHints(tool: ToolModel, model: ServerModel): Finding[] {
  const out: Finding[] = [];
  // Words, not spelling: `deleteItem` and `delete-item` start with the verb as much as `delete_item` does.
  const words = snakeCase(tool.name);
  const verb = mutatingVerbs.find((v) => words.startsWith(v));
  if (verb !== undefined && tool.annotations.destructiveHint !== true) {
    out.push(
      finding(
        'lint-mutating-verb',
        tool.pointer,
        `tool "${tool.name}" sounds like it changes data ("${verb}") but is not marked destructiveHint: true`,
        'set annotations.destructiveHint: true, or rename the tool if it only reads',
      ),
    );
  }
  if (!tool.readOnly && model.auth.type !== 'none' && tool.scopes.length === 0) {
    out.push(
      finding(
        'lint-mutating-without-scopes',
        tool.pointer,
        `tool "${tool.name}" changes data but requires no scope, so every authenticated caller may use it`,
        'list the scopes a caller must hold under "scopes"',
      ),
    );
  }
  if (!tool.readOnly && tool.annotations.openWorldHint !== false && tool.approval === 'none') {
    out.push(
      finding(
        'lint-external-write-without-approval',
        tool.pointer,
        `tool "${tool.name}" may act on the outside world (openWorldHint is not false) and runs without approval`,
        "set openWorldHint: false if it only touches this server's data, or approval: confirm",
      ),
    );
  }
  if (tool.retry === 'unsafe') {
    out.push(
      finding(
        'lint-retry-unsafe',
        tool.pointer,
        `tool "${tool.name}" changes data and is not idempotent, so ` +
          'a client that retries it after a timeout may run it twice',
        'add "idempotency: key" (a retry with the same idempotencyKey gets the stored result), ' +
          'or set annotations.idempotentHint: true if a repeat truly has no further effect',
      ),
    );
  }
  if (tool.title === null)
    out.push(
      finding(
        'lint-missing-title',
        tool.pointer,
        `tool "${tool.name}" has no title`,
        'add a short human-readable "title"',
      ),
    );
  const needed = tool.readOnly ? (['readOnlyHint', 'openWorldHint'] as const) : hintNames;
  const missing = needed.filter((h) => tool.annotations[h] === undefined);
  if (missing.length > 0) {
    out.push(
      finding(
        'lint-missing-hints',
        tool.pointer,
        `tool "${tool.name}" leaves ${missing.join(', ')} to MCP's defaults`,
        `state ${missing.map((h) => `${h}: ...`).join(', ')} under annotations`,
      ),
    );
  }
  return out;
}

/** Every lint finding of the model, in manifest order of the items they concern. */
export function lintModel(model: ServerModel, memo: Memo = noMemo): Finding[] {
  const out: Finding[] = [];
  if (model.server.instructions === null)
    out.push(
      finding(
        'lint-no-instructions',
        '/server',
        'the server has no instructions for the model',
        'add "instructions" under server (mention the approval step if tools are destructive)',
      ),
    );
  if (model.cache.ttlMs === 0)
    out.push(
      finding(
        'lint-cache-disabled',
        '/cache',
        'discovery and lists have ttlMs 0, so clients must refetch them on every use',
        'give lists a positive freshness, e.g. "cache: { ttl: 5m }"',
      ),
    );
  if (model.protocol.legacy === 'serve')
    out.push(
      finding(
        'lint-legacy-adapter',
        '/protocol',
        `${legacyProtocolVersion} clients are answered by the labeled legacy adapter ` +
          '(protocol.legacy: serve): initialize, Mcp-Session-Id sessions, GET streams, DELETE ' +
          'and server-to-client requests exist only there; the modern path never uses them',
        `set protocol.legacy: reject once no ${legacyProtocolVersion} client remains`,
      ),
    );
  if (model.transports.http !== null && model.transports.http.allowedOrigins.length === 0) {
    out.push(
      finding(
        'lint-http-no-browser-origins',
        '/transports/http',
        'HTTP accepts browser requests only from loopback origins (allowedOrigins is empty)',
        'list the exact origins of browser hosts that must connect',
      ),
    );
  }
  out.push(...lintCredentials(model));
  // With toolsets, what a model sees is the default selection; a deployment that adds toolsets chooses the rest.
  const listed = defaultTools(model).length;
  // With discovery: search, tools/list lists two tools whatever the count: the context review judges that surface.
  if (listed > model.lint.maxTools && model.discovery === 'tools') {
    out.push(
      finding(
        'lint-too-many-tools',
        '/tools',
        `${model.toolsets.length === 0 ? 'the server declares' : 'the default toolsets list'} ${listed} tools, ` +
          `more than lint.maxTools (${model.lint.maxTools})`,
        model.toolsets.length === 0
          ? 'group tools in toolsets: with a small default, merge or split tools across servers, or raise ' +
              'lint.maxTools on purpose'
          : 'mark fewer toolsets default: true, or raise lint.maxTools on purpose',
      ),
    );
  }
  const byDescription = new Map<string, string>();
  for (const tool of model.tools) {
    out.push(...memo.recall('review.lint-tool', tool, (t) => lintTool(t, model)));
    const twin = byDescription.get(tool.description);
    if (twin !== undefined)
      out.push(
        finding(
          'lint-description-duplicate',
          `${tool.pointer}/description`,
          `tools "${twin}" and "${tool.name}" have the same description`,
          'describe what sets each tool apart',
          'value',
        ),
      );
    else byDescription.set(tool.description, tool.name);
  }
  out.push(...lintUnsafeText(model, memo));
  out.push(...lintNameStyle(model));
  for (const item of [...model.resources, ...model.prompts]) {
    if (isShort(item.description)) {
      const kind = 'uri' in item ? 'resource' : 'prompt';
      out.push(
        finding(
          'lint-description-short',
          item.description === null ? item.pointer : `${item.pointer}/description`,
          `${kind} "${item.name}" has ` +
            `${item.description === null ? 'no description' : 'a description too short to choose it by'}`,
          'say what it holds or does in a sentence',
          item.description === null ? 'key' : 'value',
        ),
      );
    }
  }
  return out;
}

/**
 * Names MCP allows but the convention does not (`get-sum`, `printEnv`): a warning, since an imported server keeps its
 * wire names.
 */
function lintNameStyle(model: ServerModel): Finding[] {
  const items = [
    ...model.tools.map((t) => ['tool', t] as const),
    ...model.resources.map((r) => ['resource', r] as const),
    ...model.prompts.map((p) => ['prompt', p] as const),
  ];
  return items
    .filter(([, item]) => !snakeCasePattern.test(item.name))
    .map(([kind, item]) =>
      finding(
        'lint-name-style',
        item.pointer,
        `${kind} name "${item.name}" is not snake_case`,
        `rename it to "${snakeCase(item.name)}" if no client depends on the current name` +
          (kind === 'tool' ? ' (with renamedFrom, to keep its handler)' : ''),
      ),
    );
}
