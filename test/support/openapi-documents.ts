import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

/** The project that pins the published OpenAPI documents the e2e tests import (kept out of the root project). */
export const openApiDocuments = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi-documents');

/** Installs that project's lockfile-pinned packages once (`npm ci --ignore-scripts`); returns its node_modules. */
export function installOpenApiDocuments(): string {
  const modules = path.join(openApiDocuments, 'node_modules');
  if (!existsSync(path.join(modules, '.package-lock.json'))) {
    const npm = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: openApiDocuments,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (npm.status !== 0) throw new Error(`npm ci in ${openApiDocuments} failed:\n${npm.stdout}${npm.stderr}`);
  }
  return modules;
}
