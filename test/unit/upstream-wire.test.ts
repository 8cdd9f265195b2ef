import { describe, expect, it } from 'vitest';
import type { ArgumentSpec, ParameterStyle } from '../../templates/runtime/upstream-spec.gen.js';
import {
  cookiePairs,
  formBody,
  headerText,
  multipartBody,
  pathText,
  percentEncode,
  queryPairs,
} from '../../templates/runtime/upstream-wire.gen.js';

// The wire form of arguments (templates/runtime/upstream-wire.gen.ts) against the OpenAPI Specification's own style
// examples ("Style Examples" of the Parameter Object): `color` as the string "blue", the array [blue, black] and the
// object {R: 100, G: 200}, for every style and explode value the table defines.

const string = 'blue';
const array = ['blue', 'black'];
const object = { R: 100, G: 200 };

const arg = (location: ArgumentSpec['in'], style: ParameterStyle, explode: boolean): ArgumentSpec => ({
  name: 'color',
  in: location,
  style,
  explode,
});
const query = (style: ParameterStyle, explode: boolean, value: unknown) =>
  queryPairs('color', value, { style, explode }).join('&');

describe('the OpenAPI style examples', () => {
  it.each([
    ['simple', false, 'blue', 'blue,black', 'R,100,G,200'],
    ['simple', true, 'blue', 'blue,black', 'R=100,G=200'],
    ['label', false, '.blue', '.blue,black', '.R,100,G,200'],
    ['label', true, '.blue', '.blue.black', '.R=100.G=200'],
    ['matrix', false, ';color=blue', ';color=blue,black', ';color=R,100,G,200'],
    ['matrix', true, ';color=blue', ';color=blue;color=black', ';R=100;G=200'],
  ] as const)('path, style %s, explode %s', (style, explode, s, a, o) => {
    const p = arg('path', style, explode);
    expect([pathText(p, string), pathText(p, array), pathText(p, object)]).toEqual([s, a, o]);
  });

  it.each([
    ['form', false, 'color=blue', 'color=blue,black', 'color=R,100,G,200'],
    ['form', true, 'color=blue', 'color=blue&color=black', 'R=100&G=200'],
    ['spaceDelimited', false, 'color=blue', 'color=blue%20black', 'color=R%20100%20G%20200'],
    ['pipeDelimited', false, 'color=blue', 'color=blue|black', 'color=R|100|G|200'],
    ['deepObject', true, 'color=blue', 'color[0]=blue&color[1]=black', 'color[R]=100&color[G]=200'],
  ] as const)('query, style %s, explode %s', (style, explode, s, a, o) => {
    expect([query(style, explode, string), query(style, explode, array), query(style, explode, object)]).toEqual([
      s,
      a,
      o,
    ]);
  });

  it('spaceDelimited and pipeDelimited with explode true are form with explode true', () => {
    expect(query('spaceDelimited', true, array)).toBe('color=blue&color=black');
    expect(query('pipeDelimited', true, array)).toBe('color=blue&color=black');
  });

  it('header: simple, exploded objects as key=value', () => {
    expect(headerText(arg('header', 'simple', false), array)).toBe('blue,black');
    expect(headerText(arg('header', 'simple', false), object)).toBe('R,100,G,200');
    expect(headerText(arg('header', 'simple', true), object)).toBe('R=100,G=200');
    expect(headerText(arg('header', 'simple', false), string)).toBe('blue');
  });

  it('cookie: form; explode false joins with commas, explode true is one cookie per item', () => {
    expect(cookiePairs(arg('cookie', 'form', false), array)).toEqual(['color=blue,black']);
    expect(cookiePairs(arg('cookie', 'form', false), object)).toEqual(['color=R,100,G,200']);
    expect(cookiePairs(arg('cookie', 'form', true), array)).toEqual(['color=blue', 'color=black']);
    expect(cookiePairs(arg('cookie', 'form', true), object)).toEqual(['R=100', 'G=200']);
    expect(cookiePairs({ name: 'session', in: 'cookie' }, 's 1')).toEqual(['session=s%201']);
  });

  it('defaults: form with explode true in the query, simple without explode in the path', () => {
    expect(queryPairs('ids', [1, 2], {}).join('&')).toBe('ids=1&ids=2');
    expect(pathText({ name: 'ids', in: 'path' }, [1, 2])).toBe('1,2');
  });
});

describe('percent-encoding', () => {
  it('encodes every reserved character of a value unless allowReserved', () => {
    expect(percentEncode("a/b?c=d&e#f [x]!'()*+,;:@$")).toBe(
      'a%2Fb%3Fc%3Dd%26e%23f%20%5Bx%5D%21%27%28%29%2A%2B%2C%3B%3A%40%24',
    );
    expect(percentEncode('a/b?c=d&e#f [x] 50%25', true)).toBe('a/b?c=d&e%23f%20[x]%2050%25');
    expect(queryPairs('q', 'a/b,c', { allowReserved: true })).toEqual(['q=a/b,c']);
    expect(queryPairs('q', 'a/b,c', {})).toEqual(['q=a%2Fb%2Cc']);
  });

  it('encodes a path value so that it brings no / of its own', () => {
    expect(pathText({ name: 'id', in: 'path' }, 'a/b')).toBe('a%2Fb');
    expect(pathText({ name: 'id', in: 'path', style: 'label' }, ['a/b', 'c'])).toBe('.a%2Fb,c');
  });

  it('sends a lone surrogate as U+FFFD', () => {
    expect(percentEncode('a\uD800b')).toBe('a%EF%BF%BDb');
  });
});

describe('deepObject and form bodies in the bracket form', () => {
  it('nests objects and numbers array items: created[gte]=..., a[b][c]=v, a[0]=v', () => {
    expect(queryPairs('created', { gte: 1700000000, lt: 1800000000 }, { style: 'deepObject', explode: true })).toEqual([
      'created[gte]=1700000000',
      'created[lt]=1800000000',
    ]);
    expect(queryPairs('a', { b: { c: 'v w' }, l: ['x', { y: 1 }] }, { style: 'deepObject' })).toEqual([
      'a[b][c]=v%20w',
      'a[l][0]=x',
      'a[l][1][y]=1',
    ]);
  });

  it('a form body: scalars as form, objects and arrays of objects in brackets, the Encoding Object first', () => {
    const body = {
      email: 'ana@example.com',
      name: 'Ana Lima',
      metadata: { order: '42' },
      preferred_locales: ['en', 'fr'],
      expand: ['customer', 'invoice'],
      items: [{ price: 'p_1', quantity: 2 }],
      tags: ['a', 'b'],
    };
    const encoding = {
      preferred_locales: { style: 'deepObject', explode: true },
      tags: { explode: false },
    } as const;
    expect(formBody(body, encoding)).toBe(
      'email=ana%40example.com&name=Ana+Lima&metadata[order]=42&preferred_locales[0]=en&preferred_locales[1]=fr' +
        '&expand=customer&expand=invoice&items[0][price]=p_1&items[0][quantity]=2&tags=a,b',
    );
  });

  it('a multipart body: one part per member and per array item, objects as JSON, contentType from encoding', () => {
    const bytes = multipartBody(
      { caption: 'Rex', meta: { a: 1 }, tags: ['x', 'y'], file: 'raw' },
      { file: { contentType: 'image/png' } },
      'B',
    );
    expect(Buffer.from(bytes).toString()).toBe(
      '--B\r\nContent-Disposition: form-data; name="caption"\r\n\r\nRex\r\n' +
        '--B\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n' +
        '--B\r\nContent-Disposition: form-data; name="tags"\r\n\r\nx\r\n' +
        '--B\r\nContent-Disposition: form-data; name="tags"\r\n\r\ny\r\n' +
        '--B\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\nraw\r\n' +
        '--B--\r\n',
    );
  });

  it('a multipart file (bytes): the bytes as they are, with a file name, application/octet-stream by default', () => {
    const bytes = multipartBody(
      { photo: new Uint8Array([0x89, 0x00, 0xff]), scans: [new Uint8Array([1]), new Uint8Array([2])] },
      { scans: { contentType: 'image/tiff', bytes: true } },
      'B',
    );
    expect(Buffer.from(bytes)).toEqual(
      Buffer.concat([
        Buffer.from('--B\r\nContent-Disposition: form-data; name="photo"; filename="photo"\r\n'),
        Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
        Buffer.from([0x89, 0x00, 0xff]),
        Buffer.from('\r\n--B\r\nContent-Disposition: form-data; name="scans"; filename="scans"\r\n'),
        Buffer.from('Content-Type: image/tiff\r\n\r\n\x01\r\n'),
        Buffer.from('--B\r\nContent-Disposition: form-data; name="scans"; filename="scans"\r\n'),
        Buffer.from('Content-Type: image/tiff\r\n\r\n\x02\r\n--B--\r\n'),
      ]),
    );
  });
});
