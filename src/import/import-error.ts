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

/** An import stopped before writing anything; `format` prints it as every user error is printed. */
export class ImportError extends Error {
  readonly problem: ImportProblem;

  constructor(problem: ImportProblem) {
    super(problem.message);
    this.problem = problem;
  }

  /** `file:line:col: error [code] message` (or `mcp-gen: error [code] message`), then `  hint: ...`. */
  format(): string {
    const p = this.problem;
    const where = p.file === undefined ? 'mcp-gen' : `${p.file}:${p.line ?? 1}:${p.col ?? 1}`;
    return `${where}: error [${p.code}] ${p.message}\n  hint: ${p.hint}\n`;
  }
}
