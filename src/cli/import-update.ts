import type { Paint } from '../diagnostics/index.js';
import type { UpdateOutcome } from '../import/update.js';

/**
 * What `import openapi --update` did, for stdout: the counts, then one line per tool that came, went or stayed
 * against the spec; and, for stderr, each conflict as `file:line:col: error [import-conflict] ...` with both values,
 * then their count: printed before the review, so the review's own count ("0 errors") never follows a conflict.
 */
export function updateSummary(file: string, update: UpdateOutcome, paint: Paint): { stdout: string; stderr: string } {
  const t = update.tools;
  const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const lines = [
    `updated ${file}: ${n(t.added.length, 'tool')} added, ${n(t.removed.length, 'tool')} removed, ` +
      `${n(update.updated.length, 'field')} updated from the spec, ${n(update.conflicts.length, 'conflict')}`,
    ...t.added.map((name) => `  added    tool "${name}": an operation new in the spec`),
    ...t.removed.map((name) => `  removed  tool "${name}": its operation is gone from the spec (or the filters)`),
    ...t.keptForHandler.map(
      (name) =>
        `  kept     tool "${name}": its operation is gone from the spec (or the filters), ` +
        'but its handler file exists',
    ),
    ...t.stillRemoved.map((name) => `  left out tool "${name}": you removed it; the spec changed its operation`),
    ...t.renamedBySpec.map((pair) => {
      const [ours, theirs] = pair.split(': ');
      return `  name     tool "${ours}": the spec now names its operation "${theirs}"; the manifest keeps "${ours}"`;
    }),
  ];
  const conflicts = update.conflicts.map(
    (c) =>
      `${paint.bold(`${file}:${c.line}:${c.col}`)}: ${paint.red('error')} [import-conflict] ${c.field}: you and ` +
      `the spec both changed it; your value is kept\n  yours: ${shown(c.ours)}\n  spec:  ${shown(c.theirs)}\n` +
      "  hint: to take the spec's value, write it in by hand; " +
      'the next --update compares against the spec as it is now\n',
  );
  const count =
    conflicts.length === 0
      ? ''
      : `${n(conflicts.length, 'conflict')} to decide: the manifest keeps your ` +
        `${conflicts.length === 1 ? 'value' : 'values'}\n`;
  return { stdout: `${lines.join('\n')}\n`, stderr: `${conflicts.join('')}${count}` };
}

/** A value on one line: JSON, cut at 200 characters; a removed value is named so. */
function shown(value: unknown): string {
  if (value === undefined) return '(removed)';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
