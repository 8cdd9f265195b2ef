/**
 * What a stage asks to skip the work of every part of the manifest an edit did not touch: the value a pure
 * function gave for the very same object (identity, not content) while the rest of the manifest stayed as it was.
 * A stage says what each value is a function of; the cache (src/cache/warm.ts) decides what it keeps and for how
 * long. Without one, every value is computed, so a run with a memo gives the same bytes as a run without.
 */
export interface Memo {
  /**
   * `compute(key)`, or what it gave when `table` was last asked for this `key` object. Only for a function of `key`
   * alone and of what lies outside `tools:` (server, shared schemas, handles, toolsets, config): never of another
   * tool, of the project's files or of the run's options.
   */
  recall<K extends object, V>(table: string, key: K, compute: (key: K) => V): V;
}

/** No memo: every value is computed. */
export const noMemo: Memo = { recall: (_table, key, compute) => compute(key) };
