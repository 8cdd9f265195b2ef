/**
 * Findings of the stages after validation turned into located diagnostics: every position comes from the
 * manifest's own `locate` (load/locator.ts); these only choose which findings to locate.
 */
import path from 'node:path';
import {
  codeCatalog,
  makeDiagnostic,
  type Diagnostic,
  type DiagnosticCode,
  type Finding,
} from './diagnostics/index.js';
import type { LineOf } from './emit/report/index.js';
import { displayPath, type LoadedManifest } from './load/index.js';
import { isRecord } from './util/guards.js';
import { parsePointer } from './util/json-pointer.js';

/**
 * Turns findings of the stages after validation into located diagnostics: a
 * manifest pointer becomes the manifest's line:col; a project file (generate
 * only) is shown relative to the working directory. Without `project`,
 * project-file findings are dropped: the command has no project.
 */
export function locateFindings(
  findings: readonly Finding[],
  manifest: LoadedManifest,
  project?: { readonly outDir: string; readonly cwd: string },
): Diagnostic[] {
  return findings.flatMap((f) => {
    if ('pointer' in f.at) {
      const { line, col } = manifest.locate(f.at.pointer, f.at.target);
      return [makeDiagnostic(f.code, { file: manifest.file, pointer: f.at.pointer, line, col }, f.message, f.hint)];
    }
    if (project === undefined) return [];
    const file = displayPath(path.join(project.outDir, ...f.at.projectFile.split('/')), project.cwd);
    return [makeDiagnostic(f.code, { file, pointer: '', line: f.at.line, col: f.at.col }, f.message, f.hint)];
  });
}

/** `manifest.yaml:12` for the gate's line column of the report; `label` names the manifest. */
export function lineLabel(manifest: LoadedManifest, label: string): LineOf {
  return (f) => ('pointer' in f.at ? `${label}:${manifest.locate(f.at.pointer, f.at.target).line}` : '—');
}

/** A finding that was counted, not located: all a report that does not print it needs. */
export interface CountedFinding {
  readonly code: DiagnosticCode;
  readonly severity: Diagnostic['severity'];
}

/** What `locateFirstFindings` hands a report: diagnostics to sort and print, and the findings it only counts. */
export interface FirstFindings {
  readonly located: readonly Diagnostic[];
  readonly counted: readonly CountedFinding[];
}

/**
 * `locateFindings` for a report that prints every error but only the first `shown` warnings and notes of the
 * manifest, in file order, and counts the others (import's review of its draft: a large API's has thousands of
 * findings, of which a hundred are printed; locating them all would cost much of the import). Findings are
 * located entry by entry (`/tools/x`, or a top-level key with nothing under it), in the order of the parsed data,
 * which is the order of the text: the `yaml` library keeps it, and entries are disjoint ranges of lines. Once the
 * entries located hold `shown` warnings and notes, every finding left is in a later entry, hence later in the
 * file than all of them, and is only counted. JavaScript lists integer-like keys first, whatever the text says,
 * so a manifest with such a key at those two levels is located whole.
 */
export function locateFirstFindings(
  findings: readonly Finding[],
  manifest: LoadedManifest,
  shown: number,
): FirstFindings {
  const inManifest = findings.filter((f) => 'pointer' in f.at);
  const order = entryOrder(manifest.data);
  if (order === null) return { located: locateFindings(inManifest, manifest), counted: [] };
  const entries = new Map<string, { key: readonly [number, number]; findings: Finding[] }>();
  const located: Diagnostic[] = [];
  for (const finding of inManifest) {
    if (codeCatalog[finding.code].severity === 'error') {
      located.push(...locateFindings([finding], manifest));
      continue;
    }
    const key = order((finding.at as { pointer: string }).pointer);
    const id = `${key[0]}/${key[1]}`;
    const entry = entries.get(id) ?? { key, findings: [] };
    entry.findings.push(finding);
    entries.set(id, entry);
  }
  const sorted = [...entries.values()].sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1]);
  // Distinct as `sortDiagnostics` tells them apart: a duplicate is printed once, so it must not count twice.
  const distinct = new Set<string>();
  const counted: CountedFinding[] = [];
  const countedOnce = new Set<string>();
  for (const entry of sorted) {
    if (distinct.size >= shown) {
      for (const f of entry.findings) {
        const at = f.at as { pointer: string; target?: string };
        const id = `${at.pointer}\n${at.target ?? 'value'}\n${f.code}\n${f.message}`;
        if (countedOnce.has(id)) continue;
        countedOnce.add(id);
        counted.push({ code: f.code, severity: codeCatalog[f.code].severity });
      }
      continue;
    }
    for (const d of locateFindings(entry.findings, manifest)) {
      located.push(d);
      distinct.add(`${d.line}:${d.col}\n${d.code}\n${d.message}`);
    }
  }
  return { located, counted };
}

/**
 * The place of a pointer's entry in the text: the index of its top-level key and of its second segment (-1 where
 * the data has none: that locates at the parent, which comes first); null when the data's key order may not be
 * the text's.
 */
function entryOrder(data: unknown): ((pointer: string) => readonly [number, number]) | null {
  if (!isRecord(data)) return null;
  const integerLike = (key: string) => /^(0|[1-9]\d*)$/.test(key);
  const top = Object.keys(data);
  if (top.some(integerLike)) return null;
  for (const key of top) {
    const value = data[key];
    if (isRecord(value) && Object.keys(value).some(integerLike)) return null;
  }
  const topIndex = new Map(top.map((key, i) => [key, i]));
  const inner = new Map<string, Map<string, number>>();
  return (pointer) => {
    const [section, entry] = parsePointer(pointer);
    const first = section === undefined ? -1 : (topIndex.get(section) ?? -1);
    if (first < 0 || entry === undefined) return [first, -1];
    const value = data[section as string];
    if (Array.isArray(value)) return [first, /^\d+$/.test(entry) && Number(entry) < value.length ? Number(entry) : -1];
    if (!isRecord(value)) return [first, -1];
    let index = inner.get(section as string);
    if (index === undefined) {
      index = new Map(Object.keys(value).map((key, i) => [key, i]));
      inner.set(section as string, index);
    }
    return [first, index.get(entry) ?? -1];
  };
}
