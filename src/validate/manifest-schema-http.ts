/**
 * The manifest's HTTP bindings: `upstream` (the API a server calls) and a tool's `http` (the one request that
 * implements it). Kept beside manifest-schema.ts, which spreads them in, so that the binding keys read as one unit.
 */

import { mediaRangesPattern, mediaTypePattern } from '../model/media.js';

/** Where one argument goes in the request. */
const argumentLocations = ['path', 'query', 'header', 'cookie', 'body', 'field'] as const;

/** The OpenAPI parameter styles a binding encodes (which location takes which: validate/rules/bindings.ts). */
export const parameterStyles = [
  'simple',
  'label',
  'matrix',
  'form',
  'spaceDelimited',
  'pipeDelimited',
  'deepObject',
] as const;

/** How a value is serialized: the OpenAPI Parameter and Encoding Objects' keys. */
const serialization = {
  style: {
    enum: parameterStyles,
    description:
      'The OpenAPI style: `simple`, `label` or `matrix` in the path, `form`, `spaceDelimited`, `pipeDelimited` or ' +
      '`deepObject` in the query and a form body, `simple` in a header, `form` in a cookie.',
    'x-default': '`simple` in the path and headers, `form` elsewhere',
  },
  explode: {
    type: 'boolean',
    description: 'Whether arrays and objects are exploded (OpenAPI `explode`).',
    'x-default': 'true for `form`, false otherwise',
  },
  allowReserved: {
    type: 'boolean',
    description: 'Query and form values: send RFC 3986 reserved characters unencoded (`#` is always encoded).',
    default: false,
  },
} as const;

/** A config variable's name: the value is read from it when a call is made. */
const configVariable = {
  type: 'string',
  pattern: '^[A-Z_][A-Z0-9_]*$',
  maxLength: 128,
} as const;

/** One credential: its type and the `config` variables that hold its parts. */
const credentialSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: {
      enum: ['bearer', 'apiKey', 'basic', 'oauth2'],
      description:
        '`bearer` (`token`), `apiKey` (`value` in header, query or cookie `name`), `basic` (`username`, `password`), ' +
        '`oauth2` client credentials (`tokenUrl`, `clientId`, `clientSecret`, `scopes`).',
    },
    token: { ...configVariable, description: '`bearer`: the variable holding the token.' },
    in: { enum: ['header', 'query', 'cookie'], description: '`apiKey`: where the key goes.', default: 'header' },
    name: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      description: '`apiKey`: the header, query parameter or cookie name.',
      'x-default': 'required for `apiKey`',
    },
    value: { ...configVariable, description: '`apiKey`: the variable holding the key.' },
    username: { ...configVariable, description: '`basic`: the variable holding the user name.' },
    password: { ...configVariable, description: '`basic`: the variable holding the password (unset: empty).' },
    tokenUrl: { ...configVariable, description: '`oauth2`: the variable holding the token endpoint URL.' },
    clientId: { ...configVariable, description: '`oauth2`: the variable holding the client id.' },
    clientSecret: { ...configVariable, description: '`oauth2`: the variable holding the client secret.' },
    scopes: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: '`oauth2`: the scopes asked for.',
      default: [],
    },
  },
} as const;

/** `upstream`: the base URL and credential of the HTTP API that `http:` tools call. */
export const upstreamSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['baseUrl'],
  description:
    'The HTTP API that tools with `http:` call: its base URL and credential, each from a `config` variable. ' +
    'See "HTTP bindings" in docs/handlers.md.',
  properties: {
    baseUrl: {
      ...configVariable,
      description: 'The `config` variable holding the base URL; each tool path is appended to it.',
    },
    credential: {
      ...credentialSchema,
      description:
        'How requests are signed (tools without `http.security`). A call whose credential variable is unset fails ' +
        'with a tool error and sends nothing.',
    },
    credentials: {
      type: 'object',
      additionalProperties: credentialSchema,
      description:
        'Named credentials, one per security scheme, that `http.security` chooses from (each with its own ' +
        '`config` variables).',
      default: {},
    },
  },
} as const;

/** A tool's `http`: the request that implements it, generated in place of a handler. */
export const toolHttpSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'path'],
  description:
    'The upstream request that implements the tool (needs `upstream`): no handler to write; a handler file for ' +
    'the tool overrides it. See "HTTP bindings" in docs/handlers.md.',
  properties: {
    method: { enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], description: 'The HTTP method.' },
    path: {
      type: 'string',
      pattern: '^/',
      description:
        'The path template after the base URL, e.g. `/pets/{petId}`; each `{name}` is a `path` argument. A literal ' +
        'query (`/export?format=json`) is sent as written, before the `query` arguments.',
    },
    baseUrl: {
      ...configVariable,
      description:
        'The `config` variable holding the base URL this request is sent to, when the API serves the operation at ' +
        'another URL than `upstream.baseUrl` (an OpenAPI operation or path item with its own `servers`). The ' +
        "tool's credentials are sent there too.",
      'x-default': '`upstream.baseUrl`',
    },
    args: {
      type: 'object',
      additionalProperties: {
        anyOf: [
          { enum: argumentLocations },
          {
            type: 'object',
            additionalProperties: false,
            required: ['in'],
            properties: {
              in: { enum: argumentLocations, description: 'Where the argument goes.' },
              name: {
                type: 'string',
                minLength: 1,
                description: "The parameter's name in the request, when it is not the input property's.",
              },
              ...serialization,
              content: {
                type: 'string',
                pattern: mediaTypePattern,
                description:
                  'A JSON media type (`application/json`, `application/vnd.api+json`, ...): the value is sent as ' +
                  'its JSON text, percent-encoded in the path, the query and a cookie (OpenAPI `content` in place ' +
                  'of `schema`); in the path, the query, a header or a cookie, without `style`, `explode` or ' +
                  '`allowReserved`.',
              },
            },
          },
        ],
      },
      description:
        'Where each input property goes: `path`, `query`, `header`, `cookie`, `body` (the whole request body) or ' +
        '`field` (one member of the body object), or `{ in, name, style, explode, allowReserved }` to serialize it ' +
        'by the OpenAPI rules, or `{ in, name, content: application/json }` to send its JSON text. Properties not ' +
        'named stay out of the request.',
      default: {},
    },
    body: {
      type: 'string',
      pattern: mediaTypePattern,
      description:
        'The request media type: `application/json` or another JSON type (`application/merge-patch+json`, ' +
        '`application/json-patch+json`, ...) sent as JSON with that content type, ' +
        '`application/x-www-form-urlencoded`, `multipart/form-data`, a text type (`text/*`, ' +
        '`application/yaml`, `application/xml`, ...) whose `body` argument is a string sent as it is, or any other ' +
        'type (`application/octet-stream`, `image/png`, ...) whose `body` argument is a base64 string ' +
        '(`contentEncoding: base64`) sent as its bytes. Parameters are sent as written ' +
        '(`application/json;version=2018-01-01`); a form type takes none.',
      default: 'application/json',
    },
    accept: {
      type: 'string',
      pattern: mediaRangesPattern,
      description:
        "The media types the request asks for (its Accept header), as the operation's 2xx answer lists them: " +
        '`text/csv`, `application/pdf`, `image/*, application/pdf`. Each answer is read by its own Content-Type: ' +
        "a JSON type is parsed; text (`text/*`, XML, YAML, ...) is the tool's text, and any other type is bytes, " +
        'sent as an image, audio or embedded resource content block. With `result: wrap` the text, or the bytes ' +
        'in base64, is also `{ result }`. A tool whose output schema is an object takes only JSON.',
      default: 'application/json',
    },
    encoding: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...serialization,
          contentType: {
            type: 'string',
            minLength: 1,
            description:
              'Multipart: the content type of the part, one media type (`image/png`, not `image/*` or a list).',
          },
        },
      },
      description:
        'Per member of a form or multipart body, how it is encoded (the OpenAPI Encoding Object). Without one, a ' +
        'form member that is an object, or an array of objects, is sent in the bracket form (`metadata[order]=42`, ' +
        '`items[0][id]=7`); a multipart object is an `application/json` part.',
      default: {},
    },
    result: {
      enum: ['body', 'wrap'],
      description:
        'The success mapping: `body` returns the JSON response as structured content; `wrap` returns `{ result }` ' +
        '(for an answer that is not an object).',
      default: 'body',
    },
    outputCheck: {
      enum: ['warn', 'strict'],
      description:
        "A 2xx answer that does not match the tool's output schema (the request went out and the upstream " +
        "accepted it): `warn` returns it as received, with the mismatch in `_meta['mcp-gen/warnings']` and the " +
        'log; `strict` makes it a tool error that says the upstream accepted the request.',
      default: 'warn',
    },
    security: {
      type: 'array',
      items: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
      description:
        'The credentials the request accepts, as the OpenAPI `security` requirement: a list of alternatives, each ' +
        'a list of `upstream.credentials` names sent together; the first alternative whose variables are all set ' +
        'is used. `[]`: public, sent without credentials.',
      'x-default': '`upstream.credential`',
    },
    errorMessage: {
      type: 'string',
      pattern: '^(/[^/]*)*$',
      description:
        'The error mapping: a JSON pointer to the message in an error response (e.g. `/message`), quoted in the ' +
        'tool error beside the status.',
      'x-default': 'the first of `message`, `error` (or its `message`), `errors[].message`, `detail`, `title`',
    },
  },
} as const;
