import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';

// What import openapi drafts of an operation's request, from minimal documents: each parameter's style, explode and
// allowReserved where they differ from its location's defaults, a path and a query parameter of the same name kept
// apart, the body's media type chosen from those the operation offers, a form body's Encoding Object, and a style
// mcp-gen cannot encode named in a warning rather than sent wrong.

const document = (paths: Record<string, unknown>) => ({
  openapi: '3.1.0',
  info: { title: 'Wire', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com' }],
  paths,
});
const tools = (paths: Record<string, unknown>) =>
  (draftFromOpenApi(document(paths), 'wire.json').data as { tools: Record<string, Record<string, unknown>> }).tools;

describe('import openapi: the request on the wire', () => {
  it('keeps style, explode and allowReserved where they are not the defaults', () => {
    const t = tools({
      '/charges/{ids}': {
        get: {
          operationId: 'listCharges',
          parameters: [
            { name: 'ids', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array' } },
            { name: 'created', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
            { name: 'tags', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'q', in: 'query', allowReserved: true, schema: { type: 'string' } },
            { name: 'limit', in: 'query', style: 'form', explode: true, schema: { type: 'integer' } },
            { name: 'X-Ids', in: 'header', explode: true, schema: { type: 'object' } },
          ],
        },
      },
    });
    expect(t.list_charges?.http).toEqual({
      method: 'GET',
      path: '/charges/{ids}',
      args: {
        'X-Ids': { in: 'header', explode: true },
        created: { in: 'query', style: 'deepObject', explode: true },
        ids: { in: 'path', style: 'label', explode: true },
        limit: 'query',
        q: { in: 'query', allowReserved: true },
        tags: { in: 'query', explode: false },
      },
    });
  });

  it('keeps a path and a query parameter of the same name apart: the query one becomes query_<name>', () => {
    const t = tools({
      '/namespaces/{name}/proxy/{path}': {
        parameters: [{ name: 'path', in: 'query', schema: { type: 'string' } }],
        get: {
          operationId: 'proxyGet',
          parameters: [
            { name: 'name', in: 'query', schema: { type: 'string' } },
            { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'path', in: 'path', required: true, schema: { type: 'string' } },
          ],
        },
      },
    });
    const tool = t.get_proxy ?? {};
    expect(Object.keys((tool.input as { properties: object }).properties)).toEqual([
      'query_path',
      'query_name',
      'name',
      'path',
    ]);
    expect((tool.http as { args: unknown }).args).toEqual({
      name: 'path',
      path: 'path',
      query_name: { in: 'query', name: 'name' },
      query_path: { in: 'query', name: 'path' },
    });
  });

  it('sends a PATCH with the media type the operation offers, preferring a merge patch, and notes the others', () => {
    const patch = {
      operationId: 'patchDeployment',
      requestBody: {
        required: true,
        content: {
          'application/json-patch+json': { schema: { type: 'array' } },
          'application/merge-patch+json': { schema: { type: 'object' } },
          'application/strategic-merge-patch+json': { schema: { type: 'object' } },
        },
      },
    };
    const draft = draftFromOpenApi(document({ '/deployments/{name}': { patch } }), 'k.json');
    const t = (draft.data as { tools: Record<string, Record<string, unknown>> }).tools;
    expect(t.patch_deployment?.http).toEqual({
      method: 'PATCH',
      path: '/deployments/{name}',
      // The document declares no `name`: the route's segment is a string input all the same.
      args: { body: 'body', name: 'path' },
      body: 'application/merge-patch+json',
    });
    expect(draft.notes.filter((n) => n.path.join('/') === 'tools/patch_deployment/http').map((n) => n.text)).toEqual([
      'The spec also accepts the body as "application/json-patch+json", "application/strategic-merge-patch+json"; ' +
        'set http.body to send another (with the body its schema describes)',
    ]);
  });

  it("a form body keeps its Encoding Object's differences from the defaults", () => {
    const t = tools({
      '/v1/customers': {
        post: {
          operationId: 'createCustomer',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', properties: { metadata: { type: 'object' }, email: { type: 'string' } } },
                encoding: { metadata: { style: 'deepObject', explode: true }, email: { style: 'form' } },
              },
            },
          },
        },
      },
    });
    expect(t.create_customer?.http).toEqual({
      method: 'POST',
      path: '/v1/customers',
      args: { body: 'body' },
      body: 'application/x-www-form-urlencoded',
      encoding: { metadata: { style: 'deepObject', explode: true } },
    });
  });

  it('warns, naming the operation, of a style mcp-gen cannot encode, and leaves that parameter out', () => {
    const draft = draftFromOpenApi(
      document({
        '/items': {
          get: {
            operationId: 'listItems',
            parameters: [
              { name: 'sort', in: 'query', style: 'matrix', schema: { type: 'string' } },
              { name: 'page', in: 'query', schema: { type: 'integer' } },
            ],
          },
        },
      }),
      'w.json',
    );
    const t = (draft.data as { tools: Record<string, Record<string, unknown>> }).tools;
    expect(t.list_items?.http).toEqual({ method: 'GET', path: '/items', args: { page: 'query' } });
    expect(draft.flags.filter((f) => f.includes('cannot encode'))).toEqual([
      'tool "list_items" (GET /items): parameter "sort" has style "matrix", which mcp-gen cannot encode in the ' +
        'query; it is left out of the tool (write a handler)',
    ]);
  });
});

describe('import openapi: a version that is not semantic', () => {
  it('is kept as wireVersion, what serverInfo sends; version is the package version', () => {
    const api = { openapi: '3.1.0', info: { title: 'Stripe', version: '2023-10-16' }, paths: {} };
    const server = (draftFromOpenApi(api, 'stripe.json').data as { server: Record<string, unknown> }).server;
    expect(server).toEqual({ name: 'stripe', version: '0.1.0', wireVersion: '2023-10-16', title: 'Stripe' });
  });
});

describe('import openapi: header parameters OpenAPI says to ignore', () => {
  it('leaves out Accept and Content-Type in any case, with a flag; other headers stay inputs', () => {
    const header = (name: string) => ({ name, in: 'header', schema: { type: 'string' } });
    const draft = draftFromOpenApi(
      document({
        '/items': {
          post: {
            operationId: 'addItem',
            parameters: [header('accept'), header('Content-Type'), header('X-Trace')],
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      }),
      'h.json',
    );
    const t = (draft.data as { tools: Record<string, Record<string, unknown>> }).tools;
    const http = t.add_item?.http as { args?: unknown } | undefined;
    expect(http?.args).toEqual({ 'X-Trace': 'header', body: 'body' });
    expect(draft.flags.filter((f) => f.includes('OpenAPI says'))).toEqual(
      ['accept', 'Content-Type'].map(
        (name) =>
          `tool "add_item" (POST /items): header parameter "${name}" is left out of the tool, as OpenAPI says of ` +
          "a header of that name: the binding sends the media types of the operation's body and answers",
      ),
    );
  });
});
