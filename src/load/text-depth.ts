/**
 * How deep a manifest's text nests, read from the text: for a manifest nested past what the YAML parser's stack holds
 * (it recurses once per level), which leaves no data to find the place in. Levels are counted as written: each
 * indentation deeper than the lines above, each `- ` that opens a list entry, each `[` or `{` where a value starts,
 * outside quotes, comments and block scalars.
 */

/** The offset of the first character that opens a level past `limit`, or null when the text stays within it. */
export function textTooDeepAt(source: string, limit: number): number | null {
  const indents: number[] = [];
  // Open `[` and `{`, and the block depth of the line where the outermost one opened.
  let flow = 0;
  let base = 0;
  let quote: '"' | "'" | null = null;
  let blockScalar: number | null = null;
  let offset = 0;
  for (const line of source.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const indent = line.length - line.trimStart().length;
    const blank = line.trim() === '' || line.trimStart().startsWith('#');
    // The lines of a block scalar (`|`, `>`) are text, however deep they are indented.
    if (blockScalar !== null) {
      if (blank || indent > blockScalar) continue;
      blockScalar = null;
    }
    if (blank && quote === null) continue;
    let i = 0;
    if (flow === 0 && quote === null) {
      while (indents.length > 0 && (indents.at(-1) ?? 0) >= indent) indents.pop();
      indents.push(indent);
      base = indents.length;
      i = indent;
      // `- - - a`: each dash on the line opens an entry of a list inside the one before.
      while (line.startsWith('- ', i) || line.slice(i) === '-') {
        base += 1;
        i += 2;
        while (line.charAt(i) === ' ') i += 1;
      }
      if (base > limit) return start + Math.min(i, line.length);
    }
    // Where a scalar may start: a quote or a bracket there is structure; anywhere else (`it's`, `a [b]`) it is text.
    let last = ''; // the last character that is not a space, on this line
    let spaced = true; // whether a space came after it
    for (; i < line.length; i += 1) {
      const c = line.charAt(i);
      if (quote === '"') {
        if (c === '\\') i += 1;
        else if (c === '"') quote = null;
        last = c;
        continue;
      }
      if (quote === "'") {
        if (c === "'" && line.charAt(i + 1) === "'") i += 1;
        else if (c === "'") quote = null;
        last = c;
        continue;
      }
      if (c === ' ' || c === '\t') {
        spaced = true;
        continue;
      }
      if (c === '#' && spaced) break;
      const opens = last === '' || '[{,'.includes(last) || (':-?'.includes(last) && spaced);
      if (opens && (c === '"' || c === "'")) quote = c;
      else if ((opens || flow > 0) && (c === '[' || c === '{')) {
        flow += 1;
        if (base + flow > limit) return start + i;
      } else if ((c === ']' || c === '}') && flow > 0) flow -= 1;
      last = c;
      spaced = false;
    }
    if (flow === 0 && quote === null && /(^|[\s:-])[|>][+-]?\d*\s*(#.*)?$/.test(line.trimEnd())) blockScalar = indent;
  }
  return null;
}
