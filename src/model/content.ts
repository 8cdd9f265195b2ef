/**
 * The resources and prompts of the model: what a server offers besides its tools, split from types.ts to keep
 * each file small. types.ts re-exports them.
 */

import type { IconModel, ResourceAnnotationsModel } from './metadata.js';

/** Freshness of a cacheable result: `ttlMs` and `cacheScope` on the wire. */
export interface CacheModel {
  readonly ttlMs: number;
  readonly scope: 'public' | 'private';
}

/** Identifiers and path of a resource or prompt handler; `file` is relative to the project root. */
export interface HandlerNames {
  readonly handler: string;
  /** Type of the URI template variables (resources) or the arguments (prompts). */
  readonly argsType: string;
  readonly file: string;
}

/** A second handler of a resource or prompt (its list, its completions): export name and file. */
export interface ExtraHandlerNames {
  readonly handler: string;
  readonly file: string;
}

export interface ResourceModel {
  readonly name: string;
  readonly uri: string | null;
  readonly uriTemplate: string | null;
  readonly title: string | null;
  readonly description: string | null;
  readonly mimeType: string | null;
  /** `icons`, as declared; empty when none. */
  readonly icons: readonly IconModel[];
  /** `annotations` for resources/list and resources/templates/list, or null. */
  readonly annotations: ResourceAnnotationsModel | null;
  /** Bytes of a fixed resource's raw content (`size`), or null; a template never has one. */
  readonly size: number | null;
  readonly cache: CacheModel;
  /** Values `completion/complete` offers per template variable, or null when none are declared. */
  readonly completions: Readonly<Record<string, readonly string[]>> | null;
  /** Variable names of `uriTemplate` in order of appearance; `exploded` ones (`{path*}`) are lists. */
  readonly variables: readonly { readonly name: string; readonly exploded: boolean }[];
  /** `list: handler`: the handler that lists the template's members in `resources/list`; null without. */
  readonly list: ExtraHandlerNames | null;
  /** `complete`: the handler that completes these variables (sorted); null when none is. */
  readonly complete: (ExtraHandlerNames & { readonly variables: readonly string[] }) | null;
  readonly names: HandlerNames;
  readonly pointer: string;
}

export interface PromptArgumentModel {
  readonly name: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly required: boolean;
  /** Values `completion/complete` offers for this argument, or null when none are declared. */
  readonly completions: readonly string[] | null;
}

export interface PromptMessageModel {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

export interface PromptModel {
  readonly name: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly icons: readonly IconModel[];
  /** Sorted by name, like every map in the manifest. */
  readonly arguments: readonly PromptArgumentModel[];
  /**
   * Fixed messages with `{{argument}}` placeholders, or null when
   * a handler builds them. Order is kept: it is the conversation.
   */
  readonly messages: readonly PromptMessageModel[] | null;
  /** The handler that completes the arguments with `complete: handler` (sorted); null when none has it. */
  readonly complete: (ExtraHandlerNames & { readonly arguments: readonly string[] }) | null;
  readonly names: HandlerNames;
  readonly pointer: string;
}
