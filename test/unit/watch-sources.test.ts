import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchSources } from '../../src/load/index.js';
import { repoRoot } from '../support/paths.js';

// `mcp-gen dev` next to a manifest whose project was never generated (a hand-written manifest, an import) failed
// with an internal error, `scandir '.../src'`, and then hung with its console open. And a handler folder that a
// manifest save created (src/handlers/prompts/ for a first prompt) was never watched, so saves of that handler
// did not build. The watcher now takes a `src/` that is not there yet and folders that appear later.

const work = path.join(repoRoot, '.test-out', 'watch-sources');
let close: (() => void) | undefined;
afterEach(() => close?.());

async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return done();
}

describe('watchSources', () => {
  it('starts on a src/ that does not exist yet and watches it once refresh finds it', async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const src = path.join(work, 'src');
    let calls = 0;
    const watcher = watchSources(src, path.join(src, 'generated'), () => calls++, 10);
    close = watcher.close;
    mkdirSync(path.join(src, 'handlers', 'tools'), { recursive: true });
    watcher.refresh();
    writeFileSync(path.join(src, 'handlers', 'tools', 'add.ts'), 'export {};\n');
    expect(await until(() => calls > 0)).toBe(true);
  });

  it('watches a folder created under a watched one, without a refresh', async () => {
    rmSync(work, { recursive: true, force: true });
    const src = path.join(work, 'src');
    mkdirSync(path.join(src, 'handlers', 'tools'), { recursive: true });
    let calls = 0;
    const watcher = watchSources(src, path.join(src, 'generated'), () => calls++, 10);
    close = watcher.close;
    mkdirSync(path.join(src, 'handlers', 'prompts'));
    // The new folder is watched from its parent's event, and its arrival asks for one build.
    expect(await until(() => calls === 1)).toBe(true);
    writeFileSync(path.join(src, 'handlers', 'prompts', 'greet.ts'), 'export {};\n');
    expect(await until(() => calls === 2)).toBe(true);
  });

  it('ignores saves under the skipped folder', async () => {
    rmSync(work, { recursive: true, force: true });
    const src = path.join(work, 'src');
    mkdirSync(path.join(src, 'generated'), { recursive: true });
    let calls = 0;
    const watcher = watchSources(src, path.join(src, 'generated'), () => calls++, 10);
    close = watcher.close;
    writeFileSync(path.join(src, 'generated', 'index.gen.ts'), 'export {};\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toBe(0);
  });
});
