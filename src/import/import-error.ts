/** What the user gave an import that it cannot use: a filter, an overlay, or a manifest to update. */
export interface ImportProblem {
  /** `import-filter`, `import-overlay`, `import-update`. */
  readonly code: string;
  readonly message: string;
  readonly hint: string;
  /** The file at fault, with 1-based line and column; absent for a command-line value. */
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
}

/** An import stopped before writing anything; `format` prints each problem as every user error is printed. */
export class ImportError extends Error {
  /** Every problem found, in the order the user wrote them; at least one. */
  readonly problems: readonly ImportProblem[];

  constructor(problem: ImportProblem | readonly [ImportProblem, ...ImportProblem[]]) {
    const problems = Array.isArray(problem) ? (problem as readonly ImportProblem[]) : [problem as ImportProblem];
    super(problems[0]?.message ?? '');
    this.problems = problems;
  }

  /** The first problem. */
  get problem(): ImportProblem {
    return this.problems[0] as ImportProblem;
  }

  /** `file:line:col: error [code] message` (or `mcp-gen: error [code] message`), then `  hint: ...`, per problem. */
  format(): string {
    return this.problems
      .map((p) => {
        const where = p.file === undefined ? 'mcp-gen' : `${p.file}:${p.line ?? 1}:${p.col ?? 1}`;
        return `${where}: error [${p.code}] ${p.message}\n  hint: ${p.hint}\n`;
      })
      .join('');
  }
}

/** What `run` gives, or null with the problems of the ImportError it threw added to `problems`. */
export function collecting<T>(problems: ImportProblem[], run: () => T): T | null {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    problems.push(...error.problems);
    return null;
  }
}

/** Throws `problems` as one ImportError, when there is one. */
export function throwAll(problems: readonly ImportProblem[]): void {
  const [first, ...rest] = problems;
  if (first !== undefined) throw new ImportError([first, ...rest]);
}
