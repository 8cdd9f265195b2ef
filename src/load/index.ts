/**
 * load: everything a run reads from disk. The manifest, parsed as YAML into a
 * LoadedManifest (plain data plus a pointer -> line:col locator) or the
 * diagnostics that stop the run (unreadable file, YAML syntax, duplicate keys,
 * alias bombs); a baseline manifest; the existing project; the package's
 * templates and init assets. This is the only stage that reads the disk and
 * the only one that imports `yaml`.
 */
export type { Position, Target } from './loaded.js';
export {
  displayPath,
  loadManifest,
  loadManifestHash,
  manifestTextOf,
  readManifest,
  maxAliasCount,
  parseManifest,
  type LoadedManifest,
  type LoadResult,
  type ReadResult,
} from './manifest.js';
export { loadBaseline } from './baseline.js';
export { manifestOfData } from './locator.js';
export { piecesOf, type PieceMemo } from './piecewise.js';
export { readEnvFile } from './env-file.js';
export { builtServerEntry } from './built-server.js';
export { loadConsoleAssets, type ConsoleAsset } from './console-assets.js';
export { readHostConfig } from './host-config.js';
export { stampSources, watchManifest, watchSources } from './watch.js';
export {
  customizeManifest,
  initExamples,
  loadInitAssets,
  type InitAssets,
  type InitExample,
  type StarterDependencies,
} from './init-assets.js';
export {
  decideMcpGenInstall,
  findMcpGenOrigin,
  mcpGenTarball,
  type McpGenInstall,
  type McpGenOrigin,
} from './origin.js';
export {
  holdsNoUserReport,
  isFolder,
  fileOnPath,
  listFolder,
  hasProjectFile,
  loadProject,
  loadTemplates,
  type ExistingProject,
} from './project.js';
