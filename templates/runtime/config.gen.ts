/**
 * The manifest's `config`: every variable read from the environment and checked at start, before `setup` runs.
 * All problems are reported at once, so an operator fixes the environment in one go; a secret's value is never
 * printed, not even when it is refused, nor is a URL that does not parse. An empty value counts as unset
 * (`.env.example` leaves secrets empty).
 */
import { StartupError } from './handler.gen.js';
import type { ConfigVarSpec, RegistrySpec } from './spec.gen.js';

/** A configuration value as `setup` receives it; undefined for an optional variable without a default. */
export type ConfigValue = string | number | boolean | undefined;

const integer = /^[-+]?\d+$/;
const number = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const booleans: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false };

/** `text` read as `spec.type`, or what it must be instead. */
function parse(spec: ConfigVarSpec, text: string): { readonly value: ConfigValue } | { readonly expected: string } {
  switch (spec.type) {
    case 'integer':
      return integer.test(text) && Number.isSafeInteger(Number(text))
        ? { value: Number(text) }
        : { expected: 'an integer' };
    case 'number':
      return number.test(text) && Number.isFinite(Number(text)) ? { value: Number(text) } : { expected: 'a number' };
    case 'boolean': {
      const value = booleans[text.toLowerCase()];
      return value === undefined ? { expected: 'true, false, 1 or 0' } : { value };
    }
    case 'url':
      return URL.canParse(text) ? { value: text } : { expected: 'a URL' };
    default:
      return { value: text };
  }
}

/** The placeholder of an MCPB bundle's `user_config` field that the host did not fill in. */
const unfilled = /^\$\{user_config\.[^}]*\}$/;

/** Every `config` variable from `environment`, typed; a StartupError naming every missing or invalid one. */
export function readConfig(registry: RegistrySpec, environment: NodeJS.ProcessEnv): Record<string, ConfigValue> {
  const config: Record<string, ConfigValue> = {};
  const problems: string[] = [];
  for (const spec of registry.config) {
    const text = environment[spec.name];
    // A desktop host passes an optional MCPB `user_config` field left blank as its literal `${user_config.x}`.
    if (text === undefined || text === '' || unfilled.test(text)) {
      if (spec.required) problems.push(`${spec.name} is required and not set`);
      config[spec.name] = spec.default ?? undefined;
      continue;
    }
    const read = parse(spec, text);
    // A URL that does not parse may hold a password where no pattern finds it (`postgres//u:p@ss@h`): never shown.
    const shown = spec.secret
      ? 'a secret value (not shown)'
      : spec.type === 'url'
        ? 'a value that does not parse (not shown: it may hold a password)'
        : JSON.stringify(text);
    if ('value' in read) config[spec.name] = read.value;
    else problems.push(`${spec.name} must be ${read.expected}, got ${shown}`);
  }
  if (problems.length > 0)
    throw new StartupError(
      `the environment is missing or has invalid configuration (${problems.length}); see .env.example:\n` +
        problems.map((problem) => `  ${problem}`).join('\n'),
    );
  return config;
}
