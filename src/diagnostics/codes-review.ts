import { legacyProtocolVersion, protocolVersion } from '../model/defaults.js';
import type { CodeInfo } from './code-info.js';

/** Design-review codes (`mcp-gen check`): lint rules behind the gate, and breaking changes against a baseline. */
export const reviewCodes = {
  'design-rejected-feature': {
    severity: 'error',
    title: 'Feature the design gate rejects',
    cause:
      'The manifest asks for a handshake-era or deprecated mechanism: protocol sessions, GET ' +
      'streams or resumption (hard reject R1), or Roots, Sampling or Logging (hard reject ' +
      `R3). Generated servers are stateless ${protocolVersion} servers and offer none of them.`,
    fix: 'Carry state in `handles`, ask the user through approval (multi round-trip results), and log to stderr.',
  },
  'lint-mutating-verb': {
    severity: 'error',
    title: 'Tool name says it changes data, hints say it does not',
    cause:
      'The tool name starts with a mutating verb (`delete_`, `remove_`, `drop_`, ' +
      '`send_`, `publish_`, `pay_`, `update_`, ...) but the tool is not marked ' +
      '`destructiveHint: true`, so hosts will not ask before calling it.',
    fix:
      'Set `annotations.destructiveHint: true` (approval then ' +
      'defaults to `confirm`), or rename the tool if it only reads.',
  },
  'lint-mutating-without-scopes': {
    severity: 'error',
    title: 'Tool that changes data requires no scope',
    cause:
      'Authorization is on, but a tool that is not read-only lists ' +
      'no `scopes`, so every authenticated caller may use it.',
    fix: "Add the scopes a caller must hold under the tool's `scopes`.",
  },
  'lint-external-write-without-approval': {
    severity: 'error',
    title: 'Tool acts on the outside world without approval',
    cause:
      'A tool that is not read-only and may reach an open world (`openWorldHint` ' +
      "not false; MCP's default is true) runs without `approval: confirm`.",
    fix: "Set `openWorldHint: false` if the tool only touches this server's own data, or `approval: confirm`.",
  },
  'lint-retry-unsafe': {
    severity: 'warning',
    title: 'Mutating tool unsafe to retry',
    cause:
      'A tool that is neither read-only nor `idempotentHint: true` has no ' +
      '`idempotency: key`: a client that times out and retries it may run it ' +
      'twice (send twice, charge twice). Its retry class in DESIGN.md is `unsafe`.',
    fix:
      'Add `idempotency: key`: the tool gets a required `idempotencyKey` argument ' +
      'and a retry with the same key and arguments returns the stored result. Or ' +
      'set `idempotentHint: true` if a repeat truly has no further effect.',
  },
  'lint-missing-title': {
    severity: 'warning',
    title: 'Tool without a title',
    cause: 'A tool has no `title`, so hosts show its raw name to people.',
    fix: 'Add a short human-readable `title`.',
  },
  'lint-name-style': {
    severity: 'warning',
    title: 'Name is not snake_case',
    cause:
      'A tool, resource or prompt name uses characters MCP allows but the manifest convention does not ' +
      '(`get-sum`, `printEnv`, `v2.search`); typical of a server imported with its wire names kept.',
    fix:
      'Rename it to snake_case (`get_sum`) once no client depends on the old name; ' +
      'for a tool, `renamedFrom` moves its handler file.',
  },
  'lint-missing-hints': {
    severity: 'warning',
    title: 'Tool hints left to defaults',
    cause:
      'A tool does not state all four hints (`readOnlyHint`, `destructiveHint`, ' +
      "`idempotentHint`, `openWorldHint`); MCP's defaults are the most pessimistic ones.",
    fix: 'State every hint explicitly (`destructiveHint` and `idempotentHint` may be omitted for read-only tools).',
  },
  'lint-open-schema': {
    severity: 'warning',
    title: 'Open input object',
    cause:
      'An input object has no `additionalProperties: false`, so a model may send arguments the handler never expected.',
    fix: 'Add `additionalProperties: false` to the object.',
  },
  'lint-unbounded-string': {
    severity: 'warning',
    title: 'Unbounded string argument',
    cause:
      'A string argument has neither `maxLength` nor `enum`/`const` nor a `pattern` that bounds its length ' +
      '(anchored at both ends, `^...$`, with no `|` outside a group and no `*`, `+` or `{n,}`), ' +
      'so any amount of untrusted text reaches the handler.',
    fix: 'Add `maxLength` (or an `enum`, or anchor the `pattern` and bound its repetitions).',
  },
  'lint-unbounded-array': {
    severity: 'warning',
    title: 'Unbounded array argument',
    cause: 'An array argument has no `maxItems`.',
    fix: 'Add `maxItems`.',
  },
  'lint-unbounded-number': {
    severity: 'warning',
    title: 'Unbounded number argument',
    cause: 'A number or integer argument lacks `minimum` or `maximum`.',
    fix: 'Add both bounds (or an `enum`).',
  },
  'lint-description-short': {
    severity: 'warning',
    title: 'Description missing or too short to choose by',
    cause:
      'A tool, resource or prompt has no description, or one shorter than a useful ' +
      'sentence (under 20 characters or 4 words); models pick tools by their descriptions.',
    fix: 'Say what it does, what it returns and when to use it, in a sentence or two.',
  },
  'lint-description-duplicate': {
    severity: 'warning',
    title: 'Two tools share a description',
    cause: 'Identical descriptions make it impossible for a model to choose between the tools.',
    fix: 'Describe what sets each tool apart.',
  },
  'lint-description-unsafe': {
    severity: 'error',
    title: 'Text for the model hides, reorders or gives instructions',
    cause:
      'A title, description or instruction that hosts pass to the model (server, tools and their ' +
      'schemas, resources, prompts and their arguments) contains a bidirectional override or ' +
      'isolate control (U+202A-U+202E, U+2066-U+2069), a zero-width character (U+200B-U+200D, ' +
      'U+2060, U+FEFF), or a phrase aimed at the model such as "ignore previous instructions". A ' +
      'reviewer sees one text and the model reads another: the pattern of tool poisoning.',
    fix:
      'Write plain text that describes what the item does; remove the invisible ' +
      'or direction characters and any instruction addressed to the model.',
  },
  'lint-no-instructions': {
    severity: 'warning',
    title: 'No server instructions',
    cause:
      '`server.instructions` is missing, so `server/discover` gives ' +
      'the model no guidance on how to use the tools together.',
    fix: 'Add one or two sentences of `instructions` (mention the approval step if there are destructive tools).',
  },
  'lint-cache-disabled': {
    severity: 'error',
    title: 'Lists are not cacheable',
    cause: 'The top-level `cache` has `ttlMs: 0`, so discovery and every list must be fetched again on each use.',
    fix: 'Give lists a positive freshness, e.g. `cache: { ttl: 5m }`.',
  },
  'lint-secret-header': {
    severity: 'warning',
    title: 'Secret-looking value mirrored into an HTTP header',
    cause:
      'A property with a secret-looking name (token, password, secret, key, credential, cookie, ' +
      'session) carries `x-mcp-header`, so it would travel in an `Mcp-Param-*` header that proxies log.',
    fix: 'Remove `x-mcp-header` from that property.',
  },
  'lint-secret-input': {
    severity: 'warning',
    title: 'Secret-looking tool input',
    cause:
      'An input property is named like a credential (api_key, apikey, x-api-key, token, access_token, ' +
      'authorization, secret, password), so the model would have to hold the secret and send it in every call.',
    fix: 'Read the credential from a config variable: `upstream.credentials` for an `http:` tool, `ctx.config` else.',
  },
  'lint-credential-not-secret': {
    severity: 'warning',
    title: 'Upstream credential held by a variable that is not secret',
    cause:
      'A config variable holds the secret part of an upstream credential (a bearer token, an API key, a Basic ' +
      'password, an OAuth 2 client secret) without `secret: true`, so it may have a committed default, the README ' +
      'and the MCPB manifest show it as a plain setting, and start-up does not hide it from logs.',
    fix: 'Add `secret: true` to the variable (and `required: false` if the server must start without it).',
  },
  'lint-http-no-browser-origins': {
    severity: 'info',
    title: 'HTTP allows no browser origins besides loopback',
    cause: '`transports.http.allowedOrigins` is empty, so browser-based hosts on other origins are refused (403).',
    fix: 'List the exact origins of browser hosts that must connect, or leave it empty on purpose.',
  },
  'lint-legacy-adapter': {
    severity: 'info',
    title: 'Legacy clients served through an isolated adapter',
    cause:
      `\`protocol.legacy: serve\` answers ${legacyProtocolVersion} clients (desktop and IDE hosts ` +
      `on the v1 SDK, MCP Inspector) through a labeled legacy adapter: \`initialize\`, ` +
      `\`Mcp-Session-Id\` sessions, GET streams, DELETE, \`logging/setLevel\` and server-to-client ` +
      `\`elicitation/create\` requests exist only there; the modern path never uses them.`,
    fix:
      'Nothing to fix; set `legacy: reject` once no such clients remain. Behind ' +
      'a load balancer, route legacy sessions stickily by `Mcp-Session-Id`.',
  },
  'breaking-tool-removed': {
    severity: 'error',
    title: 'Tool removed',
    cause: 'A tool of the baseline is gone (or renamed without `renamedFrom`); clients calling it will fail.',
    fix:
      'Keep the tool, or release this as a breaking change; for ' +
      'a rename, add `renamedFrom` so the handler moves with it.',
  },
  'breaking-tool-renamed': {
    severity: 'error',
    title: 'Tool renamed',
    cause: 'A tool was renamed (`renamedFrom`); clients calling the old name will fail.',
    fix: 'Release it as a breaking change, or keep a tool with the old name.',
  },
  'breaking-required-argument': {
    severity: 'error',
    title: 'Required argument added',
    cause: 'A tool or prompt now requires an argument that existing callers do not send.',
    fix: 'Make the new argument optional (with a default in the handler).',
  },
  'breaking-argument-narrowed': {
    severity: 'error',
    title: 'Argument accepts less than before',
    cause: "An argument's type, enum, bounds, pattern or format now rejects values the baseline accepted.",
    fix: 'Keep accepting the old values, or release it as a breaking change.',
  },
  'breaking-argument-removed': {
    severity: 'error',
    title: 'Argument removed from a closed input',
    cause:
      'An argument was removed from an input with `additionalProperties: ' +
      'false`, so callers still sending it are rejected.',
    fix: 'Keep accepting (and ignoring) the argument for a release.',
  },
  'breaking-output-removed': {
    severity: 'error',
    title: 'Output field removed or made optional',
    cause: "A field of a tool's output is gone or no longer required; clients reading it break.",
    fix: 'Keep returning the field.',
  },
  'breaking-hint-permissive': {
    severity: 'error',
    title: 'Hint made more permissive',
    cause:
      "A tool's hints now promise less safety (read-only became writing, " +
      'non-destructive became destructive, idempotent became not, closed world ' +
      'became open); hosts that trusted the old hints may now act without asking.',
    fix: 'Review the change with whoever configured hosts to trust this tool.',
  },
  'breaking-approval-removed': {
    severity: 'error',
    title: 'Approval removed',
    cause: 'A tool that required `approval: confirm` no longer does.',
    fix: 'Keep the approval, or confirm with reviewers that the tool is safe without it.',
  },
  'breaking-primitive-removed': {
    severity: 'error',
    title: 'Resource or prompt removed',
    cause: 'A resource or prompt of the baseline is gone; clients reading or getting it will fail.',
    fix: 'Keep it, or release this as a breaking change.',
  },
  'baseline-unreadable': {
    severity: 'error',
    title: 'Baseline manifest cannot be read',
    cause:
      '`--baseline` names neither a readable file nor a git revision ' +
      'holding the manifest, or the baseline manifest has errors.',
    fix: 'Pass a manifest file or a git ref (e.g. `origin/main`) under which the manifest exists at the same path.',
  },
} as const satisfies Record<string, CodeInfo>;
