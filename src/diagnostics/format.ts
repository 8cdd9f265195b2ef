import type { Diagnostic } from './diagnostic.js';

/** Terminal styling; every function is the identity when colour is off. */
export interface Paint {
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly bold: (s: string) => string;
}

const plain: Paint = { red: (s) => s, yellow: (s) => s, dim: (s) => s, bold: (s) => s };

const ansi: Paint = {
  red: (s) => `\u001b[31m${s}\u001b[39m`,
  yellow: (s) => `\u001b[33m${s}\u001b[39m`,
  dim: (s) => `\u001b[2m${s}\u001b[22m`,
  bold: (s) => `\u001b[1m${s}\u001b[22m`,
};

/** Colour only on a TTY and never when NO_COLOR is set (https://no-color.org). */
export function choosePaint(isTty: boolean, env: NodeJS.ProcessEnv): Paint {
  return isTty && (env.NO_COLOR === undefined || env.NO_COLOR === '') ? ansi : plain;
}

/**
 * One block per diagnostic in the clickable `file:line:col` form:
 * `mcp.yaml:14:11: error [code] message`, then `  at /pointer` and `  hint: ...`.
 */
export function formatDiagnostic(d: Diagnostic, paint: Paint = plain): string {
  const severity =
    d.severity === 'error'
      ? paint.red('error')
      : d.severity === 'warning'
        ? paint.yellow('warning')
        : paint.dim('note');
  const lines = [`${paint.bold(`${d.file}:${d.line}:${d.col}`)}: ${severity} [${d.code}] ${d.message}`];
  if (d.pointer !== '') lines.push(paint.dim(`  at ${d.pointer}`));
  if (d.hint !== undefined) lines.push(`  hint: ${d.hint}`);
  return lines.join('\n');
}

/** The closing summary line, e.g. `2 errors, 1 warning`. */
export function formatSummary(diagnostics: readonly Pick<Diagnostic, 'severity'>[]): string {
  const count = (severity: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const notes = count('info');
  return (
    `${plural(count('error'), 'error')}, ` +
    `${plural(count('warning'), 'warning')}${notes > 0 ? `, ${plural(notes, 'note')}` : ''}`
  );
}

/** All diagnostics followed by the summary line; the exact text golden files pin. */
export function formatReport(diagnostics: readonly Diagnostic[], paint: Paint = plain): string {
  const blocks = diagnostics.map((d) => formatDiagnostic(d, paint));
  return `${[...blocks, formatSummary(diagnostics)].join('\n')}\n`;
}
