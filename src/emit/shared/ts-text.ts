/**
 * Generated TypeScript as plain text. Every generated module and every new
 * handler stub is built here from strings, in the exact layout the code style
 * of generated files fixes (two spaces, single-quoted module specifiers,
 * semicolons, one blank line between top-level statements, none between
 * imports), so emitting loads no compiler. Only edits of existing user files
 * need a TypeScript parser (handlers/reconcile.ts).
 */
import { finalParts } from '../../util/file-text.js';

/**
 * Exactly one trailing newline, LF only. `trimEnd` removes what `/\s+$/` matched (white space and line
 * terminators, the same set by definition) without the regex retrying at every run of indentation, which grows
 * with the square of a large module's size.
 */
export function finalText(text: string): string {
  const lf = text.replace(/\r\n/g, '\n');
  const trimmed = lf.trimEnd();
  // A text that already ends in one newline is returned itself: the regex left it one flat string, which the write
  // stage encodes as it is, where `${trimmed}\n` would be a new pair that it must first copy whole into one string.
  return trimmed.length === lf.length - 1 && lf.endsWith('\n') ? lf : `${trimmed}\n`;
}

/**
 * A JSDoc comment: `/** text *\/` for one line; otherwise one ` * ` line per
 * line of text (a bare ` *` for an empty one), each prefixed with `indent`.
 */
export function docComment(text: string, indent = ''): string {
  const lines = text.split(/\r?\n/);
  if (lines[0] === '') lines.shift();
  if (lines.length <= 1) return `${indent}/** ${lines[0] ?? ''}${(lines[0] ?? '').endsWith(' ') ? '' : ' '}*/`;
  return [`${indent}/**`, ...lines.map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`), `${indent} */`].join(
    '\n',
  );
}

/** `import { a, type B } from 'specifier';`, or `import type { ... }` when `typeOnly`. */
export function importDeclaration(names: readonly string[], specifier: string, typeOnly = false): string {
  return `import ${typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${specifier}';`;
}

/**
 * Exactly `finalText(`${banner}\n${moduleText(imports, statements)}`)`, joined in one go into one flat string, which
 * finalText returns as it is: for a module of megabytes (a large project's registry and types) that is one copy of
 * its text instead of three (the joined module, the banner pair, and finalText's copy of that pair).
 */
export function moduleFile(banner: string, imports: readonly string[], statements: readonly string[]): string {
  const parts = imports.length === 0 ? [...statements] : [imports.join('\n'), ...statements];
  if (parts.length === 0) return finalText(`${banner}\n\n`);
  parts[0] = `${banner}\n${parts[0]}`;
  parts[parts.length - 1] = `${parts[parts.length - 1]}\n`;
  return finalText(parts.join('\n\n'));
}

/** `moduleFile`'s text in parts, one per statement (util/file-text.ts): for a module of megabytes. */
export function moduleParts(banner: string, imports: readonly string[], statements: readonly string[]): string[] {
  const parts = imports.length === 0 ? [...statements] : [imports.join('\n'), ...statements];
  if (parts.length === 0) return finalParts([`${banner}\n\n`]);
  const last = parts.length - 1;
  return finalParts(parts.map((part, i) => `${i === 0 ? `${banner}\n` : ''}${part}${i === last ? '\n' : '\n\n'}`));
}

/** A module: its imports on consecutive lines, then every statement, one blank line apart. */
export function moduleText(imports: readonly string[], statements: readonly string[]): string {
  const parts = imports.length === 0 ? [...statements] : [imports.join('\n'), ...statements];
  return `${parts.join('\n\n')}\n`;
}

/** A top-level declaration with its JSDoc comment. */
export function documented(doc: string, declaration: string): string {
  return `${docComment(doc)}\n${declaration}`;
}
