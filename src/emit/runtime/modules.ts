/**
 * The runtime's modules (templates/runtime/<name>.gen.ts), declared once: which features ship each, its slot in
 * the server definition's `modules` (RuntimeModules in start.gen.ts), and what the facade re-exports from it. The
 * emitters read this table and nothing else about the runtime; test/unit/runtime-table.test.ts checks it against
 * the templates themselves (every template is a row, the slots are RuntimeModules' keys, each facade list is what
 * its module exports), so the table cannot drift from the code it describes.
 */
import { compareText } from '../../util/compare.js';
import type { RuntimeFeatures } from './features.js';

/** The names the facade (src/generated/index.gen.ts) re-exports from one module. */
interface FacadeExports {
  readonly values: readonly string[];
  readonly types: readonly string[];
}

interface ModuleRow {
  /** Whether a server with these features contains the module. */
  readonly on: (features: RuntimeFeatures) => boolean;
  /**
   * Its key in the server definition's `modules`, from which the runtime loads it, or null when it ships with every
   * server or the one module that uses it imports it statically (both always ship together).
   */
  readonly slot: string | null;
  readonly facade?: FacadeExports;
}

const always = (): boolean => true;

export const runtimeModuleTable = {
  approval: { slot: 'approval', on: (f) => f.approval },
  'approval-html': { slot: null, on: (f) => f.approval },
  'approval-page': { slot: null, on: (f) => f.approval },
  auth: { slot: 'auth', on: (f) => f.auth },
  call: { slot: null, on: always },
  config: { slot: 'config', on: (f) => f.config },
  digest: { slot: null, on: (f) => f.approval || f.idempotency },
  // The reply types of list and completion handlers.
  dynamic: {
    slot: null,
    on: (f) => f.resources || f.prompts,
    facade: { values: [], types: ['CompletionReply', 'ListedResource', 'ListPage', 'ListRequest'] },
  },
  handler: {
    slot: null,
    on: always,
    facade: {
      values: [
        'acceptedContent',
        'inputRequired',
        'inputResponse',
        'isInputRequiredResult',
        'notImplemented',
        'ResourceNotFoundError',
        'SdkResult',
        'sdkResult',
        'ToolError',
      ],
      types: [
        'AnySdkResult',
        'ErrorKind',
        'HandlerContext',
        'ListName',
        'Notify',
        'Principal',
        'PromptMessageReply',
        'PromptReply',
        'PromptSdkResult',
        'ReadyCheck',
        'RequestInput',
        'ResourceContent',
        'ResourceReply',
        'ResourceSdkResult',
        'SetupTools',
        'ToolContent',
        'ToolSdkResult',
      ],
    },
  },
  // Of the handle module, only its types: handlers name handles, the runtime signs and checks them.
  hooks: { slot: null, on: always },
  handles: {
    slot: 'handles',
    on: (f) => f.handles,
    facade: { values: [], types: ['Handle', 'HandleIssuer', 'Verified'] },
  },
  http: { slot: 'http', on: (f) => f.http },
  'http-endpoint': { slot: null, on: (f) => f.http },
  'http-fast': { slot: null, on: (f) => f.http },
  // The web fetch handler index.gen.ts imports on the first request to its `fetch` (Workers, any Fetch API runtime).
  'http-fetch': { slot: null, on: (f) => f.http },
  'http-pinned': { slot: null, on: (f) => f.http },
  'http-probes': { slot: null, on: (f) => f.http },
  'http-request': { slot: null, on: (f) => f.http },
  'http-server': { slot: null, on: (f) => f.http },
  idempotency: { slot: 'idempotency', on: (f) => f.idempotency },
  keys: { slot: null, on: (f) => f.handles || f.approval },
  legacy: { slot: 'legacy', on: (f) => f.legacy },
  lifecycle: { slot: null, on: always },
  'legacy-http': { slot: 'legacyHttp', on: (f) => f.legacyHttp },
  'listen-streams': { slot: null, on: (f) => f.http },
  log: { slot: null, on: always },
  notify: { slot: 'notify', on: (f) => f.notify !== 'none' },
  'notify-durable': { slot: 'notifyDurable', on: (f) => f.workers && f.notify !== 'none' },
  'notify-redis': { slot: 'notifyRedis', on: (f) => f.notify === 'redis' },
  oauth: { slot: 'oauth', on: (f) => f.oauth },
  // Imported by validators.gen.ts, which names it only when a schema it does not hold as code needs it.
  'own-properties': { slot: null, on: (f) => f.ownProperties },
  params: { slot: null, on: always },
  prompts: { slot: 'prompts', on: (f) => f.prompts },
  register: { slot: null, on: always },
  resources: { slot: 'resources', on: (f) => f.resources },
  search: { slot: 'search', on: (f) => f.search },
  'search-index': { slot: null, on: (f) => f.search },
  'search-words': { slot: null, on: (f) => f.search },
  spec: { slot: null, on: always },
  start: { slot: null, on: always },
  startup: { slot: null, on: always },
  stdio: { slot: null, on: always },
  store: { slot: 'store', on: (f) => f.store !== 'none' },
  // On Workers the store is the Durable Object's; its class ships with every Worker (wrangler.jsonc binds it).
  'state-object': { slot: null, on: (f) => f.workers },
  'store-durable': { slot: 'storeDurable', on: (f) => f.workers && f.store !== 'none' },
  'store-redis': { slot: 'storeRedis', on: (f) => f.store === 'redis' },
  tasks: { slot: 'tasks', on: (f) => f.tasks },
  'tasks-listen': { slot: null, on: (f) => f.tasks },
  'tasks-record': { slot: null, on: (f) => f.tasks },
  telemetry: { slot: 'telemetry', on: (f) => f.telemetry },
  testing: {
    slot: null,
    on: always,
    facade: { values: ['expectOutput', 'expectSdkResult', 'readHandle'], types: ['TestAnswer', 'TestContextOptions'] },
  },
  upstream: { slot: 'upstream', on: (f) => f.upstream },
  'upstream-answer': { slot: null, on: (f) => f.upstream },
  'upstream-credentials': { slot: null, on: (f) => f.upstream },
  'upstream-request': { slot: null, on: (f) => f.upstream },
  'upstream-spec': { slot: null, on: (f) => f.upstream },
  'upstream-wire': { slot: null, on: (f) => f.upstream },
} as const satisfies Readonly<Record<string, ModuleRow>>;

/** A runtime module's name: templates/runtime/<name>.gen.ts. */
export type RuntimeModuleName = keyof typeof runtimeModuleTable;

/** A key of the server definition's `modules`. */
export type RuntimeSlot = NonNullable<(typeof runtimeModuleTable)[RuntimeModuleName]['slot']>;

const moduleNames = (Object.keys(runtimeModuleTable) as RuntimeModuleName[]).sort(compareText);

/** The names of the runtime modules a server with `features` contains, sorted. */
export function runtimeModules(features: RuntimeFeatures): RuntimeModuleName[] {
  return moduleNames.filter((name) => runtimeModuleTable[name].on(features));
}

/** The modules the runtime loads through the server definition, as `slot` and module name, sorted by slot. */
export function moduleSlots(
  features: RuntimeFeatures,
): { readonly slot: RuntimeSlot; readonly name: RuntimeModuleName }[] {
  return moduleNames
    .flatMap((name) => {
      const { slot } = runtimeModuleTable[name];
      return slot !== null && runtimeModuleTable[name].on(features) ? [{ slot, name }] : [];
    })
    .sort((a, b) => compareText(a.slot, b.slot));
}

/** The facade's part of module `name`. */
export function facadeExports(name: 'dynamic' | 'handler' | 'handles' | 'testing'): FacadeExports {
  return runtimeModuleTable[name].facade;
}
