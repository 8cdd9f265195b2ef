/**
 * The resources, resource templates and prompts a generated server lists for
 * a model, as the runtime registers them (templates/runtime/resources.gen.ts
 * and prompts.gen.ts): `title`, `description`, `mimeType`, `icons`, `annotations` and `size` only when set.
 * Tools come from model/toolset.ts, which the digest also uses. Pure.
 */
import type { WireItem } from '../live/index.js';
import type { ServerModel } from '../model/types.js';

/** What `resources/list`, `resources/templates/list` and `prompts/list` carry for `model`. */
export function expectedLists(model: ServerModel): {
  readonly resources: WireItem[];
  readonly templates: WireItem[];
  readonly prompts: WireItem[];
} {
  const described = (item: { title: string | null; description: string | null }) => ({
    ...(item.title === null ? {} : { title: item.title }),
    ...(item.description === null ? {} : { description: item.description }),
  });
  const shown = (item: { icons: ServerModel['prompts'][number]['icons'] }) =>
    item.icons.length === 0 ? {} : { icons: item.icons };
  const resource = (r: ServerModel['resources'][number]) => ({
    name: r.name,
    ...(r.uri === null ? { uriTemplate: r.uriTemplate } : { uri: r.uri }),
    ...described(r),
    ...(r.mimeType === null ? {} : { mimeType: r.mimeType }),
    ...shown(r),
    ...(r.annotations === null ? {} : { annotations: r.annotations }),
    ...(r.size === null ? {} : { size: r.size }),
  });
  return {
    resources: model.resources.filter((r) => r.uri !== null).map(resource),
    templates: model.resources.filter((r) => r.uri === null).map(resource),
    prompts: model.prompts.map((p) => ({
      name: p.name,
      ...described(p),
      ...shown(p),
      arguments: p.arguments.map((a) => ({ name: a.name, ...described(a), required: a.required })),
    })),
  };
}
