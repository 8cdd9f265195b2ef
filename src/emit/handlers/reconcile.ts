/**
 * Safe edits and checks of user-owned handler files with ts-morph. Only two
 * things are ever changed, and only on a rename: the exported constant's name
 * and the name in its handler type. Every other byte the user wrote (bodies,
 * comments, imports, helpers, formatting) is kept exactly.
 */
import { Node, type SourceFile } from 'ts-morph';
import type { Finding } from '../../diagnostics/index.js';
import type { HandlerPlan } from '../../plan/index.js';
import type { GeneratedFile } from '../shared/files.js';
import { createProject } from '../shared/project.js';

/** The outcome for one existing handler file. */
export interface ReconcileResult {
  readonly file: GeneratedFile | null;
  readonly findings: readonly Finding[];
}

/**
 * A handler file in a project of its own. Checks and renames stay inside the
 * file, so the project loads neither the standard library nor the file's
 * imports: loading them cost most of a rename.
 */
function handlerSource(text: string): SourceFile {
  const project = createProject();
  project.compilerOptions.set({ noLib: true, noResolve: true });
  return project.createSourceFile('handler.ts', text);
}

/** Syntax errors of the file, from the compiler's public program API. */
function parseErrors(file: SourceFile): { line: number; col: number; message: string }[] {
  return file
    .getProject()
    .getProgram()
    .getSyntacticDiagnostics(file)
    .map((d) => {
      const { line, column } = file.getLineAndColumnAtPos(d.getStart() ?? 0);
      const text = d.getMessageText();
      return { line, col: column, message: typeof text === 'string' ? text : 'syntax error' };
    });
}

function unparsable(path: string, error: { line: number; col: number; message: string }, renaming: boolean): Finding {
  return {
    code: 'handler-unparsable',
    message:
      `handler file "${path}" does not parse (${error.message.replace(/\.$/, '')}); ` +
      `it was left untouched${renaming ? ' and not renamed' : ''}`,
    hint: 'fix the syntax error, then run generate again',
    at: { projectFile: path, line: error.line, col: error.col },
  };
}

/** The exported `const <name>` declaration, if any. */
function findExport(file: SourceFile, name: string) {
  const declaration = file.getVariableDeclaration(name);
  if (declaration !== undefined && declaration.getVariableStatement()?.isExported() === true) return declaration;
  return undefined;
}

/** What the file exports as `name`, also through `export { impl as name }`: a const or a function declaration. */
function findExported(file: SourceFile, name: string) {
  const direct = findExport(file, name);
  if (direct !== undefined) return { declaration: direct, isFunction: false };
  const exported = file.getExportedDeclarations().get(name) ?? [];
  const variable = exported.find((d) => Node.isVariableDeclaration(d));
  if (variable !== undefined && Node.isVariableDeclaration(variable))
    return { declaration: variable, isFunction: false };
  return { declaration: undefined, isFunction: exported.some((d) => Node.isFunctionDeclaration(d)) };
}

/** The string literal naming the manifest entry in `ToolHandler<'name'>`, if the type has that shape. */
function typeArgument(declaration: Node, handlerType: string) {
  const typeNode = Node.isVariableDeclaration(declaration) ? declaration.getTypeNode() : undefined;
  if (typeNode === undefined || !Node.isTypeReference(typeNode) || typeNode.getTypeName().getText() !== handlerType)
    return undefined;
  const [argument] = typeNode.getTypeArguments();
  if (argument === undefined || !Node.isLiteralTypeNode(argument)) return undefined;
  const literal = argument.getLiteral();
  return Node.isStringLiteral(literal) ? literal : undefined;
}

/** Checks a kept handler file; never changes it. */
export function checkHandler(plan: HandlerPlan, text: string): ReconcileResult {
  const file = handlerSource(text);
  const [error] = parseErrors(file);
  if (error !== undefined) return { file: null, findings: [unparsable(plan.path, error, false)] };
  const expected = `${plan.handlerType}<'${plan.name}'>`;
  const { declaration, isFunction } = findExported(file, plan.handler);
  const exportedFunction = isFunction || file.getFunction(plan.handler)?.isExported() === true;
  if (declaration === undefined && !exportedFunction) {
    return {
      file: null,
      findings: [
        {
          code: 'handler-export-mismatch',
          message: `handler file "${plan.path}" does not export "${plan.handler}"`,
          hint: `export const ${plan.handler}: ${expected} = async ...`,
          at: { projectFile: plan.path, line: 1, col: 1 },
        },
      ],
    };
  }
  if (
    declaration !== undefined &&
    declaration.getTypeNode() !== undefined &&
    typeArgument(declaration, plan.handlerType)?.getLiteralValue() !== plan.name
  ) {
    const { line, column } = file.getLineAndColumnAtPos(declaration.getStart());
    return {
      file: null,
      findings: [
        {
          code: 'handler-export-mismatch',
          message:
            `"${plan.handler}" in "${plan.path}" is declared as ` +
            `${declaration.getTypeNode()?.getText()}, expected ${expected}`,
          hint: `declare it as ${expected}`,
          at: { projectFile: plan.path, line, col: column },
        },
      ],
    };
  }
  return { file: null, findings: [] };
}

/** Renames a handler file's constant and type argument for `renamedFrom`; everything else is kept. */
export function renameHandler(plan: HandlerPlan, text: string): ReconcileResult {
  const from = plan.from;
  if (from === undefined) return { file: null, findings: [] };
  const file = handlerSource(text);
  const [error] = parseErrors(file);
  if (error !== undefined) return { file: null, findings: [unparsable(from.path, error, true)] };
  const declaration = findExport(file, from.handler);
  if (declaration !== undefined) {
    typeArgument(declaration, plan.handlerType)?.setLiteralValue(plan.name);
    const nameNode = declaration.getNameNode();
    if (Node.isIdentifier(nameNode)) nameNode.rename(plan.handler);
  }
  const findings: Finding[] =
    declaration === undefined
      ? [
          {
            code: 'handler-export-mismatch',
            message:
              `handler file "${from.path}" does not export ` +
              `"${from.handler}"; it was moved to "${plan.path}" unchanged`,
            hint: `export const ${plan.handler}: ${plan.handlerType}<'${plan.name}'> = async ...`,
            at: { projectFile: plan.path, line: 1, col: 1 },
          },
        ]
      : [];
  // The compiler drops a byte-order mark from the text it parses; the user's file keeps its own.
  const edited = file.getFullText();
  const contents = text.startsWith('\uFEFF') && !edited.startsWith('\uFEFF') ? `\uFEFF${edited}` : edited;
  return {
    file: { path: plan.path, contents, ownership: 'user-edit', movedFrom: from.path },
    findings,
  };
}
