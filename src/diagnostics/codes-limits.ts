import type { CodeInfo } from './code-info.js';

/** Codes for a manifest past one of its limits (src/model/limits.ts), reported by load before validation. */
export const limitCodes = {
  'manifest-too-large': {
    severity: 'error',
    title: 'Manifest file too large',
    cause:
      'The file is larger than 8 MiB. It is refused before it is parsed, so a huge file costs neither ' +
      'the memory nor the time of parsing it.',
    fix:
      'Split the server into smaller ones, or write schemas that repeat once under `$defs` and `$ref` them. ' +
      'See the limits in `docs/manifest.md`.',
  },
  'manifest-too-many-tools': {
    severity: 'error',
    title: 'Too many tools',
    cause: 'The manifest declares more than 2,000 tools.',
    fix: 'Split the server into smaller ones, each with the tools one kind of task needs.',
  },
  'manifest-too-deep': {
    severity: 'error',
    title: 'Manifest nested too deep',
    cause:
      'Mappings and lists nest more than 67 levels from the top of the file: a tool schema more than 64 ' +
      'levels, or another value that deep.',
    fix: 'Flatten the structure, or write a nested schema once under `$defs` and `$ref` it.',
  },
} as const satisfies Record<string, CodeInfo>;
