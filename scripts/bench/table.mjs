// Turns the rows the benchmark groups return (raw samples in round order) into the Markdown table
// of docs/benchmarks.md, and writes it between the file's markers so the prose around it stays.
import { readFileSync, writeFileSync } from 'node:fs';
import { medianInterval, paired, summarize } from './stats.mjs';

/** The markers in docs/benchmarks.md between which the results block is written. */
export const START = '<!-- bench:results:start -->';
export const END = '<!-- bench:results:end -->';

/** The fewest pairs for which the sign-test interval of a median reaches 95% confidence. */
const MIN_PAIRS = 6;

/** A number for a table cell: thousands separated from 100 up, one decimal from 10, else two. */
export function formatNumber(n) {
  if (!Number.isFinite(n)) return 'n/a';
  const sign = n < 0 ? '−' : '';
  const a = Math.abs(n);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  return sign + a.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const range = (low, high) => `${formatNumber(low)}–${formatNumber(high)}`;
const signed = (n) => (n > 0 ? `+${formatNumber(n)}` : formatNumber(n));

function cell(samples, unit) {
  const s = summarize(samples);
  return `${formatNumber(s.median)} ${unit} (${range(s.q1, s.q3)})`;
}

function targetText(target, unit) {
  if (target === undefined) return '—';
  if (target.ratioMax !== undefined) return `≤ ${target.ratioMax.toFixed(2)}×`;
  if (target.ratioMin !== undefined) return `≥ ${target.ratioMin.toFixed(2)}×`;
  return `≤ ${target.max} ${unit}`;
}

/**
 * met / MISSED for a row's target, judged on the paired ratio (or, for an absolute target, on our
 * median); "CI spans the target" when the 95% interval reaches the other side, so a reader sees
 * when this run cannot tell.
 */
function verdict(target, value, [low, high], limit) {
  if (target === undefined) return '—';
  const below = target.ratioMin === undefined;
  const met = below ? value <= limit : value >= limit;
  const spans = low <= limit && limit <= high;
  return `${met ? 'met' : '**MISSED**'}${spans ? ' (CI spans the target)' : ''}`;
}

/** One Markdown table row for a benchmark row `{ figure, unit, ours, baseline?, target? }`. */
export function formatRow(row) {
  const ours = cell(row.ours, row.unit);
  if (row.baseline === undefined) {
    const s = summarize(row.ours);
    const result = verdict(row.target, s.median, medianInterval(row.ours), row.target?.max);
    return `| ${row.figure} | ${ours} | — | — | — | — | ${targetText(row.target, row.unit)} | ${result} |`;
  }
  const p = paired(row.ours, row.baseline.samples);
  // Below six pairs the sign-test interval is the whole range, which covers less than 95%.
  const mark = p.n < MIN_PAIRS ? '†' : '';
  const ratio = `${p.ratio.toFixed(2)}× [${p.ratioInterval[0].toFixed(2)}–${p.ratioInterval[1].toFixed(2)}]${mark}`;
  const diff = `${signed(p.diff)} ${row.unit} [${signed(p.diffInterval[0])} to ${signed(p.diffInterval[1])}]${mark}`;
  const result =
    row.target?.max !== undefined
      ? verdict(row.target, summarize(row.ours).median, medianInterval(row.ours), row.target.max)
      : verdict(row.target, p.ratio, p.ratioInterval, row.target?.ratioMax ?? row.target?.ratioMin);
  return (
    `| ${row.figure} | ${ours} | ${row.baseline.label} | ${cell(row.baseline.samples, row.unit)} ` +
    `| ${ratio} | ${diff} | ${targetText(row.target, row.unit)} | ${result} |`
  );
}

/** The whole table: a header, one line per row, and a note when some row had too few pairs for a 95% interval. */
export function formatTable(rows) {
  const few = rows.some((row) => row.baseline !== undefined && row.ours.length < MIN_PAIRS);
  const note = `† Fewer than ${MIN_PAIRS} pairs: the bracket is the range of the pairs, not a 95% interval.`;
  return [
    '| figure | mcp-gen: median (IQR) | compared with | its median (IQR) | ' +
      'ratio, paired [95% CI] | difference, paired [95% CI] | target | result |',
    '|---|---:|---|---:|---:|---:|---|---|',
    ...rows.map(formatRow),
    ...(few ? ['', note] : []),
  ].join('\n');
}

/** Replaces the text between the results markers of `file` with `block`; throws if the markers are missing. */
export function writeBetweenMarkers(file, block) {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`${file} has no "${START}" ... "${END}" markers to write the results between`);
  writeFileSync(file, `${text.slice(0, start + START.length)}\n${block}\n${text.slice(end)}`);
}
