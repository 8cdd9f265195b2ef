import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-e2e-'));
afterAll(() => rmSync(root, { recursive: true, force: true }), 60_000);

function run(command: string, args: string[], cwd: string, timeout = 300_000) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

// The newcomer path, as a user takes it, in a clean temporary folder: init, npm install (the
// package registry is the only network), typecheck, and the generated contract tests.
describe('init -> npm install -> typecheck -> test', () => {
  for (const example of ['blank', 'demo', 'notes', 'calendar', 'files']) {
    it(example, () => {
      const dir = path.join(root, example);
      const init = run(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'init', dir, '--example', example, '--yes'], root);
      expect(init.code, init.output).toBe(0);
      // mcp-gen itself comes from this checkout, not from the registry.
      const pkgFile = path.join(dir, 'package.json');
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { devDependencies: Record<string, string> };
      pkg.devDependencies['mcp-gen'] = `file:${repoRoot}`;
      writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
      const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
      expect(install.code, install.output).toBe(0);
      const typecheck = run('npm', ['run', 'typecheck'], dir);
      expect(typecheck.code, typecheck.output).toBe(0);
      const test = run('npm', ['test'], dir);
      expect(test.code, test.output.slice(-4000)).toBe(0);
      expect(test.output).toMatch(/# fail 0/);
      // The project regenerates itself with its own script, and nothing changes.
      const regenerate = run('npm', ['run', 'generate', '--', '--check'], dir);
      expect(regenerate.code, regenerate.output).toBe(0);
    }, 600_000);
  }
});
