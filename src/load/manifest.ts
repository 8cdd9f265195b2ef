/**
 * Reads the manifest file and parses it as YAML, keeping a pointer -> line:col
 * locator; YAML syntax errors, duplicate keys and alias bombs stop the run here.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import { makeDiagnostic, type Diagnostic } from '../diagnostics/index.js';
import { hashReads } from '../util/hash.js';
import { largeManifestChars, manifestLimits } from '../model/limits.js';
import { checkSize, limitsHint, readAtMost } from './limits.js';
import { manifestOfData } from './locator.js';
import { textTooDeepAt } from './text-depth.js';
import { type PieceMemo, parsePieces } from './piecewise.js';
import type { LoadResult } from './loaded.js';
import { foldSyntaxErrors, syntaxWords, topLevelLineAt, unclosedQuote } from './yaml-errors.js';

/** Aliases may expand to at most this many nodes; more is treated as an attack. */
export const maxAliasCount = 100;

export type { LoadedManifest, LoadResult } from './loaded.js';

/** How a path is shown in diagnostics: relative to `cwd` when inside it, always with `/`. */
export function displayPath(absolutePath: string, cwd: string): string {
  const relative = path.relative(cwd, absolutePath);
  const shown = relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? absolutePath : relative;
  return shown.split(path.sep).join('/');
}

/** Reads and parses the manifest at `manifestPath`; `command` is the command that runs, for the hint. */
export function loadManifest(manifestPath: string, cwd: string = process.cwd(), command?: string): LoadResult {
  const read = readManifest(manifestPath, cwd, command);
  return read.ok ? parseManifest(read.text, read.file, read.absolutePath) : read;
}

/** The manifest's text, read and checked to be text within the size limit, or the diagnostics of why not. */
export type ReadResult =
  | { readonly ok: true; readonly file: string; readonly absolutePath: string; readonly text: string }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Reads the manifest at `manifestPath` without parsing it: the text that `parseManifest` takes. */
export function readManifest(manifestPath: string, cwd: string = process.cwd(), command?: string): ReadResult {
  const absolutePath = path.resolve(cwd, manifestPath);
  const file = displayPath(absolutePath, cwd);
  let bytes: Buffer;
  let size: number;
  let known: boolean;
  try {
    ({ bytes, size, known } = readAtMost(absolutePath, manifestLimits.bytes));
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    const reason = code === 'EISDIR' ? 'is a directory' : 'does not exist or cannot be read';
    const at = { file, pointer: '', line: 1, col: 1 };
    return {
      ok: false,
      diagnostics: [
        makeDiagnostic(
          'manifest-unreadable',
          at,
          `manifest "${file}" ${reason}`,
          unreadableHint(absolutePath, code === 'ENOENT', command),
        ),
      ],
    };
  }
  const tooLarge = checkSize(file, bytes, size, known);
  if (tooLarge !== null) return { ok: false, diagnostics: [tooLarge] };
  const notText = notTextAt(bytes);
  if (notText !== null) {
    // Never echo the bytes: a binary file would fill the terminal with them.
    const before = bytes.subarray(0, notText.offset).toString('utf8');
    const line = before.split('\n').length;
    const at = { file, pointer: '', line, col: before.length - before.lastIndexOf('\n') };
    return {
      ok: false,
      diagnostics: [
        makeDiagnostic(
          'manifest-not-text',
          at,
          `manifest "${file}" is not a UTF-8 text file (${notText.what} at byte ${notText.offset})`,
          'pass the path of a YAML manifest saved as UTF-8 text',
        ),
      ],
    };
  }
  return { ok: true, file, absolutePath, text: manifestTextOf(bytes) };
}

/**
 * What to do about a manifest that cannot be read. When the default `mcp.yaml` does not exist, passing
 * `mcp.yaml` is what just failed: the user is most likely outside a project, so the hint names `init` and a
 * path elsewhere instead (a file that exists but cannot be read keeps the plain hint).
 */
function unreadableHint(absolutePath: string, missing: boolean, command: string | undefined): string {
  if (missing && path.basename(absolutePath) === 'mcp.yaml')
    return (
      `there is no mcp.yaml in ${path.dirname(absolutePath)}: create a project with "mcp-gen init", or pass the path ` +
      `of your manifest${command === undefined ? '' : `, e.g. "mcp-gen ${command} path/to/mcp.yaml"`}`
    );
  return command === undefined
    ? 'pass the path of a YAML manifest'
    : `pass the path of a YAML manifest, e.g. "mcp-gen ${command} mcp.yaml"`;
}

/** The UTF-8 byte-order mark, which load drops before the text. */
const byteOrderMark = Uint8Array.of(0xef, 0xbb, 0xbf);

/**
 * `hashText` of the manifest's text, from its bytes (a text that load accepts is their UTF-8 decoding, less a
 * byte-order mark), read a chunk at a time; null when it cannot be read. The run record is keyed by it, and kept
 * only when it is the hash of the text the pipeline read.
 */
export function loadManifestHash(manifestPath: string, cwd: string): string | null {
  let fd: number;
  try {
    fd = openSync(path.resolve(cwd, manifestPath), 'r');
  } catch {
    return null;
  }
  try {
    return hashReads((into) => readSync(fd, into), byteOrderMark);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The manifest's text as load reads it, from its bytes: UTF-8 without a byte-order mark. */
export function manifestTextOf(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** The first byte that no YAML text holds: a NUL, or a sequence that is not UTF-8. */
function notTextAt(bytes: Buffer): { offset: number; what: string } | null {
  const nul = bytes.indexOf(0);
  // Checked without decoding: a large manifest's text would be decoded here only to be dropped.
  if (!isUtf8(nul < 0 ? bytes : bytes.subarray(0, nul))) {
    // Find the first bad byte: a streaming decoder throws on it, after accepting every byte before.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let offset = 0;
    try {
      for (; offset < bytes.length; offset += 1) decoder.decode(bytes.subarray(offset, offset + 1), { stream: true });
    } catch {
      return { offset, what: 'a byte that is not UTF-8' };
    }
  }
  return nul < 0 ? null : { offset: nul, what: 'a NUL byte' };
}

/** Parses manifest text that has already been read; `file` is the display path. */
export function parseManifest(text: string, file: string, absolutePath: string = file, memo?: PieceMemo): LoadResult {
  // A text that did not come from a file (a baseline read from git) is held to the same limit; UTF-8 takes at
  // most 3 bytes per UTF-16 unit, so a shorter text is within it without counting.
  if (text.length > manifestLimits.bytes / 3) {
    const bytes = Buffer.from(text, 'utf8');
    const tooLarge = checkSize(file, bytes, bytes.length);
    if (tooLarge !== null) return { ok: false, diagnostics: [tooLarge] };
  }
  // A byte-order mark is legal at the start of a UTF-8 file; drop it so column numbers match editors.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // A large manifest, an entry at a time when that gives the same data.
  const pieces = source.length >= largeManifestChars ? parsePieces(source, memo) : null;
  if (pieces !== null) return manifestOfData(source, pieces, file, absolutePath);
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number, pointer = '') => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, pointer, line, col };
  };

  const found = [...doc.errors, ...doc.warnings];
  const problems = found.map((e) =>
    e.code === 'DUPLICATE_KEY'
      ? makeDiagnostic(
          'yaml-duplicate-key',
          at(e.pos[0]),
          `duplicate key ${JSON.stringify(keyTextAt(source, e.pos[0]))} in a mapping`,
          'remove or rename one of the two keys',
        )
      : e.code === 'MISSING_CHAR' && /closing ["']?quote/.test(e.message)
        ? unclosedQuote(source, e.pos[0], at)
        : // The parser runs out of stack before the depth limit (limits.ts) could see the data.
          /maximum call stack size exceeded/i.test(e.message)
          ? makeDiagnostic(
              'manifest-too-deep',
              at(textTooDeepAt(source, manifestLimits.depth) ?? topLevelLineAt(source, e.pos[0])),
              `the manifest nests deeper than the limit of ${manifestLimits.depth} levels of mappings and lists; ` +
                `this opens level ${manifestLimits.depth + 1}`,
              `flatten the structure, or write a nested schema once under $defs and $ref it; ${limitsHint}`,
            )
          : makeDiagnostic('yaml-syntax', at(e.pos[0]), ...syntaxWords(e.code, e.message)),
  );
  // Duplicate keys leave a well-formed document: it is read (the last value wins) so validation can report the rest.
  const duplicatesOnly = found.every((e) => e.code === 'DUPLICATE_KEY');
  if (problems.length > 0 && !duplicatesOnly)
    return { ok: false, diagnostics: foldSyntaxErrors(source, found, problems, at) };

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount });
  } catch (error) {
    const unresolved = error instanceof ReferenceError ? /^Unresolved alias.*: (.*)$/.exec(error.message) : null;
    if (unresolved !== null) {
      const name = unresolved[1] ?? '';
      return {
        ok: false,
        diagnostics: [
          makeDiagnostic(
            'yaml-syntax',
            at(firstAliasOffset(doc, name)),
            `alias "*${name}" names no anchor: "&${name}" is not set before it`,
            `set "&${name}" on the value to repeat, above this line, or write the value out`,
          ),
        ],
      };
    }
    if (error instanceof ReferenceError) {
      return {
        ok: false,
        diagnostics: [
          makeDiagnostic(
            'yaml-alias-limit',
            at(firstAliasOffset(doc)),
            `aliases expand to more than ${maxAliasCount} nodes`,
            'write the values out instead of nesting aliases',
          ),
        ],
      };
    }
    throw error;
  }
  // Positions are found again when asked for (locator.ts), so the document, many times the text's size, goes now.
  const loaded = manifestOfData(source, data, file, absolutePath);
  if (problems.length === 0) return loaded;
  return loaded.ok
    ? { ok: true, manifest: { ...loaded.manifest, problems } }
    : { ok: false, diagnostics: [...problems, ...loaded.diagnostics] };
}

/** Where the first alias is, or the first alias of anchor `name` when given. */
function firstAliasOffset(doc: Document, name?: string): number {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      if (name !== undefined && node.source !== name) return undefined;
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

/** The key as written at `offset` (up to the colon), for naming it in a message. */
function keyTextAt(text: string, offset: number): string {
  const raw = /^[^:\n]*/.exec(text.slice(offset))?.[0] ?? '';
  return raw.trim().replace(/^(["'])(.*)\1$/, '$2');
}
