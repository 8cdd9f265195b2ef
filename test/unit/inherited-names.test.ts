import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import type { PrecompiledValidators } from '../../templates/runtime/register.gen.js';
import { buildProject } from '../support/build-project.js';
import { repoRoot } from '../support/paths.js';

// Input properties named as members every object inherits (`hasOwnProperty`, `constructor`, `toString`, `valueOf`):
// the type compiler calls `schema.hasOwnProperty(...)` on every node, and a validator that tests `data.constructor`
// finds the prototype's function on `{}`. Both took the name for something else: generate failed with an internal
// error, and the server refused every call that left such an optional property out.

describe('properties named as inherited members', () => {
  it('compile to their own types and validate as own properties only', async () => {
    const manifest = path.join('test', 'fixtures', 'inherited-names', 'mcp.yaml');
    const out = path.join(repoRoot, '.test-out', 'inherited-names');
    const options = resolveOptions({ manifest, out }, repoRoot);
    const result = await buildProject(
      options,
      '0.0.0-golden',
      { handlers: new Map(), previouslyGenerated: null },
      repoRoot,
    );
    const file = (name: string) => result.files.find((f) => f.path === `src/generated/${name}`)?.contents ?? '';
    expect(file('types.gen.ts')).toContain(
      [
        'export interface TInput {',
        '  constructor?: string;',
        '  hasOwnProperty: string;',
        '  toString?: string;',
        '  valueOf?: number;',
        '}',
      ].join('\n'),
    );
    expect(file('types.gen.ts')).not.toContain('stand_in');
    // The emitted validators, run as the server runs them.
    mkdirSync(path.join(out, 'src', 'generated'), { recursive: true });
    const written = path.join(out, 'src', 'generated', 'validators.gen.ts');
    writeFileSync(written, file('validators.gen.ts'));
    const { validators } = (await import(written)) as { validators: PrecompiledValidators };
    const input = validators.t?.input;
    if (input === undefined) throw new Error('no input validator for t');
    const verdict = (value: unknown) => {
      const { issues } = input(value) as { issues?: readonly { message: string }[] };
      return issues === undefined ? 'valid' : issues.map((i) => i.message).join('; ');
    };
    expect(verdict({ hasOwnProperty: 'a' })).toBe('valid');
    expect(verdict({})).toBe("data must have required property 'hasOwnProperty'");
    expect(verdict({ hasOwnProperty: 'a', constructor: 5, valueOf: 'x' })).toBe(
      'data/constructor must be string, data/valueOf must be integer',
    );
  });
});
