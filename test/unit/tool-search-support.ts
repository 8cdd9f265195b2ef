import type { Searchable } from '../../templates/runtime/search-index.gen.js';

// The tools of the search tests' small corpora (tool-search.test.ts, tool-search-reading.test.ts).

/** A searchable tool: its name, description and what else the test gives it. */
export const tool = (
  name: string,
  description: string,
  extra: {
    title?: string;
    tags?: string[];
    properties?: Record<string, Record<string, unknown>>;
    $defs?: Record<string, unknown>;
  } = {},
): Searchable => ({
  name,
  listing: { ...(extra.title === undefined ? {} : { title: extra.title }), description, annotations: {} },
  inputSchema: {
    type: 'object',
    properties: extra.properties ?? {},
    ...(extra.$defs === undefined ? {} : { $defs: extra.$defs }),
  },
  tags: extra.tags ?? [],
});
