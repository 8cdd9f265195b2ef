// Compiles validate's two ajv validators into standalone CommonJS modules in dist/validate/precompiled/,
// so that no run compiles them (src/validate/validators.ts). Runs after tsc in `npm run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';

const standaloneCode = standaloneModule.default;

/** The source of both validators, from the compiled validate module `validators` and `manifestSchema`. */
export function validatorSources({ shapeOptions, metaOptions, metaSchemaId }, manifestSchema) {
  const shapeAjv = new AjvModule.default({ ...shapeOptions, code: { source: true } });
  const shape = standaloneCode(shapeAjv, shapeAjv.compile(manifestSchema));
  const metaAjv = new Ajv2020Module.default({ ...metaOptions, code: { source: true } });
  const meta = standaloneCode(metaAjv, metaAjv.getSchema(metaSchemaId));
  return { shape, meta };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const validators = await import('../dist/validate/validators.js');
  const { manifestSchema } = await import('../dist/validate/manifest-schema.js');
  const sources = validatorSources(validators, manifestSchema);
  const dir = new URL('../dist/validate/precompiled/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('shape.cjs', dir), sources.shape);
  writeFileSync(new URL('meta-2020.cjs', dir), sources.meta);
}
