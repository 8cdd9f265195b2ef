import { describe, expect, it } from 'vitest';
import { emitStub } from '../../src/emit/handlers/stubs.js';
import { discoverContract } from '../../src/emit/registry/discover.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { planProject } from '../../src/plan/index.js';
import { validated } from '../support/manifests.js';

// Lists and completions from handlers (`list: handler`, `complete`): normalized into one more handler per resource
// or prompt, planned as files kept once written, stubbed to answer nothing, and declared in the capabilities.

const manifest = (resources: string, prompts = '') =>
  normalizeManifest(
    validated(
      `mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\nresources:\n${resources}\n` +
        (prompts === '' ? '' : `prompts:\n${prompts}\n`),
    ),
  );

const dynamic =
  '  note: { uriTemplate: "notes://{folder}/{id}", list: handler, complete: { id: handler, folder: handler } }';
const prompt =
  '  greet:\n    arguments:\n' +
  '      { who: { complete: handler }, tone: { completions: [dry] }, aim: { complete: handler } }\n' +
  '    messages: [{ role: user, text: "Hi {{who}} {{tone}} {{aim}}" }]';

describe('dynamic lists and completions', () => {
  it('normalizes the handlers, their files and the completed names, sorted', () => {
    const model = manifest(dynamic, prompt);
    const [note] = model.resources;
    expect(note?.list).toEqual({ handler: 'noteListHandler', file: 'src/handlers/resource-lists/note.ts' });
    expect(note?.complete).toEqual({
      handler: 'noteCompleteHandler',
      file: 'src/handlers/completions/resources/note.ts',
      variables: ['folder', 'id'],
    });
    expect(model.prompts[0]?.complete).toEqual({
      handler: 'greetCompleteHandler',
      file: 'src/handlers/completions/prompts/greet.ts',
      arguments: ['aim', 'who'],
    });
    expect(discoverContract(model).capabilities.completions).toEqual({});
  });

  it('has none of them without the keys, and no completions capability', () => {
    const model = manifest('  note: { uriTemplate: "notes://{id}" }');
    expect(model.resources[0]?.list).toBeNull();
    expect(model.resources[0]?.complete).toBeNull();
    expect(discoverContract(model).capabilities.completions).toBeUndefined();
  });

  it('plans each handler file once and keeps a written one', () => {
    const model = manifest(dynamic, prompt);
    const existing = new Map([['src/handlers/resource-lists/note.ts', 'export const noteListHandler = 1;']]);
    const plan = planProject(model, existing);
    const extra = plan.handlers.filter((h) => h.kind !== 'resource' && h.kind !== 'prompt');
    expect(extra.map((h) => [h.kind, h.path, h.handler, h.handlerType, h.action])).toEqual([
      ['resource-list', 'src/handlers/resource-lists/note.ts', 'noteListHandler', 'ResourceListHandler', 'keep'],
      [
        'resource-complete',
        'src/handlers/completions/resources/note.ts',
        'noteCompleteHandler',
        'ResourceCompleteHandler',
        'create',
      ],
      [
        'prompt-complete',
        'src/handlers/completions/prompts/greet.ts',
        'greetCompleteHandler',
        'PromptCompleteHandler',
        'create',
      ],
    ]);
    expect(plan.orphans).toEqual([]);
  });

  it('stubs answer nothing, typed, importing the facade from their own folder', () => {
    const model = manifest(dynamic, prompt);
    const plan = planProject(model, new Map());
    const stub = (kind: string) => emitStub(model, plan.handlers.find((h) => h.kind === kind) as never).contents;
    expect(stub('resource-list')).toBe(
      "import { type ResourceListHandler } from '../../generated/index.gen.js';\n\n" +
        '/** List handler of resource "note". */\n' +
        "export const noteListHandler: ResourceListHandler<'note'> = async ({ cursor, pageSize }, ctx) => {\n" +
        '  // Your code goes here: mcp-gen never overwrites this file.\n' +
        '  return { resources: [] }; // e.g. [{ uri: ..., name: ... }], and nextCursor for more\n' +
        '};\n',
    );
    expect(stub('prompt-complete')).toContain("from '../../../generated/index.gen.js';");
    expect(stub('prompt-complete')).toContain(
      "export const greetCompleteHandler: PromptCompleteHandler<'greet'> = " +
        'async ({ argument, value, context }, ctx) => {',
    );
  });
});
