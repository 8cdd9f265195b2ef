import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { copyAsJson, renderDraft } from '../../src/import/draft.js';
import { draftFromOpenApi } from '../../src/import/from-openapi.js';
import { updateManifest } from '../../src/import/update.js';
import { petSpecV1, petSpecV2 } from '../support/pet-specs.js';

// A tool the user renamed with `renamedFrom` keeps its handler file under the old name until the next generate
// moves it. The spec of v2 drops delete_pet's operation; the handler the user wrote must keep the tool.
describe('import openapi --update, a renamed tool whose handler file still has the old name', () => {
  const v1 = draftFromOpenApi(petSpecV1(), 'pets.json');
  const v2 = draftFromOpenApi(petSpecV2(), 'pets.json');
  const drafted = renderDraft(v1);
  if (!drafted.includes('  delete_pet:\n')) throw new Error('the draft has no delete_pet');
  const user = drafted.replace('  delete_pet:\n', '  remove_pet:\n    renamedFrom: delete_pet\n');
  const run = (handlers: readonly string[]) =>
    updateManifest(
      user,
      'mcp.yaml',
      copyAsJson(v1.data) as Record<string, unknown>,
      { ...v2, data: copyAsJson(v2.data) as Record<string, unknown> },
      (name) => handlers.includes(name),
    );

  it('keeps the tool, as it would with the handler under the new name', () => {
    const outcome = run(['delete_pet']);
    expect(outcome.tools.keptForHandler).toEqual(['remove_pet']);
    expect(outcome.tools.removed).toEqual(['get_inventory']);
    const tools = (parse(outcome.text) as { tools: Record<string, Record<string, unknown>> }).tools;
    expect(tools.remove_pet?.renamedFrom).toBe('delete_pet');
  });

  it('drops it when no handler file has either name', () => {
    const outcome = run([]);
    expect(outcome.tools.keptForHandler).toEqual([]);
    expect(outcome.tools.removed).toEqual(['remove_pet', 'get_inventory']);
  });
});
