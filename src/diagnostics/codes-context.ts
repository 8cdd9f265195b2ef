import type { CodeInfo } from './code-info.js';

/** Design-review codes of gate item R5: what the tools a deployment lists cost a model, and the hosts' limits. */
export const contextCodes = {
  'lint-too-many-tools': {
    severity: 'warning',
    title: 'More tools than the configured limit',
    cause:
      'The server lists more tools by default than `lint.maxTools` (default 20): every tool, or with `toolsets:` ' +
      'the default toolsets and the tools in none. Each costs context tokens on every `tools/list`, and a model ' +
      'chooses worse among many.',
    fix:
      'Group tools in `toolsets:` with a small `default: true` selection, merge or split tools across servers, or ' +
      'raise `lint.maxTools` on purpose.',
  },
  'lint-search-small': {
    severity: 'warning',
    title: 'Tool search on a small design',
    cause:
      'The manifest sets `discovery: search`, but the tools it lists by default would fit as they are: within ' +
      '`review.maxListTokens`, `lint.maxTools` and every limit of the hosts in `review.hosts`. Search costs a model ' +
      'a round trip before every first call, and for a small API a model chooses at least as well among the listed ' +
      'tools.',
    fix:
      'Remove `discovery: search` (the default, `tools`, lists the tools), or keep it on purpose for a design ' +
      'that will grow.',
  },
  'lint-tool-too-large': {
    severity: 'warning',
    title: 'One tool is bigger than a tools/list page',
    cause:
      "A tool's descriptor (name, description, input and output schemas) alone is more than the 1 MiB a " +
      '`tools/list` page holds: it gets a page of its own, and a client that buffers little may fail to read it. ' +
      'Imported schemas of a large API reach this size when they carry hundreds of shared schemas.',
    fix:
      "Trim the tool's schemas: re-import (import prunes schemas past their budget) or name only the members a " +
      'model needs.',
  },
  'lint-list-too-large': {
    severity: 'error',
    title: 'The default tools/list costs more than the context budget',
    cause:
      'The tools a deployment lists by default cost more tokens in `tools/list` than `review.maxListTokens` ' +
      '(default 20,000): every conversation pays them before the first message, and a model chooses worse among ' +
      'many tools. The message names the heaviest tools.',
    fix:
      'Group tools in `toolsets:` and mark a small selection `default: true` (deployments add the rest with ' +
      '`<NAME>_TOOLSETS`), trim long descriptions and schemas of the heaviest tools, or split the server; raise ' +
      '`review.maxListTokens` only on purpose.',
  },
  'lint-host-limit': {
    severity: 'error',
    title: 'The default tools break a limit of a host the manifest names',
    cause:
      'A host listed in `review.hosts` is documented to refuse or degrade on this surface: more tools than it ' +
      'takes (GitHub Copilot: 128, Cursor: about 40), a tool name it does not accept (length, characters), or a ' +
      '`tools/list` page larger than its client reads. The limits and their sources are in docs/design-review.md.',
    fix:
      'Select fewer tools by default with `toolsets:`, rename the tools the message names, or lower ' +
      '`pagination.pageSize`; drop the host from `review.hosts` only if the server is not meant for it.',
  },
} as const satisfies Record<string, CodeInfo>;
