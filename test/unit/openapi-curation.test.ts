import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/from-openapi.js';
import type { ImportError } from '../../src/import/import-error.js';
import { parseFilters } from '../../src/import/openapi-filters.js';
import { applyOverlay } from '../../src/import/overlay.js';

// Curated imports on small documents: every filter kind, include/exclude semantics, the x-mcp and
// x-speakeasy-mcp shapes, and Overlay 1.0 update/remove actions.

const op = (operationId: string, tags: string[], extra: Record<string, unknown> = {}) => ({
  operationId,
  tags,
  summary: `The ${operationId} operation of the test API`,
  responses: { '200': { description: 'ok' } },
  ...extra,
});

function spec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Shop', version: '1.0.0' },
    paths: {
      '/pets': { get: op('listPets', ['pets']), post: op('createPet', ['pets', 'admin']) },
      '/pets/{id}': { get: op('getPet', ['pets']), delete: op('deletePet', ['pets', 'admin']) },
      '/store/orders': { get: op('listOrders', ['store']) },
    },
    ...extra,
  };
}

function toolsOf(include: string[], exclude: string[] = [], api = spec()) {
  const draft = draftFromOpenApi(api, 'shop.json', parseFilters(include, exclude));
  return { tools: Object.keys(draft.data.tools as object), warnings: draft.warnings, draft };
}

function filterError(include: string[], exclude: string[] = []): string {
  try {
    parseFilters(include, exclude);
  } catch (error) {
    return (error as ImportError).format();
  }
  return 'no error';
}

describe('--include and --exclude', () => {
  it('selects by tag, path glob, operationId glob and method', () => {
    expect(toolsOf(['tag:store']).tools).toEqual(['list_orders']);
    expect(toolsOf(['path:/pets/*']).tools).toEqual(['get_pet', 'delete_pet']);
    expect(toolsOf(['path:/pets']).tools).toEqual(['list_pets', 'create_pet']);
    expect(toolsOf(['path:/**']).tools).toEqual(['list_pets', 'create_pet', 'get_pet', 'delete_pet', 'list_orders']);
    expect(toolsOf(['op:list*']).tools).toEqual(['list_pets', 'list_orders']);
    expect(toolsOf(['op:?etPet']).tools).toEqual(['get_pet']);
    expect(toolsOf(['method:DELETE']).tools).toEqual(['delete_pet']);
  });

  it('takes the union of includes, and an exclude wins over them', () => {
    expect(toolsOf(['tag:store', 'method:delete']).tools).toEqual(['delete_pet', 'list_orders']);
    expect(toolsOf(['tag:pets'], ['tag:admin']).tools).toEqual(['list_pets', 'get_pet']);
    expect(toolsOf([], ['method:get']).tools).toEqual(['create_pet', 'delete_pet']);
    expect(toolsOf(['op:listPets'], ['op:listPets']).tools).toEqual([]);
  });

  it("names the filters in the draft's header", () => {
    const header = toolsOf(['tag:store'], ['method:delete']).draft.notes.filter((n) => n.path.length === 0);
    expect(header.map((n) => n.text)).toContain(
      'Operations chosen by --include "tag:store" --exclude "method:delete"; ' +
        '"import openapi --update" applies them again.',
    );
  });

  it('warns about a filter that matches no operation, naming it', () => {
    expect(toolsOf(['tag:pets', 'tag:nope'], ['path:/users/**']).warnings).toEqual([
      '--include "tag:nope" matches no operation of the spec',
      '--exclude "path:/users/**" matches no operation of the spec',
    ]);
  });

  it('refuses a malformed filter with a hint', () => {
    const usage =
      '  hint: write KIND:PATTERN with KIND one of tag, path, op, method, e.g. "tag:issues" or "path:/repos/**"\n';
    expect(filterError(['issues'])).toBe(
      `mcp-gen: error [import-filter] --include "issues": a filter names its kind before a colon\n${usage}`,
    );
    expect(filterError([], ['label:x'])).toBe(
      `mcp-gen: error [import-filter] --exclude "label:x": unknown kind "label"\n${usage}`,
    );
    expect(filterError(['tag:'])).toBe(
      `mcp-gen: error [import-filter] --include "tag:": the pattern after the colon is empty\n${usage}`,
    );
    expect(filterError(['method:fetch'])).toBe(
      'mcp-gen: error [import-filter] --include "method:fetch": "fetch" is not an HTTP method\n' +
        '  hint: use one of get, head, post, put, patch, delete, options, trace\n',
    );
    expect(filterError(['path:pets'])).toBe(
      'mcp-gen: error [import-filter] --include "path:pets": a path glob starts with "/"\n' +
        '  hint: write it as the spec does: "path:/repos/**"\n',
    );
  });
});

describe('x-mcp and x-speakeasy-mcp', () => {
  const curated = (extension: Record<string, unknown>, at: Record<string, unknown> = {}) => {
    const api = spec(at);
    const pets = (api.paths as Record<string, Record<string, Record<string, unknown>>>)['/pets'];
    if (pets?.post !== undefined) Object.assign(pets.post, extension);
    return toolsOf([], [], api);
  };

  it('leaves out an operation marked false, the nearest level deciding', () => {
    expect(curated({ 'x-mcp': false }).tools).toEqual(['list_pets', 'get_pet', 'delete_pet', 'list_orders']);
    expect(curated({ 'x-mcp': false }).draft.dropped).toBe(1);
    expect(curated({ 'x-mcp': { disabled: true } }).tools).not.toContain('create_pet');
    expect(curated({ 'x-speakeasy-mcp': { disabled: true } }).tools).not.toContain('create_pet');
    expect(curated({ 'x-mcp': true }, { 'x-mcp': false }).tools).toEqual(['create_pet']);
    expect(curated({ 'x-speakeasy-mcp': { disabled: false } }, { 'x-mcp': false }).tools).toEqual(['create_pet']);
    const api = spec();
    (api.paths as Record<string, Record<string, unknown>>)['/pets/{id}']!['x-mcp'] = false;
    expect(toolsOf([], [], api).tools).toEqual(['list_pets', 'create_pet', 'list_orders']);
  });

  it("takes x-mcp's name, title, description and annotations", () => {
    const { draft } = curated({
      'x-mcp': {
        name: 'add-pet',
        title: 'Add a pet',
        description: 'Add a pet to the shop; returns the new pet with its id.',
        annotations: { idempotentHint: true, destructiveHint: false },
      },
    });
    const tool = (draft.data.tools as Record<string, Record<string, unknown>>)['add-pet'];
    expect(tool?.title).toBe('Add a pet');
    expect(tool?.description).toBe('Add a pet to the shop; returns the new pet with its id.');
    expect(tool?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool?.approval).toBe('confirm');
  });

  it("takes Speakeasy's keys, its flat hints and scopes; x-mcp wins where both speak", () => {
    const { draft, warnings } = curated({
      'x-speakeasy-mcp': {
        name: 'create-product',
        title: 'Create a pet',
        description: 'Speakeasy words',
        scopes: ['write', 'ecommerce'],
        readOnlyHint: true,
        colour: 'red',
      },
      'x-mcp': { description: 'x-mcp words win over Speakeasy ones' },
    });
    const tool = (draft.data.tools as Record<string, Record<string, unknown>>)['create-product'];
    expect([tool?.title, tool?.description, tool?.approval]).toEqual([
      'Create a pet',
      'x-mcp words win over Speakeasy ones',
      undefined,
    ]);
    expect((tool?.annotations as Record<string, boolean> | undefined)?.readOnlyHint).toBe(true);
    expect(draft.notes.filter((n) => n.path[1] === 'create-product').map((n) => n.text)).toContain(
      'TODO scopes: the spec\'s x-mcp or x-speakeasy-mcp gives the scopes "write", "ecommerce"; declare them under ' +
        "auth.scopes and list them in this tool's scopes if callers' tokens carry them",
    );
    expect(warnings).toEqual(['POST /pets: x-speakeasy-mcp.colour is not a key mcp-gen reads; ignored']);
  });

  it("takes Speakeasy's keys in x-mcp as well: flat hints and scopes", () => {
    const { draft, warnings } = curated({ 'x-mcp': { readOnlyHint: true, scopes: ['read'] } });
    const tool = (draft.data.tools as Record<string, Record<string, unknown>>).create_pet;
    expect([(tool?.annotations as Record<string, boolean> | undefined)?.readOnlyHint, tool?.approval]).toEqual([
      true,
      undefined,
    ]);
    expect(draft.notes.filter((n) => n.path[1] === 'create_pet').map((n) => n.text)).toContain(
      'TODO scopes: the spec\'s x-mcp or x-speakeasy-mcp gives the scopes "read"; declare them under ' +
        "auth.scopes and list them in this tool's scopes if callers' tokens carry them",
    );
    expect(warnings).toEqual([]);
  });

  it("takes an annotations title as the tool's title when the extension names none", () => {
    const { draft, warnings } = curated({ 'x-mcp': { annotations: { title: 'Add a pet', readOnlyHint: false } } });
    expect((draft.data.tools as Record<string, Record<string, unknown>>).create_pet?.title).toBe('Add a pet');
    expect(warnings).toEqual([]);
  });

  it('warns about values of the wrong type and ignores them', () => {
    expect(
      curated({ 'x-mcp': { name: 3, annotations: { readOnlyHint: 'yes' } }, 'x-speakeasy-mcp': 'on' }).warnings,
    ).toEqual([
      'POST /pets: x-speakeasy-mcp is not an object; ignored',
      'POST /pets: x-mcp.name is not a non-empty string; ignored',
      'POST /pets: x-mcp.annotations.readOnlyHint is not a boolean; ignored',
    ]);
  });
});

describe('overlays', () => {
  it('updates and removes what the targets select, in order, and warns about a target that selects nothing', () => {
    const api = spec();
    const text = [
      'overlay: 1.0.0',
      'info: { title: Curate, version: 1.0.0 }',
      'actions:',
      '  - target: $.paths.*["get","head"]',
      '    update: { x-speakeasy-mcp: { scopes: [read] } }',
      '  - target: "$.paths[\'/store/orders\']"',
      '    remove: true',
      '  - target: $.paths["/pets"].post',
      '    update: { x-mcp: false, summary: Create a pet }',
      '  - target: $.tags',
      '    update: { name: extra }',
      '  - target: $.info',
      '    update: { title: Pet shop }',
    ].join('\n');
    expect(applyOverlay(api, 'curate.yaml', text)).toEqual([
      'curate.yaml: action 4\'s target "$.tags" selects nothing',
    ]);
    const draft = draftFromOpenApi(api, 'shop.json');
    expect(Object.keys(draft.data.tools as object)).toEqual(['list_pets', 'get_pet', 'delete_pet']);
    expect((draft.data.server as Record<string, unknown>).title).toBe('Pet shop');
  });

  it('reports a malformed overlay at its line and column, with a hint', () => {
    const bad = (name: string, lines: string[]) => {
      try {
        applyOverlay(spec(), name, lines.join('\n'));
      } catch (error) {
        return (error as ImportError).format();
      }
      return 'no error';
    };
    expect(
      bad('bad-path.yaml', [
        'overlay: 1.0.0',
        'info: { title: x, version: "1" }',
        'actions:',
        '  - target: $.paths[',
        '    remove: true',
      ]),
    ).toBe(
      "bad-path.yaml:4:13: error [import-overlay] action 1: unclosed bracketed selection ('$.paths[':8)\n" +
        '  hint: write an RFC 9535 JSONPath, e.g. "$.paths.*.get"\n',
    );
    expect(bad('version.yaml', ['overlay: 2.0.0', 'info: { title: x, version: "1" }', 'actions: []'])).toBe(
      'version.yaml:1:10: error [import-overlay] "overlay" is "2.0.0", not a 1.0.x version\n' +
        '  hint: an Overlay has "overlay: 1.0.0", "info: { title, version }" and a list of "actions"\n',
    );
    expect(
      bad('neither.yaml', ['overlay: 1.0.0', 'info: { title: x, version: "1" }', 'actions:', '  - target: $.info']),
    ).toBe(
      'neither.yaml:4:5: error [import-overlay] action 1 has neither "update" nor "remove: true"\n' +
        '  hint: give the value to merge, or remove: true\n',
    );
    // Every action's mistakes in one run, before any action changes the spec.
    expect(
      bad('three.yaml', [
        'overlay: 1.0.0',
        'info: { title: x, version: "1" }',
        'actions:',
        '  - remove: true',
        '  - target: $.info',
        '  - target: $.[bad',
        '    update: { x: 1 }',
      ]),
    ).toBe(
      'three.yaml:4:5: error [import-overlay] action 1 has no "target"\n' +
        '  hint: write a JSONPath such as "$.paths[\'/pets\'].get"\n' +
        'three.yaml:5:5: error [import-overlay] action 2 has neither "update" nor "remove: true"\n' +
        '  hint: give the value to merge, or remove: true\n' +
        "three.yaml:6:13: error [import-overlay] action 3: unexpected shorthand selector '[' ('$.[bad':2)\n" +
        '  hint: write an RFC 9535 JSONPath, e.g. "$.paths.*.get"\n',
    );
    // A YAML mistake where the parser found it, not at the top of the file.
    expect(bad('tab.yaml', ['overlay: 1.0.0', '\tinfo: { title: x }'])).toBe(
      'tab.yaml:2:1: error [import-overlay] not valid YAML or JSON: tabs are not allowed as indentation\n' +
        '  hint: fix the syntax at this line\n',
    );
  });

  it('reports every malformed filter at once', () => {
    expect(filterError(['issues', 'tag:ok'], ['bad:1'])).toBe(
      'mcp-gen: error [import-filter] --include "issues": a filter names its kind before a colon\n' +
        '  hint: write KIND:PATTERN with KIND one of tag, path, op, method, e.g. "tag:issues" or "path:/repos/**"\n' +
        'mcp-gen: error [import-filter] --exclude "bad:1": unknown kind "bad"\n' +
        '  hint: write KIND:PATTERN with KIND one of tag, path, op, method, e.g. "tag:issues" or "path:/repos/**"\n',
    );
  });
});
