import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handlerPath } from '../../src/model/layout.js';
import { camelCase, fileStem, handlerExport, pascalCase, snakeCase, suggestName } from '../../src/model/naming.js';
import { compareText, sortBy } from '../../src/util/compare.js';
import { durationMs, formatDuration, parseDuration } from '../../src/util/duration.js';
import { formatPointer, parsePointer, resolvePointer } from '../../src/util/json-pointer.js';
import { isLoopbackHost } from '../../src/util/net.js';
import { singleQuoted } from '../../src/emit/shared/literal.js';
import { compileSchema } from '../../src/emit/types/compile.js';
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

describe('naming', () => {
  it('derives identifiers', () => {
    expect(camelCase('search_notes')).toBe('searchNotes');
    expect(camelCase('get_item_2')).toBe('getItem2');
    expect(camelCase('delete')).toBe('delete_');
    expect(pascalCase('note_draft')).toBe('NoteDraft');
    expect(suggestName('Get Weather')).toBe('get_weather');
    expect(suggestName('searchNotes')).toBe('search_notes');
  });

  it('derives identifiers and files from every name MCP allows, the same for names differing in separators', () => {
    const names = [
      'get-sum',
      'get_sum',
      'getSum',
      'GetSum',
      'printEnv',
      'HTTPServer',
      'v2.search_items',
      'get_URL',
      '2fa',
      '-',
      '.',
      'delete',
    ];
    const derived = names.map((name) => [
      name,
      camelCase(name),
      pascalCase(name),
      handlerExport(name),
      fileStem(name),
      snakeCase(name),
    ]);
    expect(derived).toEqual([
      ['get-sum', 'getSum', 'GetSum', 'getSumHandler', 'get-sum', 'get_sum'],
      ['get_sum', 'getSum', 'GetSum', 'getSumHandler', 'get_sum', 'get_sum'],
      ['getSum', 'getSum', 'GetSum', 'getSumHandler', 'get-sum', 'get_sum'],
      ['GetSum', 'getSum', 'GetSum', 'getSumHandler', 'get-sum', 'get_sum'],
      ['printEnv', 'printEnv', 'PrintEnv', 'printEnvHandler', 'print-env', 'print_env'],
      ['HTTPServer', 'httpServer', 'HTTPServer', 'httpServerHandler', 'http-server', 'http_server'],
      [
        'v2.search_items',
        'v2SearchItems',
        'V2SearchItems',
        'v2SearchItemsHandler',
        'v2-search-items',
        'v2_search_items',
      ],
      ['get_URL', 'getURL', 'GetURL', 'getURLHandler', 'get-url', 'get_url'],
      ['2fa', '_2fa', '_2Fa', '_2faHandler', '2fa', '2fa'],
      ['-', 'x2d', 'X2D', 'x2dHandler', 'x2d', 'x2d'],
      ['.', 'x2e', 'X2E', 'x2eHandler', 'x2e', 'x2e'],
      ['delete', 'delete_', 'Delete', 'deleteHandler', 'delete', 'delete'],
    ]);
    const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
    expect(derived.flatMap(([, ...out]) => out.slice(0, 3)).filter((id) => !identifier.test(id ?? ''))).toEqual([]);
  });

  it('gives Windows device names a safe handler file name, whatever their case', () => {
    const names = [
      'con',
      'CON',
      'Con',
      'prn',
      'aux',
      'nul',
      'com1',
      'COM9',
      'lpt1',
      'lpt9',
      'con.search',
      'com0',
      'console',
    ];
    expect(names.map((name) => [name, fileStem(name), handlerPath('tool', name)])).toEqual([
      ['con', 'con_', 'src/handlers/tools/con_.ts'],
      ['CON', 'con_', 'src/handlers/tools/con_.ts'],
      ['Con', 'con_', 'src/handlers/tools/con_.ts'],
      ['prn', 'prn_', 'src/handlers/tools/prn_.ts'],
      ['aux', 'aux_', 'src/handlers/tools/aux_.ts'],
      ['nul', 'nul_', 'src/handlers/tools/nul_.ts'],
      ['com1', 'com1_', 'src/handlers/tools/com1_.ts'],
      ['COM9', 'com9_', 'src/handlers/tools/com9_.ts'],
      ['lpt1', 'lpt1_', 'src/handlers/tools/lpt1_.ts'],
      ['lpt9', 'lpt9_', 'src/handlers/tools/lpt9_.ts'],
      ['con.search', 'con-search', 'src/handlers/tools/con-search.ts'],
      ['com0', 'com0', 'src/handlers/tools/com0.ts'],
      ['console', 'console', 'src/handlers/tools/console.ts'],
    ]);
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

describe('type names', () => {
  it('are the names json-schema-to-typescript declares, so a type is declared and used under one name', async () => {
    const names = [
      'io.k8s.api.admissionregistration.v1alpha1.Rule',
      'io.k8s.api.admissionregistration.v1Alpha1.Rule',
      'v2beta1_thing',
      '2fa',
      'ipv4address',
      'get_pets',
      '-',
    ];
    expect(names.map(pascalCase)).toEqual([
      'IoK8SApiAdmissionregistrationV1Alpha1Rule',
      'IoK8SApiAdmissionregistrationV1Alpha1Rule',
      'V2Beta1Thing',
      '_2Fa',
      'Ipv4Address',
      'GetPets',
      'X2D',
    ]);
    for (const name of names.map(pascalCase))
      expect(await compileSchema({ type: 'object', properties: { a: { type: 'string' } } }, name)).toContain(
        `export interface ${name} {`,
      );
  });
});
