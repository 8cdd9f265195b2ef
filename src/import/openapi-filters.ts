/**
 * `--include` and `--exclude` of `import openapi`: which operations of a spec become tools. A filter is
 * `tag:NAME` (an operation tag, exactly), `path:GLOB` (the path template; `*` within one segment, `**` across
 * segments), `op:GLOB` (the operationId; `*` any run of characters) or `method:VERB` (an HTTP method, any case).
 * An operation is imported when it matches some include filter (or none is given) and no exclude filter.
 */
import { collecting, ImportError, type ImportProblem, throwAll } from './import-error.js';

export type FilterKind = 'tag' | 'path' | 'op' | 'method';

/** One filter as given (`text`) and parsed. */
export interface OperationFilter {
  readonly text: string;
  readonly kind: FilterKind;
  readonly pattern: string;
  readonly test: (op: FilterTarget) => boolean;
}

/** What a filter reads of an operation. */
export interface FilterTarget {
  readonly method: string;
  readonly route: string;
  readonly operationId: string | undefined;
  readonly tags: readonly string[];
}

/** The filters of one import: both lists as given, in order. */
export interface OperationFilters {
  readonly include: readonly OperationFilter[];
  readonly exclude: readonly OperationFilter[];
}

const kinds: readonly FilterKind[] = ['tag', 'path', 'op', 'method'];
const httpMethods = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace']);

/** Parses both lists; malformed filters are one `ImportError`, each with its hint. */
export function parseFilters(include: readonly string[], exclude: readonly string[]): OperationFilters {
  const problems: ImportProblem[] = [];
  const parse = (flag: string) => (text: string) => collecting(problems, () => parseFilter(text, flag)) ?? [];
  const filters = { include: include.flatMap(parse('--include')), exclude: exclude.flatMap(parse('--exclude')) };
  throwAll(problems);
  return filters;
}

function parseFilter(text: string, flag: string): OperationFilter {
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const pattern = text.slice(colon + 1);
  const fail = (message: string, hint: string): never => {
    throw new ImportError({ code: 'import-filter', message: `${flag} ${JSON.stringify(text)}: ${message}`, hint });
  };
  const usage = 'write KIND:PATTERN with KIND one of tag, path, op, method, e.g. "tag:issues" or "path:/repos/**"';
  if (colon <= 0) fail('a filter names its kind before a colon', usage);
  if (!(kinds as readonly string[]).includes(kind)) fail(`unknown kind ${JSON.stringify(kind)}`, usage);
  if (pattern === '') fail('the pattern after the colon is empty', usage);
  if (kind === 'method') {
    const verb = pattern.toLowerCase();
    if (!httpMethods.has(verb))
      fail(`${JSON.stringify(pattern)} is not an HTTP method`, `use one of ${[...httpMethods].join(', ')}`);
    return { text, kind, pattern, test: (op) => op.method === verb };
  }
  if (kind === 'tag') return { text, kind, pattern, test: (op) => op.tags.includes(pattern) };
  if (kind === 'path') {
    if (!pattern.startsWith('/')) fail('a path glob starts with "/"', 'write it as the spec does: "path:/repos/**"');
    const regex = globRegex(pattern, true);
    return { text, kind, pattern, test: (op) => regex.test(op.route) };
  }
  const regex = globRegex(pattern, false);
  return { text, kind: 'op', pattern, test: (op) => op.operationId !== undefined && regex.test(op.operationId) };
}

/**
 * A glob as a regular expression over the whole text: `?` one character, `*` any run (within one `/` segment
 * when `segments`), `**` any run across segments; every other character stands for itself.
 */
export function globRegex(glob: string, segments: boolean): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob.charAt(i);
    if (c === '*' && glob.charAt(i + 1) === '*') {
      source += '.*';
      i += 1;
    } else if (c === '*') source += segments ? '[^/]*' : '.*';
    else if (c === '?') source += segments ? '[^/]' : '.';
    else source += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/** Whether the filters let `op` in: some include matches (or there is none), and no exclude does. */
export function admits(filters: OperationFilters, op: FilterTarget): boolean {
  if (filters.include.length > 0 && !filters.include.some((f) => f.test(op))) return false;
  return !filters.exclude.some((f) => f.test(op));
}

/** A warning for each filter that matches no operation of the spec at all, naming it. */
export function unmatchedFilters(filters: OperationFilters, ops: readonly FilterTarget[]): string[] {
  const unmatched = (list: readonly OperationFilter[], flag: string) =>
    list
      .filter((f) => !ops.some((op) => f.test(op)))
      .map((f) => `${flag} ${JSON.stringify(f.text)} matches no operation of the spec`);
  return [...unmatched(filters.include, '--include'), ...unmatched(filters.exclude, '--exclude')];
}
