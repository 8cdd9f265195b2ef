import { IndentationText, NewLineKind, Project, QuoteKind } from 'ts-morph';

/**
 * A ts-morph project for editing existing user files (handlers/reconcile.ts):
 * in memory (never saved; write/ owns the disk), with indentation, quotes and
 * newlines fixed here. Generated files are built as text (ts-text.ts) and
 * never load the compiler.
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
