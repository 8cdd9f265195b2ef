// Types of table.mjs, for the unit test that checks its exact output.
export interface BenchRow {
  figure: string;
  unit: string;
  ours: number[];
  baseline?: { label: string; samples: number[] };
  target?: { ratioMax?: number; ratioMin?: number; max?: number };
}
export const START: string;
export const END: string;
export function formatNumber(n: number): string;
export function formatRow(row: BenchRow): string;
export function formatTable(rows: BenchRow[]): string;
export function writeBetweenMarkers(file: string, block: string): void;
