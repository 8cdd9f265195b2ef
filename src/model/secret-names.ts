/**
 * Names of parameters and properties that carry a credential: import turns such HTTP parameters into config
 * variables, and the review flags a tool input so named (a model should never hold the secret).
 */
const secretNames = new Set([
  'api_key',
  'apikey',
  'x_api_key',
  'token',
  'access_token',
  'authorization',
  'secret',
  'password',
]);

/** Whether `name` looks like a credential (compared without case, `-` read as `_`). */
export const secretLooking = (name: string): boolean => secretNames.has(name.toLowerCase().replace(/-/g, '_'));
