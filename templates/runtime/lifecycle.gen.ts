/**
 * The server's life around the user's `setup` and `teardown` (src/setup.ts): loads the module once the configuration
 * has been read, keeps its services, and runs one bounded teardown however often it is asked.
 */
import { StartupError, type ReadyCheck, type SetupTools } from './handler.gen.js';
import type { SetupModule } from './start.gen.js';
import type { Lazy, Lifecycle, Readiness } from './startup.gen.js';

/** Longest `teardown` may take before the process exits without it. */
const teardownLimitMs = 5000;

/** The Lifecycle of this process: the user's setup module, its services, and one teardown. */
export class ServerLifecycle implements Lifecycle {
  setupDone = false;
  private module: SetupModule<unknown> | null = null;
  private services: unknown;
  private stopping: Promise<number> | undefined;

  constructor(
    private readonly load: Lazy<SetupModule>,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Imports src/setup.ts, runs `setup` and hands its `ready` checks to `/readyz`; a failure is a StartupError that
   * says so, with the user's stack after.
   */
  async start(config: unknown, tools: SetupTools, readiness: Readiness): Promise<unknown> {
    let ready: [string, ReadyCheck<never>][] = [];
    try {
      this.module = (await this.load()) as SetupModule<unknown>;
      ready = Object.entries(this.module.ready ?? {});
      // Checked before setup opens anything: a refusal after it would leave its pool holding the process open.
      const taken = ready.find(([name]) => ['startup', 'store', 'shutdown'].includes(name));
      if (taken !== undefined) throw new Error(`the ready check "${taken[0]}" has the name of a built-in check`);
      this.services = await this.module.setup(config, tools);
    } catch (error) {
      const stack = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : '';
      throw new StartupError(
        `setup failed: ${error instanceof Error ? error.message : String(error)}${stack === '' ? '' : `\n${stack}`}`,
      );
    }
    this.setupDone = true;
    for (const [name, check] of ready)
      readiness.checks.set(name, async (signal) => {
        const verdict = await check(this.services as never, signal);
        if (verdict === false) throw new Error('returned false');
        return typeof verdict === 'string' ? verdict : undefined;
      });
    return this.services;
  }

  stop(): Promise<number> {
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  private async teardown(): Promise<number> {
    const teardown = this.setupDone ? this.module?.teardown : undefined;
    if (teardown === undefined) return 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(resolve, teardownLimitMs, `did not finish within ${teardownLimitMs / 1000} s`);
    });
    try {
      const outcome = await Promise.race([Promise.resolve(teardown(this.services)).then(() => null), late]);
      if (outcome === null) return 0;
      this.log(`teardown ${outcome}; exiting without it`);
    } catch (error) {
      this.log(`teardown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
    return 1;
  }
}
