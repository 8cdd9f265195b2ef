import type { Options } from 'ajv';

/** The standalone CommonJS source of validate's two ajv validators. */
export function validatorSources(
  validators: { shapeOptions: Options; metaOptions: Options; metaSchemaId: string },
  manifestSchema: object,
): { shape: string; meta: string };
