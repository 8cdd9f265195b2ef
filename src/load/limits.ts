/**
 * The manifest limits (src/model/limits.ts), checked where they are cheap: the size while the file is read,
 * so that a larger one is never held whole nor parsed, and the tool count and nesting on the parsed data,
 * before validation walks it.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { makeDiagnostic, type Diagnostic } from '../diagnostics/index.js';
import { manifestLimits, schemaLevel } from '../model/limits.js';
import { isRecord } from '../util/guards.js';
import { formatPointer } from '../util/json-pointer.js';
import type { Position } from './loaded.js';

export const limitsHint = 'docs/manifest.md#limits lists every limit';
const chunkBytes = 1024 * 1024;

/**
 * The file's bytes, never more than `limit + 1` of them, and its size when the system knows it (a pipe has
 * none). Throws what `open` and `read` throw (a missing file, a folder).
 */
export function readAtMost(file: string, limit: number): { bytes: Buffer; size: number; known: boolean } {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd);
    const known = stat.isFile();
    // A file is read into one buffer of its size and a byte more (to see it grow): a fresh buffer costs about as
    // much as reading into it, so a large manifest is not read in chunks and copied once more into one.
    const chunks: Buffer[] = [];
    let total = 0;
    let size = known ? Math.min(stat.size, limit) + 1 : chunkBytes;
    while (total <= limit) {
      const chunk = Buffer.allocUnsafe(Math.min(size, limit + 1 - total));
      let filled = 0;
      for (let read = -1; read !== 0 && filled < chunk.length; filled += read)
        read = readSync(fd, chunk, filled, chunk.length - filled, null);
      chunks.push(chunk.subarray(0, filled));
      total += filled;
      if (filled < chunk.length) break;
      size = chunkBytes;
    }
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
    return { bytes, size: Math.max(total, known ? stat.size : 0), known };
  } finally {
    closeSync(fd);
  }
}

function mebibytes(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB (${bytes} bytes)`;
}

/**
 * `manifest-too-large` for a file of `size` bytes (at least `size` when `isFileSize` is false: a pipe) whose
 * first bytes are `head`, or null when it is within the limit. It points at the line where the limit is
 * crossed: what comes after it is what does not fit.
 */
export function checkSize(file: string, head: Buffer, size: number, isFileSize = true): Diagnostic | null {
  const limit = manifestLimits.bytes;
  if (size <= limit) return null;
  const before = head.subarray(0, limit);
  let line = 1;
  let lineStart = 0;
  for (let at = before.indexOf(10); at >= 0; at = before.indexOf(10, at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  const col = before.subarray(lineStart).toString('utf8').length + 1;
  return makeDiagnostic(
    'manifest-too-large',
    { file, pointer: '', line, col },
    // A pipe or device has no size: what was read shows only that it is over the limit.
    `manifest "${file}" is ${isFileSize ? `${size} bytes, ` : ''}more than the limit of ${mebibytes(limit)}; ` +
      'it was not parsed and the limit is crossed here',
    `split the server into smaller ones, or write repeated schemas once under $defs and $ref them; ${limitsHint}`,
  );
}

/** `manifest-too-many-tools` and `manifest-too-deep` for parsed data, located through `locate`. */
export function checkShape(
  data: unknown,
  file: string,
  locate: (pointer: string, target?: 'key' | 'value') => Position,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const tools = isRecord(data) && isRecord(data.tools) ? Object.keys(data.tools) : [];
  if (tools.length > manifestLimits.tools) {
    const pointer = formatPointer(['tools', tools[manifestLimits.tools] ?? '']);
    out.push(
      makeDiagnostic(
        'manifest-too-many-tools',
        { file, pointer, ...locate(pointer, 'key') },
        `the manifest declares ${tools.length} tools, more than the limit of ${manifestLimits.tools}; ` +
          `this is tool ${manifestLimits.tools + 1}`,
        `split the server into smaller ones, each with the tools one kind of task needs; ${limitsHint}`,
      ),
    );
  }
  const deep = firstTooDeep(data);
  if (deep !== null) {
    const pointer = formatPointer(deep.path);
    const [top, tool, part] = deep.path;
    const what = `this ${deep.kind} is level`;
    const where =
      top === 'tools' && (part === 'input' || part === 'output')
        ? `the ${part} schema of tool "${tool}" nests deeper than the limit of ` +
          `${manifestLimits.depth - schemaLevel} levels of mappings and lists; ${what} ` +
          `${deep.path.length + 1 - schemaLevel} of the schema`
        : `the manifest nests deeper than the limit of ${manifestLimits.depth} levels of mappings and lists; ` +
          `${what} ${deep.path.length + 1}`;
    out.push(
      makeDiagnostic(
        'manifest-too-deep',
        { file, pointer, ...locate(pointer, 'key') },
        where,
        `flatten the structure, or write a nested schema once under $defs and $ref it; ${limitsHint}`,
      ),
    );
  }
  return out;
}

/** A mapping or list on the way down, linked to its parent: the path is built only for the one reported. */
interface Frame {
  readonly value: object;
  readonly key: string;
  readonly parent: Frame | null;
  readonly level: number;
}

/**
 * The path of the first mapping or list (in file order) at a level past the limit, or null; the file's own
 * mapping is level 1. Iterative: a recursive walk is what a deep file would overflow.
 */
function firstTooDeep(data: unknown): { path: string[]; kind: 'mapping' | 'list' } | null {
  if (data === null || typeof data !== 'object') return null;
  const stack: Frame[] = [{ value: data, key: '', parent: null, level: 0 }];
  const push = (child: unknown, key: string, parent: Frame) => {
    if (child !== null && typeof child === 'object') stack.push({ value: child, key, parent, level: parent.level + 1 });
  };
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value } = frame;
    if (frame.level >= manifestLimits.depth)
      return { path: pathOf(frame), kind: Array.isArray(value) ? 'list' : 'mapping' };
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i -= 1) push(value[i], String(i), frame);
    else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i -= 1)
        push((value as Record<string, unknown>)[keys[i] as string], keys[i] as string, frame);
    }
  }
  return null;
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let at = frame; at.parent !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}
