import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compareText, sortBy } from '../../src/util/compare.js';
import { durationMs, formatDuration, parseDuration } from '../../src/util/duration.js';
import { formatPointer, parsePointer, resolvePointer } from '../../src/util/json-pointer.js';
import { isLoopbackHost } from '../../src/util/net.js';
import { singleQuoted } from '../../src/emit/shared/literal.js';
import { hashSortedJson, sortedJsonText, sortKeysDeep, stableJson } from '../../src/util/stable-json.js';
import { editDistance, suggestClosest } from '../../src/util/suggest.js';
import { toolsListCost, utf8Length } from '../../src/review/tokens.js';
import type { ServerModel } from '../../src/model/types.js';

describe('compareText', () => {
  it('sorts by code unit, not by locale', () => {
    expect(['b', 'B', 'a', 'A', '_', 'é', 'z'].sort(compareText)).toEqual(['A', 'B', '_', 'a', 'b', 'z', 'é']);
    expect(sortBy([{ n: 'b' }, { n: 'a' }], (x) => x.n)).toEqual([{ n: 'a' }, { n: 'b' }]);
  });
});

describe('stableJson', () => {
  it('sorts keys recursively, keeps array order, ends with a newline', () => {
    expect(stableJson({ b: 1, a: { d: [3, 1], c: null } })).toBe(
      '{\n  "a": {\n    "c": null,\n    "d": [\n      3,\n      1\n    ]\n  },\n  "b": 1\n}\n',
    );
  });

  it('writes exactly JSON.stringify of the sorted copy, for objects shared at one or several depths', () => {
    const shared = Object.freeze({ z: [1, { y: 'é\u2028"' }], a: {}, u: undefined, f: () => 1, n: Number.NaN });
    const values: unknown[] = [
      {
        list: [shared, shared, { deeper: shared }],
        again: shared,
        empty: [],
        holes: [undefined, new Array(1), 0],
        d: new Date(0),
      },
      [[], {}, null, true, -0, 1e21, 'x'],
      'text',
      undefined,
    ];
    for (const value of values) expect(stableJson(value)).toBe(`${JSON.stringify(sortKeysDeep(value), null, 2)}\n`);
  });

  it('hashSortedJson hashes exactly the text of sortedJsonText, frozen parts and fresh ones alike', () => {
    const shared = Object.freeze({ b: [1, Object.freeze({ y: 'é' })], a: null });
    const values: unknown[] = [
      [{ name: 'x', schema: shared, u: undefined, list: [shared, undefined, () => 1] }, shared, 'é\u2028', 3],
      { z: { empty: {}, none: [] }, a: shared },
      'text',
    ];
    for (const value of values) {
      const hash = createHash('sha256');
      hashSortedJson(hash, value);
      expect(hash.digest('hex')).toBe(createHash('sha256').update(sortedJsonText(value), 'utf8').digest('hex'));
    }
  });
});

describe('durations', () => {
  it('parses each unit and rejects the rest', () => {
    expect([
      parseDuration('500ms'),
      parseDuration('90s'),
      parseDuration('15m'),
      parseDuration('2h'),
      parseDuration('1d'),
    ]).toEqual([500, 90_000, 900_000, 7_200_000, 86_400_000]);
    expect(parseDuration('2hours')).toBeUndefined();
    expect(parseDuration('0s')).toBeUndefined();
  });

  it('writes milliseconds in the largest unit that divides them, which parses back', () => {
    const values = [500, 30_000, 10_000, 90_000, 900_000, 7_200_000, 86_400_000, 1_500];
    expect(values.map(formatDuration)).toEqual(['500ms', '30s', '10s', '90s', '15m', '2h', '1d', '1500ms']);
    expect(values.map((ms) => parseDuration(formatDuration(ms)))).toEqual(values);
  });

  it('takes ttlMs, else the parsed ttl, else the fallback', () => {
    expect([durationMs('2s', undefined, 7), durationMs(undefined, 5, 7), durationMs(undefined, undefined, 7)]).toEqual([
      2000, 5, 7,
    ]);
  });
});

describe('json pointers', () => {
  it('round-trips escaped segments', () => {
    expect(parsePointer('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(formatPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(resolvePointer({ $defs: { X: { type: 'string' } } }, ['$defs', 'X'])).toEqual({ type: 'string' });
    expect(resolvePointer({ a: [1] }, ['a', '1'])).toBeUndefined();
    expect(resolvePointer({}, ['toString'])).toBeUndefined();
  });
});

describe('suggestions', () => {
  it('finds plausible typos only', () => {
    expect(editDistance('titel', 'title')).toBe(1);
    expect(suggestClosest('titel', ['description', 'title'])).toBe('title');
    expect(suggestClosest('Tools', ['tools'])).toBe('tools');
    expect(suggestClosest('zzz', ['title'])).toBeUndefined();
  });
});

describe('loopback hosts', () => {
  it('accepts only this machine', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', 'example.com', '::'].some(isLoopbackHost)).toBe(false);
  });
});

describe('singleQuoted', () => {
  it('writes any text as a single-quoted literal that evaluates back to the same text', () => {
    const samples = [
      '../handlers/tools/add.js',
      "it's",
      'a"b',
      'back\\slash',
      'a\\"b',
      "a\\'b",
      'line\nbreak',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is one of the hard cases
      '${x}`',
      '*/',
      '\u2028é\u0000',
    ];
    for (const text of samples) {
      const literal = singleQuoted(text);
      expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
      expect(new Function(`return ${literal};`)()).toBe(text);
    }
    expect(singleQuoted('../handlers/tools/add.js')).toBe("'../handlers/tools/add.js'");
    expect(singleQuoted('it\'s "so"')).toBe("'it\\'s \"so\"'");
  });
});

describe('utf8Length', () => {
  it('counts UTF-8 bytes as Buffer.byteLength does, lone surrogates included', () => {
    const texts = [
      '',
      'ascii only',
      'caf\u00e9',
      '\u07ff\u0800\uffff',
      '\u{1F600}x\u{10FFFF}',
      '\ud800',
      'a\udc00b',
      '\udc00\ud800',
    ];
    texts.push(texts.join('\u00e9'), `${'x'.repeat(1000)}\u{1F600}\ud83d`);
    expect(texts.map(utf8Length)).toEqual(texts.map((t) => Buffer.byteLength(t, 'utf8')));
    expect(utf8Length('\u{1F600}\u00e9a')).toBe(7);
  });
});

describe('toolsListCost', () => {
  it('counts the bytes of the tools/list JSON, shared schemas at every use', () => {
    const shared = {
      type: 'string',
      description: 'caf\u00e9 \u{1F600}',
      enum: ['a', null, 1.5, -0, 1e21],
      x: undefined,
    };
    const schema = (extra: object) => ({
      type: 'object',
      properties: { a: shared, b: shared, c: [shared, [], {}] },
      ...extra,
    });
    const tool = (name: string, output: object | null) => ({
      name,
      title: name === 'one' ? null : 'T\u00eftle',
      description: 'd "quoted" \\ \n \u2028',
      icons: name === 'two' ? [{ src: 'https://example.com/i.png', sizes: ['any'] }] : [],
      wireInput: schema({ holes: [undefined, () => 1, Number.NaN] }),
      wireOutput: output,
      annotations: { readOnlyHint: true, nothing: undefined },
    });
    const tools = [tool('one', null), tool('two', shared), tool('three', {})];
    const model = { tools } as unknown as ServerModel;
    const json = JSON.stringify({
      tools: tools.map((t) => ({
        name: t.name,
        ...(t.title === null ? {} : { title: t.title }),
        description: t.description,
        ...(t.icons.length === 0 ? {} : { icons: t.icons }),
        inputSchema: t.wireInput,
        ...(t.wireOutput === null ? {} : { outputSchema: t.wireOutput }),
        annotations: t.annotations,
      })),
    });
    const bytes = Buffer.byteLength(json, 'utf8');
    expect(toolsListCost(model)).toEqual({ bytes, tokens: Math.ceil(bytes / 4) });
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => toolsListCost({ tools: [{ ...tools[0], wireInput: loop }] } as unknown as ServerModel)).toThrow(
      TypeError,
    );
  });
});
