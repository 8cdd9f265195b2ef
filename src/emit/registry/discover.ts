import type { DiscoverSpec } from '../../../templates/runtime/spec.gen.js';
import { tasksExtension } from '../../model/defaults.js';
import type { ListName } from '../../model/notifications.js';
import type { ServerModel } from '../../model/types.js';
import { iconsData } from './icons.js';

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
    ...(model.server.icons.length === 0 ? {} : { icons: iconsData(model.server.icons) ?? [] }),
  };
  return {
    supportedVersions: [...model.protocol.versions],
    capabilities,
    ...(model.server.instructions === null ? {} : { instructions: model.server.instructions }),
    resultType: 'complete',
    ttlMs: model.cache.ttlMs,
    cacheScope: model.cache.scope,
    _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
  };
}
