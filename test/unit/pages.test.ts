import { describe, expect, it } from 'vitest';
import { pagesData } from '../../src/emit/registry/pages.js';
import type { ServerModel } from '../../src/model/types.js';
import { pageStarts } from '../../src/review/tokens.js';
import { sortedLine } from '../../src/util/stable-json.js';

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

  it('hashes the one-line text a large registry already wrote for its tools exactly as it hashes the tools', () => {
    // Unsorted keys, nesting, a shared frozen object reached twice, characters JSON escapes: the text must be the same.
    const shared = Object.freeze({ z: 1, a: ['é', '"q"', null] });
    const tools = items(25).map((t, i) => ({ zeta: i, ...t, schema: { b: shared, a: { y: [shared], x: '\n' } } }));
    const lines = new Map(tools.map((t) => [t, sortedLine(t)] as const));
    const plain = pagesData(model(10), lists(tools));
    expect(pagesData(model(10), lists(tools), [], lines)).toEqual(plain);
    // Only a text for every tool is used: a list it covers in part is hashed from the data.
    const partial = new Map([...lines].slice(1));
    expect(pagesData(model(10), lists(tools), [], partial)).toEqual(plain);
    expect(pagesData(model(10), lists(tools), [], new Map([[tools[0], '{}'], ...partial]))).not.toEqual(plain);
  });
});

describe('tools/list pages cut by bytes', () => {
  const costs = (bytes: readonly number[]) => bytes.map((b) => ({ bytes: b, tokens: Math.ceil(b / 4) }));
  const mib = 1024 * 1024;

  it('cuts by count alone while every page fits the byte budget: no toolStarts, the same cursors as before', () => {
    const small = pagesData(model(10), lists(items(25)), costs(Array(25).fill(1000)));
    expect(small).toEqual(pagesData(model(10), lists(items(25))));
    expect('toolStarts' in small).toBe(false);
  });

  it('starts a page where the next tool would take it past 1 MiB; a tool over 1 MiB has a page of its own', () => {
    // 400 KiB, 400 KiB, 400 KiB (would be 1.2 MiB), 2 MiB alone, then 10 small ones cut by count (size 10).
    const sizes = [400 * 1024, 400 * 1024, 400 * 1024, 2 * mib, ...Array(12).fill(100)];
    const pages = pagesData(model(10), lists(items(16)), costs(sizes));
    expect(pages.toolStarts).toEqual([0, 2, 3, 4, 14]);
    expect(pages.cursors.tools).toHaveLength(4);
    expect(pages.cursors.prompts).toHaveLength(1);
  });

  it('fills a page up to exactly the budget: 12 bytes of frame, a comma between tools', () => {
    const half = (mib - 12 - 2) / 2;
    // 12 + half + 1 + (half + 1) is exactly 1 MiB: one page; a byte more and the second tool starts a page.
    expect(pageStarts(costs([half, half + 1, 1]), 10)).toEqual([0, 2]);
    expect(pageStarts(costs([half, half + 2, 1]), 10)).toEqual([0, 1]);
    expect(pageStarts([], 10)).toEqual([0]);
  });
});
