import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { manifestSchema } from '../../src/validate/manifest-schema.js';
import * as validators from '../../src/validate/validators.js';
import { validatorSources } from '../../scripts/build-validators.mjs';
import { repoRoot } from '../support/golden.js';

// The build compiles validate's ajv validators into standalone modules; they must give exactly the
// errors that the validators compiled at run time give, on every fixture manifest and tool schema.
const out = path.join(repoRoot, '.test-out', 'validators');
const fixtures = path.join(repoRoot, 'test', 'fixtures');

function manifests(): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  for (const kind of readdirSync(fixtures)) {
    for (const name of readdirSync(path.join(fixtures, kind))) {
      const file = path.join(fixtures, kind, name, 'manifest.yaml');
      try {
        found.push([`${kind}/${name}`, parse(readFileSync(file, 'utf8'), { uniqueKeys: false })]);
      } catch {
        // not a manifest, or not YAML: load's own fixtures
      }
    }
  }
  return found;
}

describe('precompiled validators', () => {
  it('give the same errors as the validators compiled at run time', () => {
    const sources = validatorSources(validators, manifestSchema);
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'shape.cjs'), sources.shape);
    writeFileSync(path.join(out, 'meta.cjs'), sources.meta);
    const require = createRequire(path.join(out, 'index.js'));
    const shape = require('./shape.cjs') as validators.Validator;
    const meta = require('./meta.cjs') as validators.Validator;
    const cases = manifests();
    expect(cases.length).toBeGreaterThan(40);
    let schemas = 0;
    for (const [name, data] of cases) {
      const runtime = validators.shapeValidator();
      expect({ name, valid: shape(data), errors: shape.errors ?? [] }).toEqual({
        name,
        valid: runtime(data),
        errors: runtime.errors ?? [],
      });
      const tools = (data as { tools?: Record<string, Record<string, unknown>> } | null)?.tools ?? {};
      for (const tool of Object.values(tools ?? {})) {
        for (const part of ['input', 'output']) {
          const schema = tool?.[part];
          if (schema === null || typeof schema !== 'object' || '$schema' in schema) continue;
          schemas += 1;
          const expected = validators.validateSchema(schema);
          expect({ name, valid: meta(schema), errors: meta.errors ?? [] }).toEqual({ name, ...expected });
        }
      }
    }
    expect(schemas).toBeGreaterThan(40);
  });
});
