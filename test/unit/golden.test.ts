// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the special-characters fixture holds a literal ${...}
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { buildProject } from '../support/build-project.js';
import { expectGolden, goldenBanner, listTree, repoRoot, templateCopy, updateGolden } from '../support/golden.js';

const validDir = path.join(repoRoot, 'test', 'fixtures', 'valid');
const cases = readdirSync(validDir).sort();

const fresh = { handlers: new Map<string, string>(), previouslyGenerated: null };

describe('golden output trees (test/fixtures/valid)', () => {
  for (const name of cases) {
    it(name, async () => {
      const expectedDir = path.join(validDir, name, 'expected');
      const options = resolveOptions(
        {
          manifest: path.join('test', 'fixtures', 'valid', name, 'manifest.yaml'),
          out: path.join('test', 'fixtures', 'valid', name, 'expected'),
        },
        repoRoot,
      );
      const result = await buildProject(options, '0.0.0-golden', fresh, repoRoot);
      expect(result.diagnostics).toEqual([]);
      if (updateGolden) rmSync(expectedDir, { recursive: true, force: true });
      // Computed output is committed; a template copy is only listed, with the template it must equal.
      const computed = result.files.filter((f) => f.copiedFrom === undefined);
      const copies = result.files.filter((f) => f.copiedFrom !== undefined);
      // The file list first, so a missing or extra file fails as clearly as wrong content.
      if (!updateGolden) expect(computed.map((f) => f.path).sort()).toEqual(listTree(expectedDir));
      for (const file of computed) expectGolden(path.join(expectedDir, ...file.path.split('/')), file.contents);
      const listed = copies.map((f) => `${f.path} ${f.copiedFrom}\n`).sort();
      expectGolden(path.join(validDir, name, 'copies.txt'), listed.join(''));
      const banner = goldenBanner(name);
      for (const file of copies) expect(file.contents).toBe(templateCopy(banner, file.copiedFrom ?? ''));
    });
  }

  it('the special-characters case keeps every user string exactly in the registry', () => {
    const json = JSON.parse(
      readFileSync(
        path.join(validDir, 'special-characters', 'expected', 'src', 'generated', 'registry.gen.json'),
        'utf8',
      ),
    );
    expect(json.server.title).toBe('Tricky */ `server` ${name}');
    expect(json.server.description).toBe(
      'Quotes " and \' and backslash \\ and a */ comment end.\n# Owned\n' +
        '<img src=x onerror=alert(1)> and <script>alert(2)</script>\n- a list item\n> a quote\n' +
        '| a | table |\n|---|---|\n[a link](https://example.com/) and R&D &amp; `code` and **bold** and snake_case',
    );
    expect(json.server.instructions).toBe(
      'Line one with `backticks` and ${template} syntax.\nLine two: */ /* "quoted" \'single\' ' +
        '\\back\\slash\nÜnïcödé — 日本語 — emoji 🚀 — line separator [\u2028] — tab\tend\n',
    );
    expect(json.tools[1].listing.description).toBe(
      'Returns the text unchanged. */ Not a comment end.\n' +
        'Watch out for `${injection}` and "quotes" and \\backslashes\\ and </script>.',
    );
    expect(json.tools[1].inputSchema.properties.mode.enum).toEqual(['plain', '*/', '${x}', 'quote"d', '日本']);
    expect(json.prompts[0].messages[0].text).toBe(
      'Say hello to {{name}}. Keep */ and ${this} and `this` and "this" and \\this exactly. 🚀',
    );
  });
});
