/**
 * OpenAPI Overlay 1.0 (https://spec.openapis.org/overlay/v1.0.0.html) applied to a spec before the import reads
 * it. Each action's `target` is an RFC 9535 JSONPath (json-p3, which passes the JSONPath compliance suite);
 * `update` is merged into every node it selects (an object key by key, recursively, where any other value
 * replaces; an array gets the value appended, an array's items each), `remove: true` deletes every node it
 * selects. Actions run in order, each on the result of the one before. A target that selects nothing is a
 * warning; a malformed overlay is an `ImportError` at its line and column.
 */
import { jsonpath, JSONPathError } from 'json-p3';
import { isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { isRecord } from '../util/guards.js';
import { lowerFirst } from '../util/lower-first.js';
import { ImportError, type ImportProblem, throwAll } from './import-error.js';

type Json = Record<string, unknown>;

/** Applies the overlay `text` (the file `file`) to `spec` in place; returns its warnings. */
export function applyOverlay(spec: Json, file: string, text: string): string[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const problemAt = (at: readonly (string | number)[], message: string, hint: string): ImportProblem => {
    const node = nodeAt(doc.contents as Node | null, at);
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    return { code: 'import-overlay', file, line: pos.line, col: pos.col, message, hint };
  };
  type Fail = (at: readonly (string | number)[], message: string, hint: string) => never;
  const fail: Fail = (at, message, hint) => {
    throw new ImportError(problemAt(at, message, hint));
  };
  const [syntax] = doc.errors;
  if (syntax !== undefined) {
    const pos = lines.linePos(syntax.pos[0]);
    const message = `not valid YAML or JSON: ${lowerFirst(syntax.message.replace(/ at line \d+, column \d+:?$/, ''))}`;
    throw new ImportError({ ...problemAt([], message, 'fix the syntax at this line'), line: pos.line, col: pos.col });
  }
  const overlay = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const shape = 'an Overlay has "overlay: 1.0.0", "info: { title, version }" and a list of "actions"';
  if (!isRecord(overlay)) return fail([], 'not an Overlay document (not a mapping)', shape);
  if (typeof overlay.overlay !== 'string' || !/^1\.0\.\d+$/.test(overlay.overlay))
    fail(['overlay'], `"overlay" is ${JSON.stringify(overlay.overlay)}, not a 1.0.x version`, shape);
  if (!Array.isArray(overlay.actions) || overlay.actions.length === 0)
    fail(['actions'], '"actions" is not a non-empty list', shape);
  // Every action's shape first, before anything changes: all of its mistakes are reported in one run.
  const actions = overlay.actions as unknown[];
  throwAll(actions.flatMap((action, i) => actionProblems(action, i)));
  const warnings: string[] = [];
  for (const [i, action] of actions.entries()) applyAction(action as Json, i);
  return warnings;

  function actionProblems(action: unknown, i: number): ImportProblem[] {
    const at = ['actions', i];
    if (!isRecord(action)) return [problemAt(at, `action ${i + 1} is not a mapping`, 'each action has a target')];
    const problems: ImportProblem[] = [];
    if (typeof action.target !== 'string')
      problems.push(
        problemAt(at, `action ${i + 1} has no "target"`, 'write a JSONPath such as "$.paths[\'/pets\'].get"'),
      );
    else
      try {
        jsonpath.compile(action.target);
      } catch (error) {
        if (!(error instanceof JSONPathError)) throw error;
        const hint = 'write an RFC 9535 JSONPath, e.g. "$.paths.*.get"';
        problems.push(problemAt([...at, 'target'], `action ${i + 1}: ${error.message}`, hint));
      }
    if (!('update' in action) && action.remove !== true)
      problems.push(
        problemAt(
          at,
          `action ${i + 1} has neither "update" nor "remove: true"`,
          'give the value to merge, or remove: true',
        ),
      );
    return problems;
  }

  function applyAction(action: Json, i: number): void {
    const at = ['actions', i];
    const target = action.target as string;
    const nodes = jsonpath
      .query(target, spec as Parameters<typeof jsonpath.query>[1])
      .nodes.map((n) => ({ value: n.value, location: [...n.location] }));
    if (nodes.length === 0) {
      warnings.push(`${file}: action ${i + 1}'s target ${JSON.stringify(target)} selects nothing`);
      return;
    }
    if (action.remove === true) {
      if (nodes.some((n) => n.location.length === 0))
        fail([...at, 'target'], `action ${i + 1} removes the whole document`, 'target a part of it');
      // Later array items first, so an earlier index still names the same item.
      for (const node of [...nodes].reverse()) removeAt(spec, node.location);
      return;
    }
    for (const node of nodes) {
      if (isRecord(node.value) && isRecord(action.update)) mergeInto(node.value, action.update);
      else if (Array.isArray(node.value))
        node.value.push(...(Array.isArray(action.update) ? action.update : [action.update]));
      else
        fail(
          [...at, 'update'],
          `action ${i + 1} updates ${JSON.stringify(target)}, which selects neither an object nor a list`,
          'target the object that holds the value, and update it with { key: value }',
        );
    }
  }
}

/** `update` merged into `target`: objects key by key, recursively; every other value replaces. */
function mergeInto(target: Json, update: Json): void {
  for (const [key, value] of Object.entries(update)) {
    const current = target[key];
    if (isRecord(current) && isRecord(value)) mergeInto(current, value);
    else
      Object.defineProperty(target, key, {
        value: structuredClone(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
}

function removeAt(root: Json, location: readonly (string | number)[]): void {
  let parent: unknown = root;
  for (const key of location.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
  const last = location[location.length - 1] as string | number;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (isRecord(parent)) delete parent[last];
}

/** The YAML node at `at`, or its nearest existing parent, for a line and column. */
function nodeAt(root: Node | null, at: readonly (string | number)[]): Node | null {
  let node = root;
  for (const key of at) {
    const next = isMap(node)
      ? (node.get(key, true) as Node | undefined)
      : isSeq(node)
        ? (node.get(key, true) as Node | undefined)
        : undefined;
    if (next === undefined) return node;
    node = next;
  }
  return node;
}
