/**
 * The most a manifest may hold (docs/manifest.md#limits). A manifest is input like any other: without
 * bounds, a huge file would take many times its size in memory to parse and as much again to write. Each
 * limit is checked by load, before validation, and exceeding one is an error that names it.
 */
export const manifestLimits = {
  /**
   * Bytes of the file, checked before it is parsed, which takes many times the file's size in memory; the limit
   * still holds GitHub's REST API as `import openapi` drafts it, its components written once as shared schemas
   * (docs/benchmarks.md).
   */
  bytes: 8 * 1024 * 1024,
  /** Tools of one server: more than GitHub's REST API has operations (1,223). */
  tools: 2000,
  /**
   * Levels of mappings and lists, counted from the top of the file: a tool's input or output schema starts
   * at level 4 (`tools`, the tool, `input`), so a schema may nest 64 levels.
   */
  depth: 67,
} as const;

/**
 * Past this many characters a manifest is large (GitHub's draft: 4.6 million; the examples: a few thousand): its
 * parsed data is worth a file in the parse cache (cache/parsed.ts), and load parses it an entry at a time
 * when it can (load/piecewise.ts) instead of building the library's document of all of it at once.
 */
export const largeManifestChars = 128 * 1024;

/** Levels above a tool schema's own mapping: the file's mapping, `tools` and the tool. */
export const schemaLevel = 3;
