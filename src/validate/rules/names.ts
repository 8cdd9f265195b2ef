import { derivedNames } from '../../model/naming.js';
import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

const kinds = [
  ['tools', 'tool'],
  ['resources', 'resource'],
  ['prompts', 'prompt'],
  ['handles', 'handle kind'],
] as const;

/**
 * Names of one kind that become the same generated identifier, type name or handler file
 * (`get_item2` and `get_item_2`; `get-sum`, `get_sum` and `getSum`). Each name is reported once.
 */
export function checkNameCollisions(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  for (const [section, kind] of kinds) {
    const seen = new Map<string, string>();
    for (const [name] of entriesOf(ctx.data[section])) {
      const derived = derivedNames(name);
      const clash = derived.find(([what, value]) => seen.has(`${what}:${value}`));
      if (clash === undefined) {
        for (const [what, value] of derived) seen.set(`${what}:${value}`, name);
        continue;
      }
      const [what, value] = clash;
      ctx.report(
        'name-collision',
        [section, name],
        `${kind} "${name}" and ${kind} "${seen.get(`${what}:${value}`) ?? ''}" both become the ${what} "${value}"`,
        'rename one of them',
        'key',
      );
    }
  }
}

/**
 * `__proto__` matches the name pattern, but generated code and the runtime keep names as object keys,
 * where JavaScript takes it as the prototype: the entry would silently vanish.
 */
export function checkPrototypeNames(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  const at: (readonly string[])[] = [];
  for (const [section] of kinds) {
    for (const [name, entry] of entriesOf(ctx.data[section])) {
      at.push([section, name]);
      if (section === 'prompts' && isRecord(entry))
        for (const [arg] of entriesOf(entry.arguments)) at.push([section, name, 'arguments', arg]);
    }
  }
  for (const path of at.filter((p) => p[p.length - 1] === '__proto__')) {
    ctx.report(
      'name-format',
      path,
      'name "__proto__" cannot be used: JavaScript objects take it as their prototype, so the entry would be lost',
      'rename it',
      'key',
    );
  }
}

/** `renamedFrom` must name an old tool that no longer exists, once. */
export function checkRenames(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  const tools = entriesOf(ctx.data.tools);
  const names = new Set(tools.map(([name]) => name));
  const claimed = new Map<string, string>();
  for (const [name, tool] of tools) {
    const from = isRecord(tool) ? stringOr(tool.renamedFrom) : undefined;
    if (from === undefined) continue;
    const path = ['tools', name, 'renamedFrom'];
    if (from === name) {
      ctx.report('renamed-from-conflict', path, `tool "${name}" is renamed from itself`, 'remove "renamedFrom"');
    } else if (names.has(from)) {
      ctx.report(
        'renamed-from-conflict',
        path,
        `tool "${name}" is renamed from "${from}", but tool "${from}" still exists`,
        `remove tool "${from}" or the "renamedFrom" key`,
      );
    } else if (claimed.has(from)) {
      ctx.report(
        'renamed-from-conflict',
        path,
        `tools "${claimed.get(from)}" and "${name}" are both renamed from "${from}"`,
        'only one tool can take over the old handler',
      );
    } else {
      claimed.set(from, name);
    }
  }
}
