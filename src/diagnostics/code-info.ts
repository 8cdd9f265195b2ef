/** One entry of the catalog. */
export interface CodeInfo {
  /** `info` notes never fail a run, not even with --strict. */
  readonly severity: 'error' | 'warning' | 'info';
  readonly title: string;
  readonly cause: string;
  readonly fix: string;
}
