import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

/** The runtime and contract-test templates, copied into every generated project. */
const runtimeTemplates = ['runtime', 'tests'].flatMap((dir) =>
  readdirSync(path.join(repoRoot, 'templates', dir))
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => ({
      rel: `templates/${dir}/${name}`,
      text: readFileSync(path.join(repoRoot, 'templates', dir, name), 'utf8'),
    })),
);

/** Each `import(...)` in `file` whose specifier is not one plain string: a computed module name. */
function computedImports(file: { rel: string; text: string }): string[] {
  const source = ts.createSourceFile(file.rel, file.text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const walk = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier === undefined || !ts.isStringLiteral(specifier))
        out.push(`${file.rel}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return out;
}

// The seam between generator and runtime: the runtime loads what server.gen.ts names, and the
// generator builds the registry the runtime declares.
describe('generator and runtime contract', () => {
  it('the runtime and contract-test templates import no module by a computed specifier', () => {
    expect(runtimeTemplates.length).toBeGreaterThan(15);
    expect(runtimeTemplates.flatMap(computedImports)).toEqual([]);
  });

  it('the computed-specifier check finds template and variable specifiers, not string ones', () => {
    const sample = {
      rel: 'sample.ts',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: sample source text with a template literal
      text: "const a = import('./a.gen.js');\nconst b = import(`./${name}.gen.js`);\nconst c = import(spec);\n",
    };
    expect(computedImports(sample)).toEqual(['sample.ts:2', 'sample.ts:3']);
  });

  it('the scaffolded entry point imports only the facade, no runtime file', () => {
    const entries = [
      ...readdirSync(path.join(repoRoot, 'examples')).map((name) => path.join('examples', name, 'src', 'main.ts')),
      ...readdirSync(path.join(repoRoot, 'test', 'fixtures', 'valid')).map((name) =>
        path.join('test', 'fixtures', 'valid', name, 'expected', 'src', 'main.ts'),
      ),
    ].sort();
    const imports = entries.map((file) => {
      const text = readFileSync(path.join(repoRoot, file), 'utf8');
      const specifiers = [...text.matchAll(/\bfrom '([^']+)'/g)].map((m) => m[1]);
      return `${file.split(path.sep).join('/')}: ${specifiers.join(', ')}`;
    });
    expect(imports).toEqual(entries.map((file) => `${file.split(path.sep).join('/')}: ./generated/index.gen.js`));
  });

  it("the registry emitter returns the runtime's RegistrySpec, imported from the runtime template", () => {
    const rel = 'emit/registry/data.ts';
    const file = { rel, text: readFileSync(path.join(repoRoot, 'src', rel), 'utf8') };
    const source = ts.createSourceFile(file.rel, file.text, ts.ScriptTarget.Latest, true);
    const origins = source.statements
      .filter(ts.isImportDeclaration)
      .filter((d) => d.importClause?.namedBindings?.getText().includes('RegistrySpec') === true)
      .map((d) =>
        path.posix.normalize(path.posix.join('src/emit/registry', (d.moduleSpecifier as ts.StringLiteral).text)),
      );
    const declared = source.statements
      .filter(ts.isFunctionDeclaration)
      .filter((f) => f.name?.text === 'registryData')
      .map((f) => f.type?.getText());
    expect({ origins, declared }).toEqual({ origins: ['templates/runtime/spec.gen.js'], declared: ['RegistrySpec'] });
  });
});
