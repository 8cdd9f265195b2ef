/** mcp-gen's public API. Named exports only: every export here is a promise to users. */
export { runPipeline, stages, type PipelineInput, type PipelineResult, type Stage } from './pipeline.js';
export {
  allCodes,
  codeCatalog,
  formatReport,
  type CodeInfo,
  type Diagnostic,
  type DiagnosticCode,
} from './diagnostics/index.js';
export type { Manifest } from './model/manifest.gen.js';
export type * from './model/types.js';
