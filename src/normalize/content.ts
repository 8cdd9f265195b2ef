import { handlerPath } from '../model/layout.js';
import { camelCase, pascalCase } from '../model/naming.js';
import { templateVariables } from '../model/uri-template.js';
import type { CacheModel, PromptModel, ResourceModel } from '../model/types.js';
import { sortBy } from '../util/compare.js';
import { entriesOf, isRecord, stringOr } from '../util/guards.js';
import { normalizeCache } from './cache.js';

/** Resources sorted by name; each cache field falls back to the server's. */
export function normalizeResources(value: unknown, serverCache: CacheModel): ResourceModel[] {
  const resources = entriesOf(value).map(([name, raw]): ResourceModel => {
    const resource = isRecord(raw) ? raw : {};
    return {
      name,
      uri: stringOr(resource.uri) ?? null,
      uriTemplate: stringOr(resource.uriTemplate) ?? null,
      title: stringOr(resource.title) ?? null,
      description: stringOr(resource.description) ?? null,
      mimeType: stringOr(resource.mimeType) ?? null,
      cache: normalizeCache(resource.cache, serverCache),
      completions: isRecord(resource.completions)
        ? Object.fromEntries(sortBy(entriesOf(resource.completions), ([variable]) => variable).map(([variable, values]) => [variable, stringList(values)]))
        : null,
      variables: templateVariables(stringOr(resource.uriTemplate) ?? ''),
      names: { handler: camelCase(name), argsType: `${pascalCase(name)}Variables`, file: handlerPath('resource', name) },
      pointer: `/resources/${name}`,
    };
  });
  return sortBy(resources, (r) => r.name);
}

/** The strings of a completion list, in declared order (the order the client shows). */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Prompts sorted by name, arguments sorted by name, messages in declared order. */
export function normalizePrompts(value: unknown): PromptModel[] {
  const prompts = entriesOf(value).map(([name, raw]): PromptModel => {
    const prompt = isRecord(raw) ? raw : {};
    const args = entriesOf(prompt.arguments).map(([argName, rawArg]) => {
      const arg = isRecord(rawArg) ? rawArg : {};
      return {
        name: argName,
        title: stringOr(arg.title) ?? null,
        description: stringOr(arg.description) ?? null,
        required: arg.required === true,
        completions: Array.isArray(arg.completions) ? stringList(arg.completions) : null,
      };
    });
    const messages = Array.isArray(prompt.messages)
      ? prompt.messages.filter(isRecord).map((m) => ({ role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const), text: stringOr(m.text) ?? '' }))
      : null;
    return {
      name,
      title: stringOr(prompt.title) ?? null,
      description: stringOr(prompt.description) ?? null,
      arguments: sortBy(args, (a) => a.name),
      messages,
      names: { handler: camelCase(name), argsType: `${pascalCase(name)}Args`, file: handlerPath('prompt', name) },
      pointer: `/prompts/${name}`,
    };
  });
  return sortBy(prompts, (p) => p.name);
}
