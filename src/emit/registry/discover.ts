import type { DiscoverSpec } from '../../../templates/runtime/spec.gen.js';
import { legacyProtocolVersion, tasksExtension } from '../../model/defaults.js';
import type { ListName } from '../../model/notifications.js';
import type { ServerModel } from '../../model/types.js';
import { wireIcons } from '../../model/listing.js';

/**
 * Every revision the server answers, newest first: its modern ones, and 2025-11-25 with `protocol.legacy: serve`.
 * This is both `supportedVersions` of `server/discover` and `data.supported` of every -32022. The spec defines both as
 * the revisions the server supports, not the ones it serves statelessly; its own -32022 example lists both eras
 * (`"supported": ["2026-07-28", "2025-11-25"]`), a server MAY serve both eras on one endpoint, and a client told a
 * version is unsupported picks its version from `supported`: a client of both eras that finds 2025-11-25 there may
 * `initialize` with it. (The SDK lists modern revisions only; the runtime overrides it, register.gen.ts and
 * http.gen.ts.) A 2025-11-25 version named in a modern `_meta` envelope is still -32022: that revision has no
 * envelope, it is reached through `initialize`.
 */
export function supportedVersions(model: ServerModel): string[] {
  return [...model.protocol.versions, ...(model.protocol.legacy === 'serve' ? [legacyProtocolVersion] : [])];
}

/**
 * The `server/discover` result this server returns, decided once from the
 * model. The registry carries it to the runtime (which hands capabilities and
 * instructions to the SDK) and the design report prints it, so the two cannot
 * drift; a test compares it with a live server's answer.
 */
export function discoverContract(model: ServerModel): DiscoverSpec {
  const capabilities: Record<string, Readonly<Record<string, unknown>>> = {};
  // Only the changes the manifest declares: a capability promises notifications the server can actually send. An
  // explicit false, because the SDK sets listChanged: true on every list whose capability leaves it out.
  const { listChanged, resourceUpdates } = model.notifications;
  const announced = (list: ListName) => ({ listChanged: listChanged.includes(list) });
  if (model.tools.length > 0) capabilities.tools = announced('tools');
  if (model.resources.length > 0)
    capabilities.resources = { ...(resourceUpdates ? { subscribe: true } : {}), ...announced('resources') };
  if (model.prompts.length > 0) capabilities.prompts = announced('prompts');
  // completion/complete is served from declared values and completion handlers, so the capability follows them.
  const completes =
    model.prompts.some((p) => p.complete !== null || p.arguments.some((a) => a.completions !== null)) ||
    model.resources.some((r) => r.complete !== null || r.completions !== null);
  if (completes) capabilities.completions = {};
  // The Tasks extension is declared only where a tool can run as one (tasks.gen.ts serves its methods).
  if (model.tools.some((tool) => tool.task !== 'none')) capabilities.extensions = { [tasksExtension]: {} };
  const serverInfo = {
    name: model.server.name,
    ...(model.server.title === null ? {} : { title: model.server.title }),
    version: model.server.wireVersion ?? model.server.version,
    ...(model.server.description === null ? {} : { description: model.server.description }),
    ...(model.server.icons.length === 0 ? {} : { icons: wireIcons(model.server.icons) }),
  };
  return {
    supportedVersions: supportedVersions(model),
    capabilities,
    ...(model.server.instructions === null ? {} : { instructions: model.server.instructions }),
    resultType: 'complete',
    ttlMs: model.cache.ttlMs,
    cacheScope: model.cache.scope,
    _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
  };
}
