import { describe, expect, it } from 'vitest';
import { TagToolsets } from '../../src/import/openapi-toolsets.js';

describe('one toolset per OpenAPI tag', () => {
  it('labels tools with wire names and names toolsets as the manifest takes them, in the spec tag order', () => {
    const api = {
      tags: [
        { name: 'Pet Store', description: 'Pets.\n\nMore about pets.' },
        { name: 'all' },
        { name: 'unused', description: 'No operation has it.' },
        { name: '2fa', description: '   ' },
      ],
    };
    const tagged = new TagToolsets(api);
    expect(tagged.label(['late', 'Pet Store'])).toEqual(['late', 'Pet-Store']);
    expect(tagged.label(['2fa', 'all', 'Pet Store', 'pet-store'])).toEqual(['2fa', 'all', 'Pet-Store', 'pet-store']);
    expect(tagged.label(['PET STORE'])).toEqual(['PET-STORE']);
    expect(tagged.label([])).toEqual([]);
    const { toolsets, notes } = tagged.toolsets();
    expect(toolsets).toEqual({
      'pet-store': { description: 'Pets.', tags: ['Pet-Store'] },
      'all-tag': { description: 'The operations the spec tags "all".', tags: ['all'] },
      'tag-2fa': { description: 'The operations the spec tags "2fa".', tags: ['2fa'] },
      late: { description: 'The operations the spec tags "late".', tags: ['late'] },
      'pet-store-2': { description: 'The operations the spec tags "pet-store".', tags: ['pet-store'] },
      'pet-store-3': { description: 'The operations the spec tags "PET STORE".', tags: ['PET-STORE'] },
    });
    expect(Object.keys(toolsets)).toEqual(['pet-store', 'all-tag', 'tag-2fa', 'late', 'pet-store-2', 'pet-store-3']);
    expect(notes).toEqual([
      {
        path: ['toolsets', 'pet-store', 'description'],
        text: 'imported text from the spec (tag "Pet Store"): untrusted, read it before publishing',
      },
    ]);
  });

  it('writes a dash the tag sets between spaces once, in the label and the toolset name', () => {
    // Adyen's Management API tags its operations `Account - company level`, `Users - merchant level`...
    const tagged = new TagToolsets({});
    expect(tagged.label(['Account - company level', 'a -- b'])).toEqual(['Account-company-level', 'a-b']);
    expect(Object.keys(tagged.toolsets().toolsets)).toEqual(['account-company-level', 'a-b']);
  });

  it('writes no toolset when no operation has a tag, and folds a long tag description', () => {
    expect(new TagToolsets({}).toolsets()).toEqual({ toolsets: {}, notes: [] });
    const tagged = new TagToolsets({ tags: [{ name: 'x', description: 'a'.repeat(400) }] });
    tagged.label(['x']);
    const description = String(tagged.toolsets().toolsets.x?.description);
    expect([description.length, description.endsWith('a…')]).toEqual([300, true]);
  });
});
