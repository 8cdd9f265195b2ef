/**
 * JSON Schema (draft-07) of manifest language v1: the shape of the file, checked
 * by ajv before the semantic rules. The one source of the manifest's shape:
 * `npm run docs` writes `schema/manifest.schema.json` (for editors) and the
 * `Manifest` type (`src/model/manifest.gen.ts`) from this object; a test keeps
 * them equal, and the key tables of `docs/manifest.md`. Besides standard
 * keywords it uses two annotations for those tables, which validation ignores:
 * `x-type` (the type, where the schema's own would say too little) and
 * `x-default` (the "required / default" cell, where it is not a `default` value).
 */
import { hostIds } from '../model/host-limits.js';
import { legacyProtocolVersion, manifestDefaults, protocolVersion } from '../model/defaults.js';
import { formatDuration } from '../util/duration.js';
import { toolHttpSchema, upstreamSchema } from './manifest-schema-http.js';
import { iconSchema, iconsSchema, resourceAnnotationsSchema, resourceSizeSchema } from './manifest-schema-metadata.js';

/** The annotation keywords of the schema; ajv is told about them so that strict mode accepts them. */
export const annotationKeywords = ['x-type', 'x-default'] as const;

export const manifestSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'mcp-gen manifest v1',
  description:
    `Describes an MCP server (spec revision ${protocolVersion}): its tools, resources, ` +
    'prompts and state handles. mcp-gen compiles it into a typed TypeScript server.',
  type: 'object',
  additionalProperties: false,
  required: ['mcpGen', 'server'],
  properties: {
    $schema: {
      type: 'string',
      description: 'Schema location for editors; ignored by mcp-gen.',
    },
    mcpGen: {
      const: 1,
      description: 'Version of the manifest language. Always `1`.',
    },
    server: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version'],
      properties: {
        name: {
          type: 'string',
          pattern: '^[a-z][a-z0-9-]*$',
          maxLength: 64,
          description: 'Becomes `serverInfo.name` and the package name.',
        },
        version: {
          type: 'string',
          pattern: '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$',
          description:
            'Semantic version (`1.2.3`, `1.0.0-beta.1`). Becomes ' +
            '`serverInfo.version` (unless `wireVersion` is set) and the package version. Quote it if YAML would ' +
            'read it as a number.',
        },
        wireVersion: {
          type: 'string',
          minLength: 1,
          maxLength: 128,
          description:
            '`serverInfo.version` when it is not a semantic version: the version an imported server or API ' +
            'reports as it is (`2023-10-16`, `v1beta`), kept by `import` so that `verify` compares it as the ' +
            'text it is; `version` stays the package version.',
        },
        title: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Display name for hosts.',
        },
        description: {
          type: 'string',
          minLength: 1,
          maxLength: 2000,
          description: 'What the server is for; shown in `serverInfo`.',
        },
        instructions: {
          type: 'string',
          minLength: 1,
          maxLength: 8000,
          description: 'Guidance for the model; returned by `server/discover`.',
        },
        icons: iconsSchema,
      },
    },
    protocol: {
      type: 'object',
      additionalProperties: false,
      properties: {
        versions: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'string',
            examples: [protocolVersion],
          },
          description:
            'Protocol revisions served on the modern path, each ' +
            'listed once; only revisions generated servers implement.',
          default: [...manifestDefaults.protocolVersions],
        },
        legacy: {
          enum: ['serve', 'reject'],
          description:
            `What happens to clients of the handshake-era revision ${legacyProtocolVersion}. ` +
            `\`serve\` answers them through a labeled legacy adapter (over HTTP: \`initialize\` ` +
            `opens an \`Mcp-Session-Id\` session; approvals reach them as real ` +
            `\`elicitation/create\` requests; see [interop.md](interop.md)); \`reject\` answers ` +
            `them with error \`-32022\`. Most hosts in use today speak ${legacyProtocolVersion}.`,
          default: manifestDefaults.legacy,
        },
      },
    },
    cache: {
      $ref: '#/definitions/cache',
      description: 'Default freshness for server/discover, lists and resource reads.',
    },
    pagination: {
      type: 'object',
      additionalProperties: false,
      description:
        'How `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` are split into pages. ' +
        'Each page but the last carries an opaque `nextCursor`, tied to the list it came from: a cursor of another ' +
        'build of the server, or one a client changed, is answered with error `-32602`.',
      properties: {
        pageSize: {
          type: 'integer',
          minimum: 1,
          maximum: manifestDefaults.maxPageSize,
          description: 'Items per page of every list.',
          default: manifestDefaults.pageSize,
        },
      },
    },
    notifications: {
      type: 'object',
      additionalProperties: false,
      description:
        'The changes handlers announce with `ctx.notify` (and `setup` with `tools.notify`), delivered to the clients ' +
        'listening (`subscriptions/listen`, and legacy sessions) on every instance of the server (with `store.type: ' +
        'redis`, through Redis pub/sub). The capabilities declare exactly these; announcing another change throws.',
      properties: {
        listChanged: {
          type: 'array',
          uniqueItems: true,
          items: { enum: ['tools', 'resources', 'prompts'] },
          description:
            'Lists whose changes are announced: `ctx.notify.listChanged(list)` sends ' +
            '`notifications/<list>/list_changed`.',
          default: [],
        },
        resourceUpdates: {
          type: 'boolean',
          description:
            '`ctx.notify.resourceUpdated(uri)` sends `notifications/resources/updated` to the clients subscribed to ' +
            '`uri` (`resources.subscribe`).',
          default: false,
        },
      },
    },
    transports: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description: 'Transports the server offers. Default: stdio only.',
      properties: {
        stdio: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            maxConcurrentCalls: {
              type: 'integer',
              minimum: 1,
              description: 'Requests in flight at once on the connection; more get a JSON-RPC error (-32000) at once.',
              default: manifestDefaults.stdioMaxConcurrentCalls,
            },
          },
          description: 'Serve over stdin/stdout. Write `stdio: {}` to enable (an empty `stdio:` works too).',
          'x-default': 'off unless listed',
        },
        http: {
          type: 'object',
          additionalProperties: false,
          properties: {
            host: {
              type: 'string',
              minLength: 1,
              description: 'Bind address.',
              default: manifestDefaults.httpHost,
            },
            port: {
              type: 'integer',
              minimum: 1,
              maximum: 65535,
              description: 'Port.',
              default: manifestDefaults.httpPort,
            },
            path: {
              type: 'string',
              pattern: '^/[A-Za-z0-9._~/-]*$',
              description: 'The single MCP endpoint.',
              default: manifestDefaults.httpPath,
            },
            allowedOrigins: {
              type: 'array',
              items: {
                type: 'string',
              },
              description: 'Browser origins allowed besides loopback, e.g. `http://localhost:6274`.',
              default: [],
            },
            maxConcurrentCalls: {
              type: 'integer',
              minimum: 1,
              description: 'Requests served at once by one instance; more get HTTP 503 with `Retry-After`.',
              default: manifestDefaults.httpMaxConcurrentCalls,
            },
            maxBufferedBytes: {
              type: 'integer',
              minimum: 1,
              description:
                'Request body bytes held at once by one instance (a body is held until its answer is sent); ' +
                'more get HTTP 503 with `Retry-After`. One body may be at most 4 MiB.',
              default: manifestDefaults.httpMaxBufferedBytes,
            },
            shutdownGrace: {
              $ref: '#/definitions/duration',
              description: 'On SIGTERM or SIGINT, how long calls in flight may still finish before they are cancelled.',
              default: formatDuration(manifestDefaults.httpShutdownGraceMs),
            },
            maxListenStreams: {
              type: 'integer',
              minimum: 1,
              description:
                '`subscriptions/listen` streams open at once on one instance, counted apart from ' +
                '`maxConcurrentCalls`; one more is refused with error `-31429` (HTTP 400).',
              default: manifestDefaults.httpMaxListenStreams,
            },
            maxListenStreamsPerPrincipal: {
              type: 'integer',
              minimum: 1,
              description:
                '`subscriptions/listen` streams one principal (a bearer token, an OAuth subject; every caller ' +
                'without auth is one) may hold open at once on one instance; one more is refused with error `-31429`.',
              default: manifestDefaults.httpMaxListenStreamsPerPrincipal,
            },
            listenKeepAlive: {
              $ref: '#/definitions/duration',
              description: 'How often an open listen stream gets an SSE comment (`: keepalive`), so proxies keep it.',
              default: formatDuration(manifestDefaults.httpListenKeepAliveMs),
            },
            listenIdleTimeout: {
              $ref: '#/definitions/duration',
              description:
                'A listen stream that carried no notification for this long is ended, at its next keep-alive, ' +
                'with the listen result; the client may listen again.',
              default: formatDuration(manifestDefaults.httpListenIdleMs),
            },
          },
          description: 'Serve over Streamable HTTP on a single endpoint.',
          'x-default': 'off unless listed',
        },
      },
    },
    auth: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: {
          enum: ['none', 'bearer', 'oauth'],
          description: 'How HTTP requests are authorized.',
        },
        tokensEnv: {
          type: 'string',
          pattern: '^[A-Z_][A-Z0-9_]*$',
          description: 'Name of the environment variable holding `token=principal:scope,scope;...` entries.',
          'x-default': 'required for `bearer`',
        },
        issuer: {
          type: 'string',
          description: 'The authorization server (the JWT `iss`).',
          'x-default': 'required for `oauth`',
          'x-type': 'URL',
        },
        jwksUri: {
          type: 'string',
          description: 'Where the issuer publishes its signing keys.',
          'x-default': 'required for `oauth`',
          'x-type': 'URL',
        },
        resource: {
          type: 'string',
          description:
            "`oauth`: this server's resource URL; access tokens must name it as audience. `bearer`: " +
            'the public URL of the MCP endpoint, advertised in the protected-resource metadata and ' +
            'the `WWW-Authenticate` challenge. Without it they name where the server listens ' +
            '(`http://<host>:<port><path>`), never a request header; set it behind a proxy, and to bind a ' +
            'wildcard host (`0.0.0.0`, `::`).',
          'x-default': 'required for `oauth`; optional for `bearer`',
          'x-type': 'URL',
        },
        scopes: {
          type: 'object',
          propertyNames: {
            pattern: '^[a-z][a-z0-9_.:-]*$',
            maxLength: 64,
          },
          additionalProperties: {
            type: 'string',
            minLength: 1,
          },
          description: 'Scope name to a non-empty description of what it allows.',
          default: {},
        },
        grants: {
          type: 'object',
          propertyNames: {
            pattern: '^[a-z][a-z0-9_.:-]*$',
            maxLength: 64,
          },
          additionalProperties: {
            enum: ['readOnly', 'nonDestructive', 'all'],
          },
          description:
            'Consent by annotation: a declared scope to the class of tools it admits. With grants, every call also ' +
            'needs one scope that admits its tool: `readOnly` admits tools with `readOnlyHint: true`, ' +
            "`nonDestructive` also those with `destructiveHint: false`, `all` every tool. Each tool's own " +
            '`scopes` still apply.',
          'x-default': 'none: scopes are per tool only',
        },
      },
      if: {
        properties: {
          type: {
            const: 'bearer',
          },
        },
      },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then keyword, not a thenable
      then: {
        required: ['tokensEnv'],
      },
      else: {
        if: {
          properties: {
            type: {
              const: 'oauth',
            },
          },
        },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then keyword, not a thenable
        then: {
          required: ['issuer', 'jwksUri', 'resource'],
        },
      },
    },
    handles: {
      type: 'object',
      propertyNames: {
        $ref: '#/definitions/name',
      },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['description'],
        properties: {
          description: {
            type: 'string',
            minLength: 1,
            description: 'What a handle of this kind refers to.',
          },
          ttl: {
            $ref: '#/definitions/duration',
            description: 'How long a handle stays valid after it is issued. Give `ttl` or `ttlMs`, not both.',
            'x-default': 'as `ttlMs`',
          },
          ttlMs: {
            type: 'integer',
            minimum: 1,
            description: 'The same in milliseconds.',
            default: manifestDefaults.handleTtlMs,
          },
          exampleId: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description:
              'An id of yours that the contract tests mint handles of this kind for (e.g. a uuid, when your ' +
              'store keys rows by uuid). Only tests use it. See "State handles" in docs/handlers.md.',
            default: manifestDefaults.handleExampleId,
          },
        },
      },
    },
    schemas: {
      type: 'object',
      description:
        'JSON Schemas shared by tools, by name: written once, used from any tool schema (or another shared ' +
        "schema) as `$ref: '#/schemas/<name>'`. Each becomes one TypeScript type and, in `tools/list`, one " +
        '`$defs` entry of each tool schema that reaches it. See "Shared schemas".',
      propertyNames: {
        $ref: '#/definitions/wireName',
      },
      additionalProperties: {
        type: 'object',
        description: 'A JSON Schema 2020-12, without `$handle`.',
        'x-type': 'JSON Schema',
      },
    },
    tools: {
      type: 'object',
      propertyNames: {
        $ref: '#/definitions/wireName',
      },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'input'],
        properties: {
          title: {
            type: 'string',
            minLength: 1,
            description: 'Display name.',
          },
          description: {
            type: 'string',
            minLength: 1,
            description: 'What the tool does and returns; the model reads it.',
          },
          icons: iconsSchema,
          annotations: {
            type: 'object',
            additionalProperties: false,
            properties: {
              readOnlyHint: {
                type: 'boolean',
              },
              destructiveHint: {
                type: 'boolean',
              },
              idempotentHint: {
                type: 'boolean',
              },
              openWorldHint: {
                type: 'boolean',
              },
            },
            description:
              '`readOnlyHint`, `destructiveHint`, `idempotentHint`, ' +
              '`openWorldHint`, each a boolean; see "Annotations and approval".',
            'x-default': "MCP's defaults",
          },
          approval: {
            enum: ['confirm', 'none'],
            description: '`confirm` asks the user before the handler runs.',
            'x-default': '`confirm` for destructive tools, `none` otherwise',
          },
          idempotency: {
            enum: ['key', 'none'],
            description:
              '`key` adds a required `idempotencyKey` argument: a retry with the same key and arguments ' +
              'gets the stored result instead of running the handler again (see "Idempotency keys").',
            default: 'none',
          },
          timeout: {
            $ref: '#/definitions/duration',
            description:
              'How long a call may run: then `ctx.signal` aborts and the client gets a tool error naming the timeout.',
            default: formatDuration(manifestDefaults.toolTimeoutMs),
          },
          task: {
            enum: ['optional', 'required'],
            description:
              'Runs the tool as a durable task (the `io.modelcontextprotocol/tasks` extension) for a client that ' +
              'declares it: the call answers at once with a task id, the client polls `tasks/get`. `optional`: a ' +
              'client without the extension gets the plain result; `required`: it gets -32021 (see "Tasks").',
            'x-default': 'none: the tool always answers in the call',
          },
          taskStart: {
            enum: ['call', 'input'],
            description:
              'When the task of a `task` tool starts. `call`: the call answers with a task at once. `input`: the ' +
              'first round runs in the call, so its handler can ask for input (MRTR) before any task exists; the ' +
              'round that brings the answers (`inputResponses`) becomes the task (see "Tasks").',
            default: 'call',
          },
          taskTtl: {
            $ref: '#/definitions/duration',
            description: 'How long a task of this tool, and its result, can be read with `tasks/get` after it starts.',
            default: formatDuration(manifestDefaults.taskTtlMs),
          },
          scopes: {
            type: 'array',
            items: {
              type: 'string',
            },
            description: 'Scopes a caller needs; each must be declared under `auth.scopes`.',
            default: [],
          },
          tags: {
            type: 'array',
            uniqueItems: true,
            items: { $ref: '#/definitions/wireName' },
            description: 'Labels that `toolsets` select tools by (`toolsets.<name>.tags`); never sent to clients.',
            default: [],
          },
          renamedFrom: {
            type: 'string',
            pattern: '^[A-Za-z0-9_.-]+$',
            maxLength: 128,
            description: "The tool's previous name; the handler file and symbol are renamed on the next generate.",
          },
          input: {
            type: 'object',
            description:
              'The arguments: JSON Schema 2020-12 with `type: object` at the ' +
              'root; `$handle: kind` marks a state handle. See "Tool schemas".',
            'x-type': 'JSON Schema',
          },
          output: {
            type: 'object',
            description: 'The `structuredContent` the tool returns: JSON Schema 2020-12.',
            'x-type': 'JSON Schema',
          },
          http: toolHttpSchema,
          examples: {
            type: 'array',
            description:
              'Calls the contract tests make: `input` (valid for `input`), and the expected `output` ' +
              '(valid for `output`) or `error` (text the `isError` result contains). See "Examples".',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['input'],
              properties: {
                input: { type: 'object' },
                output: {},
                error: { type: 'string', minLength: 1 },
              },
            },
          },
        },
      },
    },
    resources: {
      type: 'object',
      propertyNames: {
        $ref: '#/definitions/wireName',
      },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          uri: {
            type: 'string',
            description:
              'One fixed resource: an absolute RFC 3986 URI with a scheme, ' +
              'e.g. `notes://style-guide`. No spaces, braces or quotes.',
            'x-default': 'one of `uri`, `uriTemplate`',
          },
          uriTemplate: {
            type: 'string',
            description:
              'A family of resources: an RFC 6570 template with a scheme ' +
              'and at least one `{variable}`, e.g. `notes://notes/{id}`.',
            'x-default': 'one of `uri`, `uriTemplate`',
          },
          title: {
            type: 'string',
            minLength: 1,
            description: 'Display name.',
          },
          description: {
            type: 'string',
            minLength: 1,
            description: 'What the resource holds.',
          },
          mimeType: {
            type: 'string',
            pattern: '^[a-z0-9.+-]+/[a-zA-Z0-9.+-]+$',
            description: 'e.g. `text/markdown`.',
          },
          icons: iconsSchema,
          annotations: resourceAnnotationsSchema,
          size: resourceSizeSchema,
          cache: {
            $ref: '#/definitions/cache',
            description: '`ttl` or `ttlMs`, and `scope`, as in the top-level `cache`; each field falls back to it.',
            'x-default': 'top-level `cache`',
          },
          completions: {
            type: 'object',
            description:
              'Values `completion/complete` offers for each URI ' +
              'template variable (those starting with the typed prefix).',
            additionalProperties: {
              $ref: '#/definitions/completionValues',
            },
          },
          complete: {
            type: 'object',
            description:
              'URI template variables whose completions a handler computes (`handler`), ' +
              'in `src/handlers/completions/resources/`.',
            additionalProperties: { enum: ['handler'] },
          },
          list: {
            enum: ['handler'],
            description:
              '`handler`: `resources/list` also lists the resources of this `uriTemplate` that a handler ' +
              'in `src/handlers/resource-lists/` returns, page by page, after the fixed ones.',
          },
          examples: {
            type: 'array',
            description:
              'Reads the contract tests make: `uri`, and the expected `text` of the ' +
              'first content or `error` (text of the JSON-RPC error). See "Examples".',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['uri'],
              properties: {
                uri: { type: 'string', minLength: 1 },
                text: { type: 'string' },
                error: { type: 'string', minLength: 1 },
              },
            },
          },
        },
      },
    },
    prompts: {
      type: 'object',
      propertyNames: {
        $ref: '#/definitions/wireName',
      },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          title: {
            type: 'string',
            minLength: 1,
            description: 'Display name.',
          },
          description: {
            type: 'string',
            minLength: 1,
            description: 'What the prompt is for.',
          },
          icons: iconsSchema,
          arguments: {
            type: 'object',
            propertyNames: {
              $ref: '#/definitions/wireName',
            },
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              properties: {
                title: {
                  type: 'string',
                  minLength: 1,
                  description: 'Display name.',
                },
                description: {
                  type: 'string',
                  minLength: 1,
                  description: 'Shown to the user filling in the argument.',
                },
                required: {
                  type: 'boolean',
                  description: 'Whether the client must supply the argument.',
                  default: false,
                },
                completions: {
                  $ref: '#/definitions/completionValues',
                  description:
                    'Values `completion/complete` offers for this argument (those starting with the typed prefix).',
                },
                complete: {
                  enum: ['handler'],
                  description:
                    "`handler`: the prompt's handler in `src/handlers/completions/prompts/` computes this " +
                    "argument's completions.",
                },
              },
            },
            description: 'Argument name to `{ description, title, required, completions, complete }`.',
            default: {},
          },
          examples: {
            type: 'array',
            description:
              'Gets the contract tests make: `arguments`, and the expected `text` of the ' +
              'first message or `error` (text of the JSON-RPC error). See "Examples".',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['arguments'],
              properties: {
                arguments: { type: 'object', additionalProperties: { type: 'string' } },
                text: { type: 'string' },
                error: { type: 'string', minLength: 1 },
              },
            },
          },
          messages: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['role', 'text'],
              properties: {
                role: {
                  enum: ['user', 'assistant'],
                  description: 'Who speaks.',
                },
                text: {
                  type: 'string',
                  minLength: 1,
                  description: "The message text, with `{{argument}}` placeholders filled from the prompt's arguments.",
                },
              },
            },
            description:
              'Fixed messages, each `{ role, text }`, in conversation ' +
              'order; without them the prompt gets a handler stub.',
          },
        },
      },
    },
    config: {
      type: 'object',
      propertyNames: {
        $ref: '#/definitions/envName',
      },
      description:
        'The environment variables the server reads, by name: checked at start (one error lists every missing or ' +
        'invalid one) and handed to `setup` in src/setup.ts as the typed `Config`. The README, `.env.example`, ' +
        'the host snippets and server.json list them; secret values are never printed.',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['description'],
        properties: {
          description: {
            type: 'string',
            minLength: 1,
            description: 'What the variable configures, for the README, `.env.example` and server.json.',
          },
          type: {
            enum: ['string', 'integer', 'number', 'boolean', 'url'],
            description:
              'How the value is read: `integer` and `number` become numbers, `boolean` is `true`, `false`, `1` or ' +
              '`0`, `url` must parse as a URL (and stays a string).',
            default: 'string',
          },
          default: {
            type: ['string', 'number', 'boolean'],
            description: "The value when the variable is unset or empty, of the variable's `type`.",
            'x-type': 'string, number or boolean',
            'x-default': 'none',
          },
          required: {
            type: 'boolean',
            description:
              'Whether the server refuses to start without it. An optional one without a default is `undefined`.',
            'x-default': '`true`, `false` with a `default`',
          },
          secret: {
            type: 'boolean',
            description: 'A credential: its value is never printed, and server.json marks it secret.',
            default: false,
          },
          allowDefault: {
            type: 'boolean',
            description:
              'On a `secret` with a `default`: ship that default knowingly (it is compiled into dist/server.mjs ' +
              'and printed in the README); without it such a default is the error `config-secret-default`.',
            default: false,
          },
        },
      },
    },
    upstream: upstreamSchema,
    secrets: {
      type: 'object',
      additionalProperties: false,
      description:
        'Environment variables holding the signing keys (at least 32 bytes ' +
        'each). Defaults: <SERVER_NAME>_HANDLE_KEY and <SERVER_NAME>_STATE_KEY.',
      properties: {
        handleKeyEnv: {
          type: 'string',
          pattern: '^[A-Z_][A-Z0-9_]*$',
          description: 'Variable holding the key that signs state handles.',
          'x-default': '`<SERVERNAME_UPPER>_HANDLE_KEY`',
        },
        requestStateKeyEnv: {
          type: 'string',
          pattern: '^[A-Z_][A-Z0-9_]*$',
          description: 'Variable holding the key that signs the approval state of `approval: confirm` tools.',
          'x-default': '`<SERVERNAME_UPPER>_STATE_KEY`',
        },
      },
    },
    approvals: {
      type: 'object',
      additionalProperties: false,
      description: 'How a person approves the calls of `approval: confirm` tools (see docs/security.md, "Approval").',
      properties: {
        page: {
          enum: ['fallback', 'always', 'off'],
          description:
            '`fallback`: in-band (a form the client shows) when the client declares form elicitation, else a ' +
            'one-time approval page the server serves, linked from the answer. `always`: the page for every ' +
            'client. `off`: in-band only; a client without form elicitation cannot call such a tool.',
          'x-default': '`fallback`',
        },
        ttl: {
          $ref: '#/definitions/duration',
          description:
            'How long an approval stays answerable, in-band or on the page; the same call repeated later asks anew.',
          'x-default': '`5m`',
        },
      },
    },
    store: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      description:
        'Where the server keeps consumed approvals and the idempotency ledger. `memory` serves one ' +
        'process; `redis` is shared by every instance and survives restarts (see docs/deployment.md).',
      properties: {
        type: {
          enum: ['memory', 'redis'],
          description: '`memory`: this process only. `redis`: a Redis server every instance shares.',
        },
        urlEnv: {
          type: 'string',
          pattern: '^[A-Z_][A-Z0-9_]*$',
          description: 'Name of the environment variable holding the Redis URL (`redis://` or `rediss://`).',
          'x-default': 'required for `redis`',
        },
        idempotencyTtl: {
          $ref: '#/definitions/duration',
          description: 'How long a stored result answers a retry with the same idempotency key.',
          'x-default': '`24h`',
        },
      },
      if: {
        properties: {
          type: {
            const: 'redis',
          },
        },
      },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then keyword, not a thenable
      then: {
        required: ['urlEnv'],
      },
    },
    telemetry: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      description:
        'OpenTelemetry traces and metrics by the MCP semantic conventions: one server span per request and the ' +
        '`mcp.server.operation.duration` histogram. The server depends on `@opentelemetry/api` only, a no-op ' +
        'until the host registers an SDK (see docs/operations.md).',
      properties: {
        type: {
          enum: ['none', 'opentelemetry'],
          description: '`opentelemetry`: instrument every request with `@opentelemetry/api`. `none`: no telemetry.',
        },
      },
    },
    registry: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      description: 'Publishing to the MCP registry: generate writes server.json from the manifest.',
      properties: {
        name: {
          type: 'string',
          pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$',
          minLength: 3,
          maxLength: 200,
          description: 'Reverse-DNS name in a namespace you own, e.g. io.github.owner/my-server.',
        },
        npm: {
          type: 'string',
          pattern: '^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$',
          maxLength: 214,
          description: 'npm package that runs the server over stdio, pinned to server.version.',
        },
        remote: {
          type: 'string',
          pattern: '^https://[^\\s]+$',
          description: 'Public Streamable HTTP endpoint of a hosted deployment.',
        },
        repository: {
          type: 'string',
          pattern: '^https://[^\\s]+$',
          description: 'URL of the source repository.',
        },
      },
    },
    lint: {
      type: 'object',
      additionalProperties: false,
      description: 'Settings of the design review (mcp-gen check).',
      properties: {
        maxTools: {
          type: 'integer',
          minimum: 1,
          description: 'More tools than this is a lint warning (`lint-too-many-tools`) and a WARN on gate item R5.',
          default: manifestDefaults.maxTools,
        },
      },
    },
    targets: {
      type: 'array',
      items: { enum: ['node', 'workers'] },
      minItems: 1,
      uniqueItems: true,
      description:
        'Where the server runs: `node` (a Node process: stdio or node:http) and `workers` (Cloudflare Workers: a ' +
        'Worker entry, wrangler.jsonc, the `dev:workers` and `deploy:workers` scripts, and a Durable Object for ' +
        'the state store). `workers` needs `transports.http`. See "Cloudflare Workers" in docs/deployment.md.',
      default: ['node'],
    },
    discovery: {
      enum: ['tools', 'search'],
      description:
        'How clients find the tools: `tools` lists them in `tools/list` (see `toolsets` to list fewer); `search` ' +
        'lists only `search_tools` and `call_tool`, which find the selected tools by what a task needs and call ' +
        'them with every protection of a direct call. See "Tool search".',
      default: 'tools',
    },
    toolsets: {
      type: 'object',
      description:
        'Named groups of tools that a deployment chooses from (`<NAME>_TOOLSETS`) and an HTTP client narrows to ' +
        '(`Mcp-Toolsets`). A tool belongs to a toolset that lists it, one of its tags or a glob of its name, and ' +
        'matches its `annotations`. See "Toolsets".',
      propertyNames: { $ref: '#/definitions/toolsetName' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['description'],
        properties: {
          description: { type: 'string', minLength: 1, description: 'What the tools of this toolset are for.' },
          default: {
            type: 'boolean',
            description:
              'Listed when the deployment chooses no toolsets. Without any `default: true`, every toolset is.',
            default: false,
          },
          tools: {
            type: 'array',
            uniqueItems: true,
            items: { $ref: '#/definitions/wireName' },
            description: 'Tools by name.',
          },
          tags: {
            type: 'array',
            uniqueItems: true,
            items: { $ref: '#/definitions/wireName' },
            description: 'Every tool with one of these `tags`.',
          },
          names: {
            type: 'array',
            uniqueItems: true,
            items: { type: 'string', minLength: 1, maxLength: 128 },
            description: 'Every tool whose whole name matches one of these globs: `*` any run of characters, `?` one.',
          },
          annotations: {
            type: 'object',
            additionalProperties: false,
            properties: {
              readOnlyHint: { type: 'boolean' },
              destructiveHint: { type: 'boolean' },
              idempotentHint: { type: 'boolean' },
              openWorldHint: { type: 'boolean' },
            },
            description:
              "Only tools whose hints (after MCP's defaults) have these values; alone, it selects among all tools.",
          },
        },
      },
    },
    review: {
      type: 'object',
      additionalProperties: false,
      description:
        'The context budget of the design review (mcp-gen check): what the default `tools/list` may cost and ' +
        'which hosts it must fit. See "The tools/list cost" in docs/design-review.md.',
      properties: {
        maxListTokens: {
          type: 'integer',
          minimum: 1,
          description:
            'Gate item R5 FAILs (`lint-list-too-large`) when the tools a deployment lists by default cost more ' +
            'tokens than this in `tools/list`.',
          default: manifestDefaults.maxListTokens,
        },
        hosts: {
          type: 'array',
          uniqueItems: true,
          items: { enum: [...hostIds] },
          description:
            'Hosts the server must work in: gate item R5 FAILs (`lint-host-limit`) when the default tools break ' +
            'a documented limit of one of them (tool count, tool name, `tools/list` page size).',
          default: [],
        },
      },
    },
  },
  definitions: {
    icon: iconSchema,
    completionValues: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: {
        type: 'string',
        minLength: 1,
      },
    },
    name: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_]*$',
      maxLength: 64,
    },
    envName: {
      type: 'string',
      pattern: '^[A-Z_][A-Z0-9_]*$',
      maxLength: 128,
    },
    toolsetName: {
      type: 'string',
      pattern: '^(?!all$)[a-z][a-z0-9_-]*$',
      maxLength: 64,
    },
    wireName: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      maxLength: 128,
    },
    duration: {
      type: 'string',
      pattern: '^[1-9][0-9]*(ms|s|m|h|d)$',
      description:
        'A whole number greater than zero followed by `ms`, `s`, ' +
        '`m`, `h` or `d`, e.g. `500ms`, `90s`, `15m`, `2h`, `1d`.',
      'x-type': 'duration string',
    },
    cache: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ttl: {
          $ref: '#/definitions/duration',
          description: 'How long a result stays fresh. Give `ttl` or `ttlMs`, not both.',
          'x-default': 'as `ttlMs`',
        },
        ttlMs: {
          type: 'integer',
          minimum: 0,
          description: 'The same in milliseconds.',
          'x-default': `\`${manifestDefaults.cacheTtlMs}\` at the top level`,
        },
        scope: {
          enum: ['public', 'private'],
          description: '`private` when results may depend on who asks.',
          'x-default':
            `\`${manifestDefaults.cacheScopeWithoutAuth}\` without auth, ` +
            `\`${manifestDefaults.cacheScopeWithAuth}\` with auth (\`bearer\` or \`oauth\`)`,
        },
      },
    },
  },
} as const;
