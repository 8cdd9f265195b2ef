/**
 * Joins the runtime modules every server loads at start into one module.
 * Each ES module costs a stdio server about a millisecond to resolve, read and
 * link before it can answer, and a host starts a stdio server for every
 * session; four modules in one start measurably faster. The sources stay
 * separate, small, type-checked files under templates/runtime/; only the
 * generated project sees the joined file.
 *
 * The join depends only on the templates, so it is done once, by `npm run
 * docs`, into templates/joined/start.gen.ts (a test keeps that file in step);
 * generate copies it like any other runtime file instead of parsing four
 * modules on every run.
 *
 * The join is mechanical: imports between the joined modules are dropped,
 * every other import is merged by module specifier, and the bodies follow one
 * another unchanged. Any top-level name declared twice, or imported under one
 * name from two places, is an internal error rather than a silent shadow.
 */
import { Node, type ImportDeclaration, type SourceFile } from 'ts-morph';
import { compareText } from '../../util/compare.js';
import { createProject } from '../shared/project.js';

/** One named import: what is imported, under which local name, and whether only as a type. */
interface Binding {
  readonly name: string;
  readonly alias: string | undefined;
  typeOnly: boolean;
}

function localName(binding: Binding): string {
  return binding.alias ?? binding.name;
}

/** `./start.gen.js` for the template `runtime/start.gen.ts`. */
function specifierOf(template: string): string {
  return `./${template.replace(/^runtime\//, '').replace(/\.ts$/, '.js')}`;
}

function collectImport(declaration: ImportDeclaration, template: string, imports: Map<string, Map<string, Binding>>): void {
  if (declaration.getDefaultImport() !== undefined || declaration.getNamespaceImport() !== undefined) {
    throw new Error(`${template}: runtime modules use named imports only`);
  }
  const specifier = declaration.getModuleSpecifierValue();
  const bindings = imports.get(specifier) ?? new Map<string, Binding>();
  imports.set(specifier, bindings);
  for (const named of declaration.getNamedImports()) {
    const binding: Binding = { name: named.getName(), alias: named.getAliasNode()?.getText(), typeOnly: declaration.isTypeOnly() || named.isTypeOnly() };
    const known = bindings.get(localName(binding));
    if (known !== undefined && known.name !== binding.name) throw new Error(`${template}: "${localName(binding)}" names two imports of ${specifier}`);
    // A name is a type-only import only if every joined module imports it as a type.
    if (known !== undefined) known.typeOnly &&= binding.typeOnly;
    else bindings.set(localName(binding), binding);
  }
}

function importText(specifier: string, bindings: ReadonlyMap<string, Binding>): string {
  const sorted = [...bindings.values()].sort((a, b) => compareText(a.name, b.name) || compareText(localName(a), localName(b)));
  const allTypes = sorted.every((b) => b.typeOnly);
  const names = sorted.map((b) => `${!allTypes && b.typeOnly ? 'type ' : ''}${b.name}${b.alias === undefined ? '' : ` as ${b.alias}`}`);
  return `import ${allTypes ? 'type ' : ''}{ ${names.join(', ')} } from '${specifier}';`;
}

/** Node built-ins first, then packages, then the project's own modules, each group by name. */
function compareSpecifiers(a: string, b: string): number {
  const rank = (specifier: string): number => (specifier.startsWith('node:') ? 0 : specifier.startsWith('.') ? 2 : 1);
  return rank(a) - rank(b) || compareText(a, b);
}

/** Names a module declares at top level (functions, classes, interfaces, types, variables, enums). */
function declaredNames(file: SourceFile): string[] {
  const names: string[] = [];
  for (const statement of file.getStatements()) {
    if (Node.isVariableStatement(statement)) names.push(...statement.getDeclarations().map((d) => d.getName()));
    else if (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement) || Node.isInterfaceDeclaration(statement) || Node.isTypeAliasDeclaration(statement) || Node.isEnumDeclaration(statement)) {
      const name = statement.getName();
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

/**
 * The text of one module made of `parts` (template name → source text), in
 * the given order, under `header` (a doc comment). Imports of one part by
 * another are dropped; the rest are merged and sorted by specifier.
 */
export function mergeModules(header: string, parts: readonly (readonly [template: string, text: string])[]): string {
  const joined = new Set(parts.map(([template]) => specifierOf(template)));
  const imports = new Map<string, Map<string, Binding>>();
  const declared = new Map<string, string>();
  const bodies: string[] = [];
  const project = createProject();
  for (const [template, text] of parts) {
    const file = project.createSourceFile(template, text);
    for (const name of declaredNames(file)) {
      const other = declared.get(name);
      if (other !== undefined) throw new Error(`${template}: "${name}" is also declared in ${other}`);
      declared.set(name, template);
    }
    const declarations = file.getImportDeclarations();
    for (const declaration of declarations) {
      if (!joined.has(declaration.getModuleSpecifierValue())) collectImport(declaration, template, imports);
    }
    // The part's own doc comment stays, as a section header; its imports are gone.
    const first = declarations[0];
    const last = declarations.at(-1);
    const intro = first === undefined ? '' : text.slice(0, first.getStart()).trim();
    const rest = last === undefined ? text : text.slice(last.getEnd());
    bodies.push(`// ---- ${template.replace(/^runtime\//, '')} ----\n\n${intro}${intro === '' ? '' : '\n\n'}${rest.trim()}`);
  }
  const importedFrom = new Map<string, string>();
  for (const [specifier, bindings] of imports) {
    for (const name of bindings.keys()) {
      const other = declared.get(name) ?? importedFrom.get(name);
      if (other !== undefined) throw new Error(`"${name}" is imported from ${specifier} and also comes from ${other}`);
      importedFrom.set(name, specifier);
    }
  }
  const importLines = [...imports.entries()].sort(([a], [b]) => compareSpecifiers(a, b)).map(([specifier, bindings]) => importText(specifier, bindings));
  return `${header.trim()}\n${importLines.join('\n')}\n\n${bodies.join('\n\n')}\n`;
}

/**
 * The modules every server loads before its first answer, in the order they
 * are joined. The first names the result: the user's `src/main.ts` imports
 * `./generated/runtime/start.gen.js`.
 */
export const startModules: readonly string[] = ['runtime/start.gen.ts', 'runtime/register.gen.ts', 'runtime/invoke.gen.ts', 'runtime/stdio.gen.ts'];

/** Where the joined module is kept among the templates. */
export const joinedStartTemplate = 'joined/start.gen.ts';

const startHeader = `/**
 * What every server loads to start and answer: the process entry, building the
 * McpServer from the registry, handler calls, and stdio. Joined by mcp-gen from
 * templates/runtime/{start,register,invoke,stdio}.gen.ts into one module,
 * because each module a stdio server loads delays its first answer.
 */`;

/** The text of templates/joined/start.gen.ts; `read` returns a template's text by its name. */
export function joinStartModules(read: (template: string) => string): string {
  return mergeModules(startHeader, startModules.map((template) => [template, read(template)]));
}
