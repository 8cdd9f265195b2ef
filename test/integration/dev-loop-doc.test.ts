import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// docs/dev-loop.md showed `install claude-code --env DEMO_REGION=eu` writing "demo-server", a server that reads no
// such variable: a user who ran it was refused. The doc's install example now runs as written, in the project it
// names, and prints what the doc shows.

const doc = readFileSync(path.join(repoRoot, 'docs', 'dev-loop.md'), 'utf8');
const work = path.join(repoRoot, '.test-out', 'dev-loop-doc');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');

describe('docs/dev-loop.md', () => {
  it('its install example prints what the doc shows', () => {
    const shown = /^\$ npx mcp-gen install (.+)\n(.+)\n```/m.exec(doc);
    expect(shown).not.toBeNull();
    const [, command = '', output = ''] = shown ?? [];
    // The doc's project is /home/me/<example>: that example, built (dist/server.mjs exists).
    const example = /into \/home\/me\/([a-z]+)\//.exec(output)?.[1] ?? '';
    const project = path.join(work, example);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(path.join(project, 'dist'), { recursive: true });
    copyFileSync(path.join(repoRoot, 'examples', example, 'mcp.yaml'), path.join(project, 'mcp.yaml'));
    writeFileSync(path.join(project, 'dist', 'server.mjs'), '');
    const result = spawnSync(process.execPath, [cli, 'install', ...command.split(' ')], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: path.join(work, 'home') },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.replaceAll(project, `/home/me/${example}`)).toBe(`${output}\n`);
  });
});
