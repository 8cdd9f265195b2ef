import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { designPath, handlerPath, isGeneratedLocation, markerPath, moduleSpecifier } from '../../src/model/layout.js';
import { repoRoot } from '../support/golden.js';

describe('the layout module', () => {
  it('places DESIGN.md beside the manifest, or at the root when the manifest lives outside the project', () => {
    expect(designPath('mcp.yaml')).toBe('DESIGN.md');
    expect(designPath('api/mcp.yaml')).toBe('api/DESIGN.md');
    expect(designPath('../mcp.yaml')).toBe('DESIGN.md');
  });

  it('computes import specifiers between project files', () => {
    expect(moduleSpecifier('src/generated/server.gen.ts', handlerPath('tool', 'search'))).toBe(
      '../handlers/tools/search.js',
    );
    expect(moduleSpecifier('src/main.ts', 'src/generated/server.gen.ts')).toBe('./generated/server.gen.js');
    expect([
      handlerPath('tool', 'search_notes'),
      handlerPath('tool', 'get-sum'),
      handlerPath('tool', 'printEnv'),
      handlerPath('prompt', 'simple-prompt'),
    ]).toEqual([
      'src/handlers/tools/search_notes.ts',
      'src/handlers/tools/get-sum.ts',
      'src/handlers/tools/print-env.ts',
      'src/handlers/prompts/simple-prompt.ts',
    ]);
  });

  it('counts every file a golden marker lists as a generated location, and nothing the user owns', () => {
    const goldens = path.join(repoRoot, 'test', 'fixtures', 'valid');
    for (const name of readdirSync(goldens)) {
      const marker = JSON.parse(
        readFileSync(path.join(goldens, name, 'expected', ...markerPath.split('/')), 'utf8'),
      ) as { files: string[] };
      expect(marker.files.filter((f) => !isGeneratedLocation(f))).toEqual([]);
    }
    expect(
      [
        'src/main.ts',
        'src/handlers/tools/a.ts',
        'test/my.test.ts',
        'test/sub/x.gen.ts',
        'DESIGN.md',
        'src/generatedx/a.gen.ts',
      ].filter(isGeneratedLocation),
    ).toEqual([]);
  });
});
