import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';
import { placeParameters, routePath } from '../../src/import/openapi-route.js';
import { buildRequest } from '../../templates/runtime/upstream-request.gen.js';
import type { HttpBindingSpec } from '../../templates/runtime/upstream-spec.gen.js';

// Path keys that carry a query (`/search/articles?query={query}`, as medium.com's published document writes them):
// the draft sends what the document means and validates; what a binding cannot send is said, never sent otherwise.

const search = {
  get: {
    summary: 'Search articles',
    parameters: [{ name: 'query', in: 'query', required: true, schema: { type: 'string', maxLength: 100 } }],
    responses: { '200': { description: 'OK' } },
  },
};

describe('a query written into an OpenAPI path key', () => {
  it('leaves the path when a declared query parameter sends it, and names the tool from the path', () => {
    const draft = draftFromOpenApi(
      {
        openapi: '3.0.3',
        info: { title: 'Articles', version: '1.0.0' },
        paths: { '/search/articles?query={query}': search },
      },
      'articles.json',
    );
    expect(Object.keys(draft.data.tools as object)).toEqual(['list_search_articles']);
    const tool = (draft.data.tools as Record<string, { http: unknown }>).list_search_articles;
    expect(tool?.http).toEqual({ method: 'GET', path: '/search/articles', args: { query: 'query' } });
    expect(draft.flags.filter((flag) => flag.includes('query'))).toEqual([]);
  });

  it('keeps a literal pair, and says which placeholder no parameter fills', () => {
    const args = new Map<string, string | Record<string, unknown>>([
      ['query', 'query'],
      ['q_term', { in: 'query', name: 'term' }],
      ['id', 'path'],
    ]);
    expect(routePath('/items/{id}', args)).toEqual({ path: '/items/{id}', problems: [] });
    expect(routePath('/search?query={query}&format=json&term={term}', args)).toEqual({
      path: '/search?format=json',
      problems: [],
    });
    expect(routePath('/find?q={query}&&{x}=1', args)).toEqual({
      path: '/find',
      problems: [
        'its path carries the query "q={query}", which no parameter fills; it is left out of the request (write a ' +
          'handler)',
        'its path carries the query "{x}=1", which no parameter fills; it is left out of the request (write a handler)',
      ],
    });
  });

  it("sends a path parameter the route puts in its query there, under its pair's key, and leaves out the rest", () => {
    const lat = { name: 'lat', in: 'path', required: true };
    const apiKey = { name: 'APIKEY', in: 'path', required: true };
    const search = { name: 'search', in: 'path', required: true };
    const id = { name: 'userid', in: 'path', required: true };
    // weatherbit.io, learnifier.com and clicksend.com write these path keys.
    expect(placeParameters('/alerts?lat={lat}', [lat])).toEqual({
      placed: [{ ...lat, in: 'query' }],
      moved: [],
      unplaced: [],
    });
    expect(placeParameters('/users/{userid}/pic?key={APIKEY}', [id, apiKey])).toEqual({
      placed: [id, { ...apiKey, in: 'query', name: 'key' }],
      moved: [],
      unplaced: [],
    });
    expect(placeParameters('/numbers/search/{userid}?{search}=1', [id, search])).toEqual({
      placed: [id],
      moved: [],
      unplaced: [search],
    });
  });

  it('sends a query parameter whose {name} the path has in the path, and says so; a path one keeps its own', () => {
    const item = { name: 'itemId', in: 'query', schema: { type: 'string' } };
    const inPath = { ...item, in: 'path', required: true };
    expect(placeParameters('/items/{itemId}', [item])).toEqual({ placed: [inPath], moved: [inPath], unplaced: [] });
    // Declared in both places: each is sent where it is declared.
    const both = { name: 'itemId', in: 'path', required: true };
    expect(placeParameters('/items/{itemId}', [both, item])).toEqual({ placed: [both, item], moved: [], unplaced: [] });
    const draft = draftFromOpenApi(
      {
        openapi: '3.0.3',
        info: { title: 'Items', version: '1.0.0' },
        paths: { '/items/{itemId}': { get: { parameters: [item], responses: { '200': { description: 'OK' } } } } },
      },
      'items.json',
    );
    const tool = (draft.data.tools as Record<string, { http: unknown; input: unknown }>).get_items;
    expect(tool?.http).toEqual({ method: 'GET', path: '/items/{itemId}', args: { itemId: 'path' } });
    expect(tool?.input).toMatchObject({ required: ['itemId'], properties: { itemId: { type: 'string' } } });
    expect(draft.flags.filter((flag) => flag.includes('itemId'))).toEqual([
      'tool "get_items" (GET /items/{itemId}): parameter "itemId" is declared in the query, but the path has ' +
        '{itemId}, which a URL cannot keep as written; it is sent in the path ' +
        '(check the spec, correct it with --overlay)',
    ]);
  });

  it('sends a literal pair before the query arguments, on the operation path', () => {
    const binding: HttpBindingSpec = {
      tool: 'export_items',
      method: 'GET',
      path: '/items/{id}/export?format=json',
      args: [
        { name: 'id', in: 'path' },
        { name: 'fields', in: 'query' },
      ],
      body: 'application/json',
      result: 'body',
      errorMessage: null,
      structured: false,
    };
    const request = buildRequest(binding, 'https://api.example.test/v1/', { id: 'a b', fields: 'name' });
    expect(request.url.href).toBe('https://api.example.test/v1/items/a%20b/export?format=json&fields=name');
  });
});
