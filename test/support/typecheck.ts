import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { runCommand } from './commands.js';
import { repoRoot } from './paths.js';

/**
 * Type-checks every file `include` matches under `dir` in one strict program, with the settings of a generated
 * project, against the repository's pinned packages; returns tsc's exit code and output.
 */
export function typecheckProjects(dir: string, include: readonly string[]) {
  const compilerOptions = {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include }, null, 2)}\n`);
  return runCommand(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], dir, {
    timeout: 120_000,
  });
}
