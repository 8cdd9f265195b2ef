import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { openBrowser } from '../support/approval-browser.js';
import { repoRoot } from '../support/paths.js';
import { stopChild } from '../support/processes.js';
import { compareScreenshot } from '../support/screenshot.js';

// The README's 60-second tour, run as written: `mcp-gen dev` and what it prints at start and after the manifest
// snippet is saved, the handler, the console's screenshot (docs/images/console.png, kept current by this test), the
// `call` it shows, and its call.mjs. A README that drifts from what mcp-gen prints or shows fails here.

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const work = path.join(repoRoot, '.test-out', 'readme-tour');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const env = { PATH: process.env.PATH ?? '' };

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
  spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000, env });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function until(done: () => boolean, what: string, read: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}; output so far:\n${read()}`);
}

let dev: ChildProcess | undefined;
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  // Ctrl-C, as a user stops dev: it stops the server it started (SIGKILL would leave that one running).
  if (dev !== undefined) await stopChild(dev, 15_000, 'SIGINT');
}, 30_000);

describe('the README tour', () => {
  it('prints and shows what the README does, and the tool it adds answers as the README says', async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const init = run(process.execPath, [cli, 'init', 'my-server', '--transport', 'both', '--yes'], work);
    expect(init.status, init.stderr).toBe(0);
    const project = path.join(work, 'my-server');

    // The README's ports are dev's defaults; the test takes free ones and shows them as the defaults, and
    // every clock time as 12:00:00.
    const [port, consolePort] = [await freePort(), await freePort()];
    let printed = '';
    let errors = '';
    dev = spawn(process.execPath, [cli, 'dev', '--port', String(port), '--console-port', String(consolePort)], {
      cwd: project,
      env,
    });
    dev.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    dev.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    const shown = () =>
      printed
        .replaceAll(`127.0.0.1:${port}/`, '127.0.0.1:3000/')
        .replaceAll(`127.0.0.1:${consolePort}/`, '127.0.0.1:3100/')
        .replace(/^\d\d:\d\d:\d\d /gm, '12:00:00 ');
    const builds = () => printed.split('built; server restarted').length - 1;
    await until(() => printed.includes('watching '), 'dev to start', shown);
    expect(shown()).toBe(outputOf('$ npx mcp-gen dev'));

    // The blank manifest ends with its tools, so the snippet goes at the end as the README shows it indented.
    const start = printed.length;
    appendFileSync(path.join(project, 'mcp.yaml'), blockAfter('Describe a second tool in `mcp.yaml`:', 'yaml'));
    await until(() => builds() > 1, 'the build after the manifest save', shown);
    expect(shown().slice(shown().length - (printed.length - start))).toBe(blockAfter('On save, `dev` regenerates', ''));

    const handler = blockAfter('Fill in the stub;', 'ts');
    writeFileSync(path.join(project, 'src', 'handlers', 'tools', 'shout.ts'), handler);
    await until(() => builds() > 2, 'the build after the handler save', shown);
    expect(errors).toBe('');

    const callLine = readme.match(/^\$ npx mcp-gen call (.+)$/m)?.[1] ?? '';
    const callArgs = callLine.split(' ').map((word) => word.replace('127.0.0.1:3000', `127.0.0.1:${port}`));
    const call = run(process.execPath, [cli, 'call', ...callArgs], project);
    expect(call.stderr).toBe('');
    expect(call.stdout).toBe(outputOf(`$ npx mcp-gen call ${callLine}`));

    browser = await openBrowser();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`http://127.0.0.1:${consolePort}/`);
    const form = page.locator('form.tool[data-tool="shout"]');
    await form.locator('[name="message"]').fill('hello');
    await form.getByRole('button', { name: 'Call' }).click();
    await page.locator('section.result[data-tool="shout"] pre.structured').waitFor();
    // What changes from run to run (the port, the call's time and duration, the build count) is shown as in the
    // README, so that the picture changes only when the console does.
    await page.evaluate((shownPort) => {
      const url = document.getElementById('server-url');
      if (url !== null) url.textContent = (url.textContent ?? '').replace(`:${shownPort}/`, ':3000/');
      const status = document.getElementById('status');
      if (status !== null) status.textContent = (status.textContent ?? '').replace(/version \d+/, 'version 3');
      for (const node of document.querySelectorAll('p.elapsed')) node.textContent = '12 ms';
      for (const node of document.querySelectorAll('time')) node.textContent = '12:00:00 PM';
    }, port);
    await page.mouse.move(0, 0);
    const picture = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
    const verdict = await compareScreenshot(browser, picture, path.join(repoRoot, 'docs', 'images', 'console.png'));
    expect(verdict, 'run with UPDATE_GOLDEN=1 to accept the new screenshot').toBe('same');

    // npm run build, as the README says before call.mjs: dev builds into dist/dev/ only.
    const tsc = run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    const bundle = run(process.execPath, ['src/generated/bundle.gen.mjs'], project);
    expect(bundle.status, bundle.stderr).toBe(0);
    writeFileSync(path.join(project, 'call.mjs'), blockAfter('save this as `call.mjs`', 'js'));
    const official = run(process.execPath, ['call.mjs'], project);
    expect(official.stderr).toBe('');
    expect(official.stdout).toBe("{ text: 'HELLO' }\n");
  }, 300_000);
});
