/**
 * The manifest's HTTP bindings: `upstream` (the API a server calls) and a tool's `http` (the one request that
 * implements it). Kept beside manifest-schema.ts, which spreads them in, so that the binding keys read as one unit.
 */

/** Where one argument goes in the request. */
const argumentLocations = ['path', 'query', 'header', 'cookie', 'body', 'field'] as const;

/** A config variable's name: the value is read from it when a call is made. */
const configVariable = {
  type: 'string',
  pattern: '^[A-Z_][A-Z0-9_]*$',
  maxLength: 128,
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
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      description:
        'How requests are signed. A call whose credential variable is unset fails with a tool error and sends nothing.',
      properties: {
        type: {
          enum: ['bearer', 'apiKey', 'basic', 'oauth2'],
          description:
            '`bearer` (`token`), `apiKey` (`value` in header or query `name`), `basic` (`username`, `password`), ' +
            '`oauth2` client credentials (`tokenUrl`, `clientId`, `clientSecret`, `scopes`).',
        },
        token: { ...configVariable, description: '`bearer`: the variable holding the token.' },
        in: { enum: ['header', 'query'], description: '`apiKey`: where the key goes.', default: 'header' },
        name: {
          type: 'string',
          pattern: '^[A-Za-z0-9_.-]+$',
          description: '`apiKey`: the header or query parameter name.',
          'x-default': 'required for `apiKey`',
        },
        value: { ...configVariable, description: '`apiKey`: the variable holding the key.' },
        username: { ...configVariable, description: '`basic`: the variable holding the user name.' },
        password: { ...configVariable, description: '`basic`: the variable holding the password.' },
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
      description: 'The path template after the base URL, e.g. `/pets/{petId}`; each `{name}` is a `path` argument.',
    },
    args: {
      type: 'object',
      additionalProperties: { enum: argumentLocations },
      description:
        'Where each input property goes: `path`, `query`, `header`, `cookie`, `body` (the whole request body) or ' +
        '`field` (one member of the body object). Properties not named stay out of the request.',
      default: {},
    },
    body: {
      enum: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
      description:
        'How the request body is encoded; `multipart/form-data` sends each member of the body object as a text part.',
      default: 'application/json',
    },
    result: {
      enum: ['body', 'wrap'],
      description:
        'The success mapping: `body` returns the JSON response as structured content; `wrap` returns `{ result }` ' +
        '(for an answer that is not an object).',
      default: 'body',
    },
    errorMessage: {
      type: 'string',
      pattern: '^(/[^/]*)*$',
      description:
        'The error mapping: a JSON pointer to the message in an error response (e.g. `/message`), quoted in the ' +
        'tool error beside the status.',
      'x-default': 'the first of `/message`, `/error`, `/detail`',
    },
  },
} as const;
