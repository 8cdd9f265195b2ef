/**
 * Drops the text that RegExp's legacy static properties (`RegExp.input`, `RegExp.lastMatch`) keep alive: the
 * subject of the last successful match, whatever it was. After emit that is a whole file's text before its last
 * rewrite (DESIGN.md before its blank lines are collapsed: megabytes for a large project), held until the process
 * ends unless another match replaces it. An empty match on an empty text does.
 */
export function forgetLastMatch(): void {
  /(?:)/.exec('');
}
