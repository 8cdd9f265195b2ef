/** model: the IR types shared by every stage after normalize, and the one place names are made. */
export type * from './types.js';
export { camelCase, envPrefix, pascalCase, suggestName } from './naming.js';
export { isEffectivelyDestructive } from './defaults.js';
export { mapSchema, walkSchema } from './schema-walk.js';
export { templateVariables } from './uri-template.js';
