import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/emit/types/compile.js';
import { handlerPath } from '../../src/model/layout.js';
import { camelCase, fileStem, handlerExport, pascalCase, snakeCase, suggestName } from '../../src/model/naming.js';

// Names decided once (src/model/naming.ts): cases, file stems, handler exports and paths, suggestions, and the type
// names json-schema-to-typescript declares.

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
