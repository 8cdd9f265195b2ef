import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// The README's 60-second tour, run as written: its manifest snippet, the output it shows for
// `npm run generate`, its handler and its call.mjs. A README that drifts from what mcp-gen prints fails here.

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The fenced block of `language` that follows the first occurrence of `after` in the README. */
function blockAfter(after: string, language: string): string {
  const start = readme.indexOf(after);
  expect(start, `README has no "${after}"`).toBeGreaterThanOrEqual(0);
  const open = readme.indexOf(`\`\`\`${language}\n`, start);
  const close = readme.indexOf('\n```\n', open);
  return readme.slice(open + language.length + 4, close + 1);
}

/** What a README block of terminal output shows after its first line, `$ command`. */
function outputOf(command: string): string {
  const open = readme.indexOf(`\`\`\`\n${command}`);
  expect(open, `README shows no output of "${command}"`).toBeGreaterThanOrEqual(0);
  const body = readme.slice(readme.indexOf('\n', open + 4) + 1);
  return body.slice(0, body.indexOf('```\n'));
}

const run = (command: string, args: string[], cwd: string) =>
  spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000, env: { PATH: process.env.PATH ?? '' } });

describe('the README tour', () => {
  it('prints what the README shows, and the tool it adds answers as the README says', () => {
    const work = path.join(repoRoot, '.test-out', 'readme-tour');
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
    const init = run(process.execPath, [cli, 'init', 'my-server', '--yes'], work);
    expect(init.status, init.stderr).toBe(0);
    const project = path.join(work, 'my-server');
    // The blank manifest ends with its tools, so the snippet goes at the end as the README shows it indented.
    appendFileSync(path.join(project, 'mcp.yaml'), blockAfter('Describe a second tool in `mcp.yaml`:', 'yaml'));
    const shown = outputOf('$ npm run generate');
    const generate = run(process.execPath, [cli, 'generate'], project);
    expect(generate.stderr).toBe('');
    expect(generate.stdout).toBe(shown);

    const handler = blockAfter('Fill in the stub;', 'ts');
    writeFileSync(path.join(project, 'src', 'handlers', 'tools', 'shout.ts'), handler);
    const tsc = run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    const bundle = run(process.execPath, ['src/generated/bundle.gen.mjs'], project);
    expect(bundle.status, bundle.stderr).toBe(0);
    writeFileSync(path.join(project, 'call.mjs'), blockAfter('save this as `call.mjs`', 'js'));
    const call = run(process.execPath, ['call.mjs'], project);
    expect(call.stderr).toBe('');
    expect(call.stdout).toBe("{ text: 'HELLO' }\n");
  });
});
