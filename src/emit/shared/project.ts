import { IndentationText, NewLineKind, Node, Project, QuoteKind, type SourceFile } from 'ts-morph';

/**
 * The one way emitters get a ts-morph project: in memory (never saved; write/
 * owns the disk), with indentation, quotes and newlines fixed here so every
 * generated file is formatted the same way.
 */
export function createProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { strict: true, target: 9 /* ES2022 */ },
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Single,
      useTrailingCommas: true,
    },
  });
}

/**
 * The one formatting pass of a generated TypeScript file: the TypeScript
 * formatter with fixed settings, then one blank line between top-level
 * statements (none between imports, none after a standalone comment).
 */
export function formatSourceFile(file: SourceFile): string {
  file.formatText({ indentSize: 2, tabSize: 2, convertTabsToSpaces: true, semicolons: 'insert' as never, ensureNewLineAtEndOfFile: true });
  const statements = file.getStatementsWithComments();
  let text = '';
  statements.forEach((statement, i) => {
    const previous = statements[i - 1];
    if (previous !== undefined) {
      const tight = (Node.isImportDeclaration(previous) && Node.isImportDeclaration(statement)) || Node.isCommentStatement(previous);
      text += tight ? '\n' : '\n\n';
    }
    // A standalone comment is also the leading trivia of the statement after it: print it once.
    const own = previous !== undefined && Node.isCommentStatement(previous) ? statement.getText(true) : statement.getFullText();
    text += own.replace(/^\s*\n/, '').trimEnd();
  });
  return `${text}\n`;
}

/** Exactly one trailing newline, LF only. */
export function finalText(text: string): string {
  return `${text.replace(/\r\n/g, '\n').replace(/\s+$/, '')}\n`;
}
