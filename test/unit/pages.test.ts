import { describe, expect, it } from 'vitest';
import { pagesData } from '../../src/emit/registry/pages.js';
import type { ServerModel } from '../../src/model/types.js';

// The cursors of list pages (src/emit/registry/pages.ts): one per page after the first, the same for
// the same list, different for another list, another version of a list, or another offset.

const model = (pageSize: number) => ({ pagination: { pageSize } }) as ServerModel;
const items = (n: number, label = 'item') => Array.from({ length: n }, (_, i) => ({ name: `${label}_${i}` }));
const lists = (tools: readonly unknown[]) => ({ tools, prompts: tools, resources: [], resourceTemplates: [] });

describe('list page cursors', () => {
  it('has one cursor per page after the first, none for a list that fits one page', () => {
    const pages = pagesData(model(10), lists(items(25)));
    expect(pages.size).toBe(10);
    expect(pages.cursors.tools).toHaveLength(2);
    expect(pagesData(model(10), lists(items(10))).cursors.tools).toEqual([]);
    expect(pages.cursors.resources).toEqual([]);
    expect(new Set(pages.cursors.tools).size).toBe(2);
    for (const cursor of pages.cursors.tools) expect(cursor).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('is the same for the same list, and differs by list name and by contents', () => {
    const once = pagesData(model(10), lists(items(25)));
    expect(pagesData(model(10), lists(items(25)))).toEqual(once);
    expect(once.cursors.prompts).not.toEqual(once.cursors.tools);
    const changed = pagesData(model(10), lists(items(25, 'other'))).cursors.tools;
    expect(changed.filter((cursor) => once.cursors.tools.includes(cursor))).toEqual([]);
  });

  it('names the offset, not the page number: offset 20 has one cursor whatever the page size', () => {
    const by10 = pagesData(model(10), lists(items(25))).cursors.tools;
    const by5 = pagesData(model(5), lists(items(25))).cursors.tools;
    expect(by5[3]).toBe(by10[1]);
    expect(by5[0]).not.toBe(by10[0]);
  });
});
