import { describe, expect, it } from 'vitest';
import type { DiagnosticCode, Finding } from '../../src/diagnostics/index.js';
import { schemaDraft } from '../../src/emit/report/view-schemas.js';
import { parseManifest } from '../../src/load/index.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { validateManifest } from '../../src/validate/index.js';

// DESIGN.md's schema draft shows each shared schema once and names it from the tools that reach it, instead of
// repeating every shared schema under each tool's `$defs` (13 of GitHub's 14.7 MB report).

const team = '{ type: string, maxLength: 9 }';
const manifest = (schemas: boolean) =>
  [
    'mcpGen: 1',
    'server: { name: tiny, version: 1.0.0 }',
    ...(schemas
      ? [
          'schemas:',
          '  user: { type: object, properties: { login: { type: string, maxLength: 39 } } }',
          "  team: { type: object, properties: { lead: { $ref: '#/schemas/user' } } }",
        ]
      : []),
    'tools:',
    '  get_team:',
    '    description: Returns the team.',
    '    annotations: { readOnlyHint: true, openWorldHint: false }',
    '    input:',
    '      type: object',
    '      additionalProperties: false',
    `      properties: { team: ${schemas ? "{ $ref: '#/schemas/team' }" : team}, n: { $ref: '#/$defs/n' } }`,
    '      $defs: { n: { type: integer, minimum: 0 } }',
    ...(schemas ? ["    output: { type: object, properties: { lead: { $ref: '#/schemas/user' } } }"] : []),
    '',
  ].join('\n');

function modelOf(text: string) {
  const loaded = parseManifest(text, 'a.yaml');
  if (!loaded.ok) throw new Error('did not load');
  const verdict = validateManifest(loaded.manifest);
  if (verdict.manifest === null) throw new Error(JSON.stringify(verdict.diagnostics));
  return normalizeManifest(verdict.manifest);
}

const fenced = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

describe('the schema draft of DESIGN.md', () => {
  it('shows each shared schema once and names the ones a tool reaches; the tool keeps its own $defs', () => {
    const draft = schemaDraft(modelOf(manifest(true)), []);
    expect(draft.sharedNote).toContain('shown once, at the end of this section');
    expect(draft.tools).toHaveLength(1);
    const [tool] = draft.tools;
    expect(tool?.shared).toBe('`team`, `user`');
    expect(tool?.input).toBe(
      fenced({
        $defs: { n: { minimum: 0, type: 'integer' } },
        additionalProperties: false,
        properties: { n: { $ref: '#/$defs/n' }, team: { $ref: '#/$defs/team' } },
        type: 'object',
      }),
    );
    expect(tool?.output).toBe(fenced({ properties: { lead: { $ref: '#/$defs/user' } }, type: 'object' }));
    expect(draft.shared).toEqual([
      { name: '`team`', schema: fenced({ properties: { lead: { $ref: '#/$defs/user' } }, type: 'object' }) },
      { name: '`user`', schema: fenced({ properties: { login: { maxLength: 39, type: 'string' } }, type: 'object' }) },
    ]);
  });

  it('is unchanged for a manifest without shared schemas: the whole wire schema, nothing named', () => {
    const model = modelOf(manifest(false));
    const draft = schemaDraft(model, []);
    expect(draft.sharedNote).toBe('');
    expect(draft.shared).toEqual([]);
    expect(draft.tools[0]?.shared).toBe('');
    expect(draft.tools[0]?.input).toBe(fenced(model.tools[0]?.wireInput));
  });

  it("lists each lint finding under the tool whose input it is about, once, in the findings' order", () => {
    const model = modelOf(manifest(false));
    // Codes as the draft reads them (by prefix); the catalog's codes are not the point here.
    const finding = (code: string, pointer: string): Finding => ({
      code: code as DiagnosticCode,
      message: code,
      at: { pointer },
    });
    const findings = [
      finding('lint-b', '/tools/get_team/input/properties/input'),
      finding('design-x', '/tools/get_team/input'),
      finding('lint-a', '/tools/get_team/input'),
      finding('lint-c', '/tools/get_team/output'),
      finding('lint-d', '/tools/get_teams/input'),
    ];
    const draft = schemaDraft(model, findings);
    expect(draft.tools[0]?.findings).toEqual(['`lint-b` lint-b', '`lint-a` lint-a']);
  });
});
