/**
 * Whether a JSON Schema `pattern` bounds the length of the strings it accepts. A pattern is an ECMA-262 regular
 * expression that matches anywhere in the string unless anchored, so it bounds the length only when it is
 * anchored at both ends (`^...$`, no `|` outside a group, which would anchor one branch only) and repeats nothing
 * without an upper bound (`*`, `+`, `{n,}`). Read conservatively: a bounded pattern this does not recognise (a
 * lookahead holding `.*`) still counts as unbounded, never the other way round.
 */
export function patternBoundsLength(pattern: string): boolean {
  if (!pattern.startsWith('^')) return false;
  let depth = 0;
  let inClass = false;
  let endsWithAnchor = false;
  for (let i = 1; i < pattern.length; i += 1) {
    const char = pattern[i];
    endsWithAnchor = false;
    if (char === '\\') {
      // An escape is one atom: `\*` and `\$` are literal, `\p{L}` and `\u{41}` carry no quantifier.
      const braces = /^[pPu]\{[^}]*\}/.exec(pattern.slice(i + 1));
      i += braces === null ? 1 : braces[0].length;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === '|' && depth === 0) return false;
    else if (char === '*' || char === '+') return false;
    else if (char === '{' && /^\{\d+,\}/.test(pattern.slice(i))) return false;
    else if (char === '$') endsWithAnchor = i === pattern.length - 1;
  }
  return endsWithAnchor && !inClass && depth === 0;
}
