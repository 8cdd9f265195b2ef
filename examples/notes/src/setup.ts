import type { Config, Services, SetupTools } from './generated/index.gen.js';

/**
 * Runs once, before the server answers its first request; what it returns reaches every handler as
 * `ctx.services` (typed as `Services`). Open connection pools and clients here. `config` holds the
 * manifest's `config` variables, already checked. `tools.mode` is 'test' when the contract tests run the
 * server: connect to a throwaway database or a fake then. A throw stops the server (exit code 1).
 */
export async function setup(config: Config, tools: SetupTools) {
  return { config, mode: tools.mode };
}

/** Runs once at shutdown (stdin closed, SIGTERM, SIGINT), after the calls in flight: close pools here. */
export async function teardown(services: Services): Promise<void> {
  // e.g. await services.pool.end();
}
