import path from 'node:path';
import { installLocked } from './locked-install.js';
import { repoRoot } from './paths.js';

/** The project that pins the published OpenAPI documents the e2e tests import (kept out of the root project). */
export const openApiDocuments = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi-documents');

/** Installs that project's lockfile-pinned packages once (`npm ci --ignore-scripts`); returns its node_modules. */
export function installOpenApiDocuments(): string {
  installLocked(openApiDocuments, ['--ignore-scripts']);
  return path.join(openApiDocuments, 'node_modules');
}
