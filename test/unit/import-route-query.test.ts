import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';
import { routePath } from '../../src/import/openapi-route.js';
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

  it('keeps a literal pair, and says which placeholder no query parameter fills', () => {
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
    expect(routePath('/find?q={query}&&x={nothing}', args)).toEqual({
      path: '/find',
      problems: [
        'its path carries the query "q={query}", which no query parameter named "q" fills; it is left out of the ' +
          'request (write a handler)',
        'its path carries the query "x={nothing}", which no query parameter named "x" fills; it is left out of the ' +
          'request (write a handler)',
      ],
    });
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
