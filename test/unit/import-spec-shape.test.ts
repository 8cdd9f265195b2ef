import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';

// Parts of a spec whose shape OpenAPI does not allow were passed over without a word: an operation that is a list,
// a parameter without a name, one that is not an object, an operationId that is a number, responses that are a
// number. Each is now an import warning that says what the draft does instead.

describe('import openapi: a spec part of the wrong shape', () => {
  it('is a warning that says what the draft does instead, and the rest imports as before', () => {
    const draft = draftFromOpenApi(
      {
        openapi: '3.0.3',
        info: { title: 'Shapes', version: '1.0.0' },
        servers: [{ url: 'https://shapes.example.com' }],
        components: { parameters: { Broken: { in: 'query', schema: { type: 'string' } } } },
        paths: {
          '/a': {
            parameters: 'none',
            get: {
              operationId: 7,
              parameters: [
                { in: 'query', schema: { type: 'string' } },
                5,
                { name: 'q', schema: { type: 'string' } },
                { $ref: '#/components/parameters/Broken' },
                { name: 'b', in: 'body', schema: { type: 'string' } },
              ],
              responses: 5,
            },
            put: [],
          },
        },
      },
      'shapes.yaml',
    );
    expect(draft.warnings).toEqual([
      'GET /a: operationId 7 is not a string; the tool is named from the method and path',
      "GET /a: responses is 5, not a mapping; the tool's answer is not described",
      'GET /a: the path item\'s parameters are "none", not a list; none of them is sent',
      'GET /a: the operation\'s parameter 1 has no "name"; it is left out',
      "GET /a: the operation's parameter 2 is 5, not a Parameter Object; it is left out",
      'GET /a: the operation\'s parameter 3 ("q") has no "in"; it is sent in the query, where a parameter goes by ' +
        'default',
      'GET /a: the operation\'s parameter 4 has no "name"; it is left out',
      'PUT /a: is a list, not an Operation Object; the operation is left out',
    ]);
    const tools = draft.data.tools as Record<string, { http: { args?: unknown } }>;
    expect(Object.keys(tools)).toEqual(['list_a']);
    expect(tools.list_a?.http.args).toEqual({ q: 'query' });
  });
});
