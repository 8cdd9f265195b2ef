import { handlerPath, type HandlerKind } from '../model/layout.js';
import type { ManifestPrompt, ManifestResource } from '../model/manifest.gen.js';
import { handlerExport, pascalCase } from '../model/naming.js';
import { templateVariables } from '../model/uri-template.js';
import type { CacheModel, ExtraHandlerNames, PromptModel, ResourceModel } from '../model/types.js';
import { sortBy } from '../util/compare.js';
import { normalizeCache } from './cache.js';
import { normalizeIcons, normalizeResourceAnnotations } from './metadata.js';

/** `noteListHandler` in `src/handlers/resource-lists/note.ts`: a resource's or prompt's second handler. */
function extraHandler(kind: HandlerKind, name: string, role: 'list' | 'complete'): ExtraHandlerNames {
  return { handler: handlerExport(`${name}_${role}`), file: handlerPath(kind, name) };
}

/** The handler of `names` (sorted), or null when no name is completed by one. */
function completedBy<T>(names: readonly string[], make: (sorted: readonly string[]) => T): T | null {
  return names.length === 0 ? null : make(sortBy([...names], (n) => n));
}

/** Resources sorted by name; each cache field falls back to the server's. */
export function normalizeResources(
  resources: Readonly<Record<string, ManifestResource>>,
  serverCache: CacheModel,
): ResourceModel[] {
  const models = Object.entries(resources).map(
    ([name, resource]): ResourceModel => ({
      name,
      uri: resource.uri ?? null,
      uriTemplate: resource.uriTemplate ?? null,
      title: resource.title ?? null,
      description: resource.description ?? null,
      mimeType: resource.mimeType ?? null,
      icons: normalizeIcons(resource.icons),
      annotations: normalizeResourceAnnotations(resource.annotations),
      size: resource.size ?? null,
      cache: normalizeCache(resource.cache, serverCache),
      // Completion values keep their declared order: it is the order the client shows.
      completions:
        resource.completions === undefined
          ? null
          : Object.fromEntries(
              sortBy(Object.entries(resource.completions), ([variable]) => variable).map(([variable, values]) => [
                variable,
                [...values],
              ]),
            ),
      variables: templateVariables(resource.uriTemplate ?? ''),
      list: resource.list === 'handler' ? extraHandler('resourceList', name, 'list') : null,
      complete: completedBy(Object.keys(resource.complete ?? {}), (variables) => ({
        ...extraHandler('resourceComplete', name, 'complete'),
        variables,
      })),
      names: {
        handler: handlerExport(name),
        argsType: `${pascalCase(name)}Variables`,
        file: handlerPath('resource', name),
      },
      pointer: `/resources/${name}`,
    }),
  );
  return sortBy(models, (r) => r.name);
}

/** Prompts sorted by name, arguments sorted by name, messages in declared order. */
export function normalizePrompts(prompts: Readonly<Record<string, ManifestPrompt>>): PromptModel[] {
  const models = Object.entries(prompts).map(([name, prompt]): PromptModel => {
    const args = Object.entries(prompt.arguments ?? {}).map(([argName, arg]) => ({
      name: argName,
      title: arg.title ?? null,
      description: arg.description ?? null,
      required: arg.required === true,
      completions: arg.completions === undefined ? null : [...arg.completions],
    }));
    return {
      name,
      title: prompt.title ?? null,
      description: prompt.description ?? null,
      icons: normalizeIcons(prompt.icons),
      arguments: sortBy(args, (a) => a.name),
      messages: prompt.messages?.map((m) => ({ role: m.role, text: m.text })) ?? null,
      complete: completedBy(
        Object.entries(prompt.arguments ?? {})
          .filter(([, arg]) => arg.complete === 'handler')
          .map(([argName]) => argName),
        (names) => ({ ...extraHandler('promptComplete', name, 'complete'), arguments: names }),
      ),
      names: { handler: handlerExport(name), argsType: `${pascalCase(name)}Args`, file: handlerPath('prompt', name) },
      pointer: `/prompts/${name}`,
    };
  });
  return sortBy(models, (p) => p.name);
}
