/**
 * The resources, resource templates and prompts a generated server lists for
 * a model: each item's listing (model/listing.ts, which the runtime registers
 * as it is) with its name, URI and arguments. Tools come from
 * model/toolset.ts, which the digest also uses. Pure.
 */
import type { WireItem } from '../live/index.js';
import { promptListing, resourceListing } from '../model/listing.js';
import type { ServerModel } from '../model/types.js';

/** What `resources/list`, `resources/templates/list` and `prompts/list` carry for `model`. */
export function expectedLists(model: ServerModel): {
  readonly resources: WireItem[];
  readonly templates: WireItem[];
  readonly prompts: WireItem[];
} {
  const resource = (r: ServerModel['resources'][number]) => ({
    name: r.name,
    ...(r.uri === null ? { uriTemplate: r.uriTemplate } : { uri: r.uri }),
    ...resourceListing(r),
  });
  return {
    resources: model.resources.filter((r) => r.uri !== null).map(resource),
    templates: model.resources.filter((r) => r.uri === null).map(resource),
    prompts: model.prompts.map((p) => ({
      name: p.name,
      ...promptListing(p),
      arguments: p.arguments.map((a) => ({
        name: a.name,
        ...(a.title === null ? {} : { title: a.title }),
        ...(a.description === null ? {} : { description: a.description }),
        required: a.required,
      })),
    })),
  };
}
