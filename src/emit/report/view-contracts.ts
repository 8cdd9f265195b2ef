import { legacyProtocolVersion, protocolVersion } from '../../model/defaults.js';
import type { ServerModel } from '../../model/types.js';
import { discoverContract, supportedVersions } from '../registry/discover.js';
import { exampleUri, exampleValue } from './examples.js';
import { block, cell, code, table } from '../shared/markdown.js';
import { listedOrder } from './view-hints.js';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': protocolVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'example-client', version: '1.0.0' },
};

/** Section 2: the exact discover result. */
export function discoverySection(model: ServerModel) {
  const result = discoverContract(model);
  return { json: block('json', JSON.stringify(result, null, 2)), data: result };
}

/** Section 3: the request contract, one row per violation and the exact answer. */
export function requestSection(model: ServerModel) {
  const supported = JSON.stringify(supportedVersions(model));
  const rows = [
    ['`params._meta` missing', '-32602 Invalid params', model.transports.http === null ? '—' : '400'],
    [
      '`io.modelcontextprotocol/protocolVersion` missing or not a string',
      '-32602 Invalid params',
      model.transports.http === null ? '—' : '400',
    ],
    [
      '`io.modelcontextprotocol/clientCapabilities` missing or not an object',
      '-32602 Invalid params',
      model.transports.http === null ? '—' : '400',
    ],
    [
      'well-formed but unsupported version, e.g. `"2099-01-01"`',
      `-32022 with ${code(`"data": {"supported": ${supported}, "requested": "2099-01-01"}`)}`,
      model.transports.http === null ? '—' : '400',
    ],
    [
      `${legacyProtocolVersion} ${code('initialize')}`,
      model.protocol.legacy === 'serve'
        ? 'served by the labeled legacy adapter' +
          (model.transports.http === null ? '' : ` (over HTTP it issues an ${code('Mcp-Session-Id')})`)
        : `-32022 with ${code(`"supported": ${supported}`)}`,
      model.transports.http === null ? '—' : model.protocol.legacy === 'serve' ? '200' : '400',
    ],
    ['notification (no `id`)', 'no response', model.transports.http === null ? '—' : '202, empty body'],
    ['unknown method', '-32601 Method not found', model.transports.http === null ? '—' : '404'],
    [
      'request id `null` or not a string/number, bad JSON-RPC envelope',
      '-32600 Invalid request (-32700 for unparsable JSON)',
      model.transports.http === null ? '—' : '400',
    ],
  ];
  return {
    example: block(
      'json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }, null, 2),
    ),
    table: table(['request', 'answer', 'HTTP status'], rows),
    checkedOnEveryRequest: model.transports.stdio
      ? 'On stdio the version is checked on every request, not only the first.'
      : '',
  };
}

/** Section 4: result contract: result type, identity, list order and cache policy. */
export function resultSection(model: ServerModel) {
  const cache = `${model.cache.ttlMs} / ${model.cache.scope}`;
  const names = (items: readonly { name: string }[]) =>
    items.length === 0 ? '—' : items.map((i) => code(i.name)).join(', ');
  const lists = [
    ['`server/discover`', '—', '—', cache],
    ['`tools/list`', 'name, byte order', names(model.tools), cache],
    ['`resources/list`', 'name, byte order', listedOrder(model, names), cache],
    [
      '`resources/templates/list`',
      'name, byte order',
      names(model.resources.filter((r) => r.uriTemplate !== null)),
      cache,
    ],
    ['`prompts/list`', 'name, byte order', names(model.prompts), cache],
    ['`tools/call`, `prompts/get`', '—', '—', 'none (not cacheable)'],
  ];
  const reads = model.resources.map((r) => [
    code(r.name),
    code(r.uri ?? r.uriTemplate ?? ''),
    cell(r.mimeType),
    `${r.cache.ttlMs} / ${r.cache.scope}`,
  ]);
  return {
    lists: table(['method', 'sort key', 'order', 'ttlMs / cacheScope'], lists),
    hasResources: reads.length > 0,
    reads: table(['resource', 'URI', 'MIME type', 'ttlMs / cacheScope'], reads),
    serverInfo: code(
      JSON.stringify({
        'io.modelcontextprotocol/serverInfo': discoverContract(model)._meta['io.modelcontextprotocol/serverInfo'],
      }),
    ),
  };
}

/** Section 5: which calls return input_required and what a retry must carry. */
export function roundTripSection(model: ServerModel) {
  const tools = model.tools.filter((t) => t.approval === 'confirm');
  const rows = tools.map((t) => [
    code(t.name),
    `elicitation form: "${cell(t.title ?? t.name)}" with the arguments; one boolean ${code('confirm')}`,
    code('confirm'),
  ]);
  const retry = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: tools[0]?.name ?? 'tool',
      arguments: tools[0] === undefined ? {} : exampleValue(tools[0].input),
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: '<the requestState of the input_required result, byte for byte>',
      _meta: envelope,
    },
  };
  return {
    hasRoundTrips: tools.length > 0,
    table: table(['tool', 'asks', 'inputRequests key'], rows),
    retry: block('json', JSON.stringify(retry, null, 2)),
  };
}

/** Section 7: example HTTP requests with their exact headers, one per call. */
export function requestExamples(model: ServerModel): string[] {
  const http = model.transports.http;
  const auth = model.auth.type === 'none' ? [] : ['Authorization: Bearer <access token>'];
  const example = (method: string, name: string, params: Record<string, unknown>) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } });
    if (http === null) return block('json', body);
    const headers = [
      `POST ${http.path} HTTP/1.1`,
      `Host: ${http.host}:${http.port}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      `MCP-Protocol-Version: ${protocolVersion}`,
      `Mcp-Method: ${method}`,
      `Mcp-Name: ${name}`,
      ...auth,
    ];
    return block('http', `${headers.join('\n')}\n\n${body}`);
  };
  return [
    ...model.tools.map((t) => example('tools/call', t.name, { name: t.name, arguments: exampleValue(t.input) })),
    ...model.resources.map((r) => {
      const uri = r.uri ?? exampleUri(r.uriTemplate ?? '');
      return example('resources/read', uri, { uri });
    }),
    ...model.prompts.map((p) =>
      example('prompts/get', p.name, {
        name: p.name,
        arguments: Object.fromEntries(p.arguments.filter((a) => a.required).map((a) => [a.name, 'example'])),
      }),
    ),
  ];
}
