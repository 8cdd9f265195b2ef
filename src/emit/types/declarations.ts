import type { Finding } from '../../diagnostics/index.js';
import { splitDeclarations } from './declaration-text.js';

/** One top-level type declaration: its name, its full text, and which manifest item it came from. */
export interface Declaration {
  readonly name: string;
  readonly text: string;
  readonly owner: string;
}

/**
 * Splits compiled type texts into declarations, keeps one copy of identical
 * declarations (two tools sharing a `$defs` entry), and reports names that
 * two different types would share. A collision is a finding, never a silent
 * rename.
 */
export function collectDeclarations(
  compiled: readonly { owner: string; pointer: string; text: string }[],
  reserved: readonly Declaration[],
): { declarations: Declaration[]; diagnostics: Finding[] } {
  const byName = new Map<string, Declaration>(reserved.map((d) => [d.name, d]));
  const declarations: Declaration[] = [];
  const diagnostics: Finding[] = [];
  for (const unit of compiled) {
    for (const { name, text } of splitDeclarations(unit.text)) {
      const existing = byName.get(name);
      if (existing === undefined) {
        const declaration = { name, text, owner: unit.owner };
        byName.set(name, declaration);
        declarations.push(declaration);
      } else if (existing.text !== text) {
        diagnostics.push({
          code: 'type-name-collision',
          message: `${unit.owner} and ${existing.owner} both define a type named "${name}", differently`,
          hint: `rename one of the $defs entries or titles that produce "${name}", or make both definitions identical`,
          at: { pointer: unit.pointer, target: 'key' },
        });
      }
    }
  }
  return { declarations, diagnostics };
}
