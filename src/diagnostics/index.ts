/** Diagnostics: the one problem type every stage reports, the code catalog, and the text formatter. */
export { allCodes, codeCatalog, type CodeInfo, type DiagnosticCode } from './codes.js';
export { hasFailures, makeDiagnostic, sortDiagnostics, type Diagnostic, type Location } from './diagnostic.js';
export type { Finding } from './finding.js';
export { choosePaint, formatDiagnostic, formatReport, formatSummary, type Paint } from './format.js';
