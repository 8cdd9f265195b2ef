/**
 * The state store: where the server remembers what must outlive one call. Two things live here, each
 * under a key prefixed with the server's name: the nonces of approvals already used (approval.gen.ts),
 * so an approval runs its tool once, and the idempotency ledger (idempotency.gen.ts).
 *
 * `memory` keeps them in this process: right for stdio and one HTTP process, but another instance or a
 * restart knows nothing of them. `redis` (store-redis.gen.ts) keeps them where every instance sees them,
 * and claims are atomic there (`SET NX PX`). Either way a store that cannot answer throws
 * StoreUnavailableError, and the caller fails closed: nothing that needed the store runs.
 */
import {
  isInputRequiredResult,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { StartupError } from './handler.gen.js';
import { answerOf, type ApprovalHooks, type CallGuard, type TaskHooks, type ToolRun } from './hooks.gen.js';
import type { RegistrySpec, ToolSpec } from './spec.gen.js';
import type { ChangeBus, Lazy, PageServer, Startup, Telemetry } from './startup.gen.js';

type Answer = CallToolResult | InputRequiredResult;

/** Run the handler, or answer with `result` instead. */
export type ApprovalVerdict = { readonly proceed: true } | { readonly proceed: false; readonly result: Answer };

/** approval.gen.ts: the hooks every echoed `requestState` needs, and the check of `approval: confirm`. */
export interface ApprovalService extends ApprovalHooks {
  /** Whether `tool` may run now with `args` for `principal`; spends the approval when it may. */
  check(tool: ToolSpec, args: unknown, principal: string, ctx: ServerContext): Promise<ApprovalVerdict>;
  /** The approval pages, unless `approvals.page: off`. */
  readonly pages: PageServer | null;
}

/** idempotency.gen.ts: a stored result answers a retry with the same key. */
export interface IdempotencyHooks {
  /**
   * The stored answer for this call's key, or null when the call must go on (asked before approval, so a retry is not
   * asked again).
   */
  recall(tool: ToolSpec, args: unknown, principal: string): Promise<CallToolResult | null>;
  /**
   * Claims the key, starts the handler once and stores its result when the handler settles (not when its caller goes).
   */
  run(tool: ToolSpec, args: unknown, principal: string, execute: () => ToolRun): Promise<Answer>;
}

declare module './start.gen.js' {
  interface RuntimeModules {
    /** store-redis.gen.ts (and with it ioredis), with `store.type: redis`. */
    readonly storeRedis?: Lazy<{
      readonly connectRedisStore: (url: string, log: (message: string) => void) => Promise<StateStore>;
    }>;
    /** store-durable.gen.ts, with `targets: [workers]`: the Durable Object store a Worker uses. */
    readonly storeDurable?: Lazy<{ readonly durableObjectStore: (namespace: unknown) => StateStore }>;
    /** approval.gen.ts, when a tool has `approval: confirm`. */
    readonly approval?: Lazy<{ readonly approvalHooks: (startup: Startup, store: StateStore) => ApprovalService }>;
    /** tasks.gen.ts, when a tool has `task: optional | required`. */
    readonly tasks?: Lazy<{
      readonly taskHooks: (
        registry: RegistrySpec,
        store: StateStore,
        log: (message: string) => void,
        bus: ChangeBus | null,
      ) => TaskHooks;
    }>;
    /** idempotency.gen.ts, when a tool has `idempotency: key`. */
    readonly idempotency?: Lazy<{
      readonly idempotencyHooks: (store: StateStore, ttlMs: number, log: (message: string) => void) => IdempotencyHooks;
    }>;
  }
}

/** A key-value store with expiry and an atomic claim. Values are strings (JSON where structured). */
export interface StateStore {
  /** What it is, for log lines and errors: never a password. */
  readonly label: string;
  /**
   * Stores `value` under `key` for `ttlMs` unless the key exists; true when this call stored it. Atomic for every user
   * of the store.
   */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The live value under `key`, or null. */
  get(key: string): Promise<string | null>;
  /** Stores `value` under `key` for `ttlMs`, replacing any value. */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Makes a live `key` last `ttlMs` from now, keeping its value; does nothing when it is gone (the idempotency claim's
   * lease).
   */
  touch(key: string, ttlMs: number): Promise<void>;
  /** Removes `key`. */
  remove(key: string): Promise<void>;
  /** Resolves when the store answers; throws StoreUnavailableError when it does not. */
  ping(): Promise<void>;
}

/** The store did not answer (down, unreachable, full): whatever needed it must not run. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/** The message a call gets when the store is unavailable; the details go to stderr. */
export function storeUnavailableText(tool: string): string {
  return (
    `The tool "${tool}" did not run: the server's state store is unavailable, so it cannot check that this call ` +
    `runs only once. Try again later.`
  );
}

/** Most live keys the memory store holds; past it, claims fail closed rather than let memory grow without bound. */
export const memoryStoreLimit = 100_000;

/** The memory store: one process, lost on restart. Expired keys are swept as the map grows. */
export class MemoryStore implements StateStore {
  readonly label = 'memory (this process only)';
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  private sweepAt = 1024;

  constructor(private readonly now: () => number = Date.now) {}

  // Check and set run with no await between them: that is what makes a claim atomic in one process.
  async claim(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.read(key) !== null) return false;
    this.write(key, value, ttlMs);
    return true;
  }

  async get(key: string): Promise<string | null> {
    return this.read(key);
  }

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    this.write(key, value, ttlMs);
  }

  private read(key: string): string | null {
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return null;
  }

  private write(key: string, value: string, ttlMs: number): void {
    if (this.entries.size >= Math.min(this.sweepAt, memoryStoreLimit)) this.sweep();
    if (this.entries.size >= memoryStoreLimit && !this.entries.has(key))
      throw new StoreUnavailableError(`the memory store holds ${memoryStoreLimit} live keys`);
    this.entries.set(key, { value, expiresAt: this.now() + Math.max(1, ttlMs) });
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    const value = this.read(key);
    if (value !== null) this.write(key, value, ttlMs);
  }

  async remove(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async ping(): Promise<void> {}

  /**
   * Drops expired entries; the next sweep waits until the map has doubled (or is full), so sweeping stays cheap
   * overall.
   */
  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    this.sweepAt = Math.max(1024, this.entries.size * 2);
  }
}

/** A store whose every key starts with `prefix`, so servers can share one Redis. */
export function prefixed(store: StateStore, prefix: string): StateStore {
  return {
    label: store.label,
    claim: (key, value, ttlMs) => store.claim(prefix + key, value, ttlMs),
    get: (key) => store.get(prefix + key),
    put: (key, value, ttlMs) => store.put(prefix + key, value, ttlMs),
    touch: (key, ttlMs) => store.touch(prefix + key, ttlMs),
    remove: (key) => store.remove(prefix + key),
    ping: () => store.ping(),
  };
}

/** Removes a claim whose answer was lost (the store may apply it on waking) once the store answers, if still there. */
export function withdraw(store: StateStore, key: string, value: string, until = Date.now() + 150_000): void {
  void store
    .get(key)
    .then((found) => (found === value ? store.remove(key) : undefined))
    .catch(() => {
      // Every 2 s for 2.5 minutes; a Worker's timers are numbers, without unref.
      const timer = Date.now() < until ? setTimeout(() => withdraw(store, key, value, until), 2_000) : 0;
      if (typeof timer === 'object') timer.unref();
    });
}

/** The store the registry names, its health logged; a Redis store that is down does not stop the server. */
export async function connectStore(startup: Startup): Promise<StateStore> {
  const { registry, modules, environment, local, log } = startup;
  const spec = registry.store;
  let store: StateStore;
  // On Workers the Durable Object is the store, whatever the manifest names for Node: isolates share no memory.
  const durable = startup.platform.MCP_GEN_STATE;
  if (durable !== undefined) {
    if (modules.storeDurable === undefined)
      throw new StartupError('this server lacks store-durable.gen.ts; regenerate it with targets: [workers]');
    store = (await modules.storeDurable()).durableObjectStore(durable);
  } else if (spec.type === 'redis') {
    if (modules.storeRedis === undefined) throw new StartupError('this server lacks store-redis.gen.ts; regenerate it');
    const name = spec.urlEnv;
    const url = environment[name];
    if (url === undefined || url === '')
      throw new StartupError(
        `${name} is not set; set it to the Redis URL every instance shares (e.g. redis://127.0.0.1:6379)`,
      );
    store = await (await modules.storeRedis()).connectRedisStore(url, log);
  } else {
    store = new MemoryStore();
    // A public server may run as several instances: say plainly what memory does not share.
    if (!local)
      log(
        'store: memory (this process only): approvals and idempotency keys are not shared with other instances and ' +
          'do not survive a restart; set store.type: redis to share them',
      );
  }
  return prefixed(store, `mcp-gen:${registry.server.name}:`);
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * The guard of every tool that needs the store. Order matters: a stored result answers a retry before
 * anyone is asked for approval; the key is claimed only once the approval is spent, just before the handler.
 */
export function guardCalls(
  approvals: ApprovalService | null,
  ledger: IdempotencyHooks | null,
  telemetry: Telemetry | null = null,
): CallGuard {
  return async (tool, args, principal, ctx, run) => {
    const confirm = tool.approval === 'confirm';
    const keyed = tool.idempotency === 'key' ? ledger : undefined;
    if ((confirm && approvals === null) || keyed === null)
      return errorResult(`The tool "${tool.name}" is not configured on this server; nothing was done.`);
    const stored = keyed === undefined ? null : await keyed.recall(tool, args, principal);
    // Each decision is an event on the request's span: why a call did or did not run is what a trace is read for.
    if (keyed !== undefined)
      telemetry?.event('mcp_gen.idempotency', { 'mcp_gen.idempotency.replayed': stored !== null });
    if (stored !== null) return stored;
    if (confirm && approvals !== null) {
      const verdict = await approvals.check(tool, args, principal, ctx);
      const decision = verdict.proceed ? 'approved' : isInputRequiredResult(verdict.result) ? 'asked' : 'refused';
      telemetry?.event('mcp_gen.approval', { 'mcp_gen.approval.decision': decision });
      if (!verdict.proceed) return verdict.result;
    }
    return keyed === undefined ? answerOf(run()) : keyed.run(tool, args, principal, run);
  };
}

/** `store` with every call a child span of the request, when telemetry is on. */
function tracedStore(store: StateStore, system: string, telemetry: Telemetry | null): StateStore {
  if (telemetry === null) return store;
  const span = <T>(operation: string, call: () => Promise<T>): Promise<T> =>
    telemetry.withSpan(`store ${operation}`, { 'db.system.name': system, 'db.operation.name': operation }, call);
  return {
    label: store.label,
    claim: (key, value, ttlMs) => span('claim', () => store.claim(key, value, ttlMs)),
    get: (key) => span('get', () => store.get(key)),
    put: (key, value, ttlMs) => span('put', () => store.put(key, value, ttlMs)),
    touch: (key, ttlMs) => span('touch', () => store.touch(key, ttlMs)),
    remove: (key) => span('remove', () => store.remove(key)),
    // Probes are not requests: no span.
    ping: () => store.ping(),
  };
}

/** Opens the store, then the approvals, idempotency ledger and tasks the registry's tools need, and their guard. */
export async function openStore(
  startup: Startup,
  bus: ChangeBus | null = null,
): Promise<{
  readonly approvals: ApprovalService | null;
  readonly guard: CallGuard;
  readonly tasks: TaskHooks | null;
}> {
  const { registry, modules, log } = startup;
  const store = tracedStore(await connectStore(startup), registry.store.type, startup.telemetry);
  // /readyz asks the store too: an instance whose store is down fails every call that needs it.
  startup.readiness.checks.set('store', () => store.ping());
  const approvals = modules.approval === undefined ? null : (await modules.approval()).approvalHooks(startup, store);
  const ttlMs = registry.store.idempotencyTtlMs;
  const ledger =
    modules.idempotency === undefined ? null : (await modules.idempotency()).idempotencyHooks(store, ttlMs, log);
  const tasks = modules.tasks === undefined ? null : (await modules.tasks()).taskHooks(registry, store, log, bus);
  return { approvals, guard: guardCalls(approvals, ledger, startup.telemetry), tasks };
}
