import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { generateProject } from '../../src/generate.js';
import { copyExample, showcase } from '../support/examples.js';
import { listTree, repoRoot } from '../support/golden.js';

const examples = readdirSync(path.join(repoRoot, 'examples')).sort();

// The committed output of every example must be exactly what generate produces now: the showcase's, generated
// code included (`--check`); any other's, generated into a copy, where generate may only create src/generated/.
describe('committed examples are up to date', () => {
  for (const name of examples) {
    it(`examples/${name}`, async () => {
      const dir = name === showcase ? path.join('examples', name) : path.join('.test-out', 'examples-current', name);
      if (name !== showcase) copyExample(name, path.join(repoRoot, dir));
      const check = name === showcase;
      const options = resolveOptions({ manifest: path.join(dir, 'mcp.yaml'), check }, repoRoot);
      const result = await generateProject(options, '0.1.0', repoRoot);
      expect(result.diagnostics).toEqual([]);
      const changes = result.report?.changes.map((c) => `${c.kind} ${c.path}`) ?? [];
      expect(changes.filter((c) => !/^create src\/generated\//.test(c))).toEqual([]);
      expect(changes.length > 0).toBe(!check);
      expect(result.ok).toBe(true);
    });
  }
});

// Handlers (and the code they share) see the generated code only through the facade, so the runtime's
// split into files stays private; only src/main.ts starts the server from the runtime itself.
describe('example code imports generated code only through src/generated/index.gen.ts', () => {
  for (const name of examples) {
    it(`examples/${name}`, () => {
      const src = path.join(repoRoot, 'examples', name, 'src');
      const imports = listTree(src)
        .filter((file) => file.endsWith('.ts') && !file.startsWith('generated/') && file !== 'main.ts')
        .flatMap((file) =>
          [...readFileSync(path.join(src, file), 'utf8').matchAll(/from '([^']*generated\/[^']*)'/g)].map((m) => m[1]),
        );
      expect(imports.length).toBeGreaterThan(0);
      // src/setup.ts sits beside the generated folder: `./generated/index.gen.js`.
      const facade = /^(\.\.\/)+generated\/index\.gen\.js$|^\.\/generated\/index\.gen\.js$/;
      expect(imports.filter((specifier) => !facade.test(specifier ?? ''))).toEqual([]);
    });
  }
});
