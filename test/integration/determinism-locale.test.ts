import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { buildProject } from '../support/build-project.js';
import { repoRoot } from '../support/golden.js';

// The rest of "same manifest, same bytes" runs in process (test/unit/determinism.test.ts); the
// locale of a process is fixed when it starts, so this case starts Node once per locale and runs
// the built pipeline (dist/, rebuilt by the tier's global setup when stale) in each.
describe('same manifest, same bytes', () => {
  it('whatever the locale and time zone of the machine', async () => {
    const script = `import { resolveOptions } from './dist/config/index.js';
import { runPipeline } from './dist/pipeline.js';
const options = resolveOptions({ manifest: 'examples/notes/mcp.yaml' }, process.cwd());
const existing = { handlers: new Map(), previouslyGenerated: null };
const project = { options, mcpGenVersion: '0.1.0', existing };
const r = await runPipeline({ manifest: options.manifest, cwd: process.cwd(), project }, 'emit');
process.stdout.write(JSON.stringify(r.files.map((f) => [f.path, f.contents])));`;
    const outputs = ['C', 'tr_TR.UTF-8', 'ja_JP.UTF-8', 'de_DE.UTF-8'].map((locale) => {
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, LANG: locale, LC_ALL: locale, TZ: locale === 'C' ? 'UTC' : 'Asia/Tokyo' },
        timeout: 120_000,
      });
      expect(result.stderr).toBe('');
      return result.stdout;
    });
    expect(new Set(outputs).size).toBe(1);
    const inProcess = await buildProject(
      resolveOptions({ manifest: 'examples/notes/mcp.yaml' }, repoRoot),
      '0.1.0',
      { handlers: new Map(), previouslyGenerated: null },
      repoRoot,
    );
    expect(JSON.parse(outputs[0] ?? '[]')).toEqual(inProcess.files.map((f) => [f.path, f.contents]));
  });
});
