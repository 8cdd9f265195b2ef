// biome-ignore-all lint/suspicious/noTemplateCurlyInString: descriptions hold a literal ${...}, kept as written
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { block, cell, code, fenceFor, inline, paragraphs, table } from '../../src/emit/shared/markdown.js';
import { repoRoot } from '../support/golden.js';

// Untrusted text stays text: what a description holds must not render as HTML or as Markdown structure.
describe('inline', () => {
  it('entity-encodes `<` and entity-like `&`, so no HTML tag, comment, autolink or entity opens', () => {
    expect(inline('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)>');
    expect(inline('<script>alert(1)</script>')).toBe('&lt;script>alert(1)&lt;/script>');
    expect(inline('<!-- hidden --> <https://example.com>')).toBe('&lt;!-- hidden --> &lt;https://example.com>');
    expect(inline('&amp; &#60; &#x3C; and R&D & co')).toBe('&amp;amp; &amp;#60; &amp;#x3C; and R&D & co');
  });

  it('escapes what would start a block at the start of the text', () => {
    expect(
      ['# Owned', '### Owned', '> quote', '- item', '+ item', '* item', '1. first', '2) second', '=== ', '---'].map(
        inline,
      ),
    ).toEqual([
      '\\# Owned',
      '\\### Owned',
      '\\> quote',
      '\\- item',
      '\\+ item',
      '\\* item',
      '1\\. first',
      '2\\) second',
      '\\===',
      '\\---',
    ]);
    // Indentation would make a code block.
    expect(inline('    indented # not a heading')).toBe('indented # not a heading');
  });

  it('escapes links, emphasis, strikethrough, code spans, pipes and a heading`s closing #', () => {
    expect(inline('[a link](https://example.com/) and ![img](x.png) and [ref]: https://evil')).toBe(
      '\\[a link\\](https://example.com/) and !\\[img\\](x.png) and \\[ref\\]: https://evil',
    );
    expect(inline('**bold** *em* _em_ __init__ ~~gone~~ `code` a | b')).toBe(
      '\\*\\*bold\\*\\* \\*em\\* \\_em\\_ \\_\\_init\\_\\_ \\~\\~gone\\~\\~ \\`code\\` a \\| b',
    );
    expect(inline('Title #')).toBe('Title \\#');
    expect(inline('Title ##  ')).toBe('Title \\##');
  });

  it('folds line breaks, so nothing after one starts a block', () => {
    expect(inline('one\n# two\r\n- three\u2028> four')).toBe('one # two - three > four');
  });

  it('keeps ordinary prose as written', () => {
    const prose =
      "Finds notes by title (case-insensitive), e.g. 'draft'; returns 1.5x more. search_notes! ${x} {y} 2+2=4";
    expect(inline(prose)).toBe(prose);
  });

  it('escapes a backslash only where Markdown would read it: before punctuation or at the end', () => {
    expect(inline('C:\\Users\\me and \\*not em\\* and end\\')).toBe(
      'C:\\Users\\me and \\\\\\*not em\\\\\\* and end\\\\',
    );
  });
});

describe('paragraphs', () => {
  it('keeps the lines and blank lines of a description, each line escaped as the start of a block', () => {
    expect(paragraphs('First line.\n# Owned\n\n\n\n  - item\n    code?\n| a | b |\n|---|---|\n')).toBe(
      'First line.\n\\# Owned\n\n\\- item\ncode?\n\\| a \\| b \\|\n\\|---\\|---\\|',
    );
  });
});

describe('tables', () => {
  it('escapes every pipe of a cell once, code spans included, and folds line breaks', () => {
    expect(table(['name', 'what'], [[code('a|b'), cell('x | y\n- z')]])).toBe(
      '| name | what |\n| --- | --- |\n| `a\\|b` | x \\| y - z |',
    );
    // A pipe escaped in the text keeps its backslash: GFM removes one backslash before a cell's pipe.
    expect(table(['what'], [[cell('a \\| b')]])).toBe('| what |\n| --- |\n| a \\\\\\| b |');
    expect([cell(null), cell(''), cell('  '), cell('<b>')]).toEqual(['—', '—', '—', '&lt;b>']);
  });
});

describe('code and fences', () => {
  it('a code span outlasts the backticks inside it and stays on one line', () => {
    expect(code('plain')).toBe('`plain`');
    expect(code('a `b` c')).toBe('``a `b` c``');
    expect(code('`edge`')).toBe('`` `edge` ``');
    expect(code('one\n# two')).toBe('`one # two`');
  });

  it('a fence outlasts every backtick run of its content', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ``` b', '````')).toBe('`````');
    expect(block('json', '"```\\n<script>"\n```\n')).toBe('````json\n"```\\n<script>"\n```\n````');
  });
});

describe('DESIGN.md and README.md of a manifest with markup in its descriptions', () => {
  const expected = path.join(repoRoot, 'test', 'fixtures', 'valid', 'special-characters', 'expected');
  const read = (file: string) => readFileSync(path.join(expected, file), 'utf8');

  it('README.md shows the server description as text', () => {
    expect(read('README.md').split('\n').slice(0, 11).join('\n')).toBe(
      [
        '# Tricky \\*/ \\`server\\` ${name}',
        '',
        'Quotes " and \' and backslash \\ and a \\*/ comment end.',
        '\\# Owned',
        '&lt;img src=x onerror=alert(1)> and &lt;script>alert(2)&lt;/script>',
        '\\- a list item',
        '\\> a quote',
        '\\| a \\| table \\|',
        '\\|---\\|---\\|',
        '\\[a link\\](https://example.com/) and R&D &amp;amp; \\`code\\` and \\*\\*bold\\*\\* and snake_case',
        '',
      ].join('\n'),
    );
  });

  it("DESIGN.md shows a tool's title and description as text inside its table row", () => {
    const row = read('DESIGN.md')
      .split('\n')
      .find((line) => line.startsWith('| tool | `con` |'));
    expect(row).toBe(
      '| tool | `con` | &lt;img src=x onerror=alert(1)> \\| cell | \\# Owned &lt;script>alert(3)&lt;/script> ' +
        '\\[link\\](https://example.com/) \\| a - list 1. | readOnly=true, openWorld=false | — |',
    );
  });

  it('a tool named con gets the handler file con_.ts', () => {
    expect(read('src/handlers/tools/con_.ts')).toContain('export const conHandler');
  });
});
