/**
 * The one builder of what a list result says of a tool, a resource or a prompt, besides its name and schemas:
 * `title`, `description`, `icons` and the rest, each only when set. The registry carries exactly this object
 * (`listing`), the runtime spreads it into the SDK's registration as it is, the review prices it and `verify`
 * expects it back from a live server, so the four cannot describe an item differently. The types are the runtime's
 * declaration (spec.gen.ts), as for the rest of the registry. Pure.
 */
import type { IconSpec, PromptListing, ResourceListing, ToolListing } from '../../templates/runtime/spec.gen.js';
import type { ResourceModel, PromptModel } from './content.js';
import type { IconModel, ResourceAnnotationsModel, ToolModel } from './types.js';

/** `icons` as sent, in declared order. */
export function wireIcons(icons: readonly IconModel[]): IconSpec[] {
  return icons.map(({ sizes, ...icon }) => ({ ...icon, ...(sizes === undefined ? {} : { sizes: [...sizes] }) }));
}

/** `{ icons }`, or nothing when there are none: a list result leaves the key out. */
const iconsOf = (icons: readonly IconModel[]) => (icons.length === 0 ? {} : { icons: wireIcons(icons) });

const titled = (item: { readonly title: string | null }) => (item.title === null ? {} : { title: item.title });

function annotationsOf({ audience, ...rest }: ResourceAnnotationsModel): NonNullable<ResourceListing['annotations']> {
  return { ...(audience === undefined ? {} : { audience: [...audience] }), ...rest };
}

/** What tools/list says of `tool` besides its name and schemas. */
export function toolListing(tool: ToolModel): ToolListing {
  return {
    ...titled(tool),
    description: tool.description,
    ...iconsOf(tool.icons),
    annotations: { ...tool.annotations },
  };
}

/** What resources/list or resources/templates/list says of `resource` besides its name and URI (template). */
export function resourceListing(resource: ResourceModel): ResourceListing {
  const annotations = resource.annotations;
  return {
    ...titled(resource),
    ...(resource.description === null ? {} : { description: resource.description }),
    ...(resource.mimeType === null ? {} : { mimeType: resource.mimeType }),
    ...iconsOf(resource.icons),
    ...(annotations === null ? {} : { annotations: annotationsOf(annotations) }),
    ...(resource.size === null ? {} : { size: resource.size }),
  };
}

/** What prompts/list says of `prompt` besides its name and arguments (which the SDK derives from their schema). */
export function promptListing(prompt: PromptModel): PromptListing {
  return {
    ...titled(prompt),
    ...(prompt.description === null ? {} : { description: prompt.description }),
    ...iconsOf(prompt.icons),
  };
}
