/**
 * Consent by annotation (`auth.grants`): which scopes admit a tool by its class. A read-only tool is admitted by
 * `readOnly`, `nonDestructive` and `all` scopes; a tool with `destructiveHint: false` by `nonDestructive` and `all`;
 * any other tool (destructive, as the spec's default says) by `all` only. Pure.
 */
import { compareText } from '../util/compare.js';
import type { AuthModel, GrantModel, ToolModel } from './types.js';

const narrowness: Readonly<Record<GrantModel['admits'], number>> = { readOnly: 0, nonDestructive: 1, all: 2 };

function admits(grant: GrantModel['admits'], tool: ToolModel): boolean {
  if (grant === 'all') return true;
  if (tool.readOnly) return true;
  return grant === 'nonDestructive' && !tool.destructive;
}

/**
 * The scopes that admit `tool`, the narrowest class first (a challenge names the first), or null without grants:
 * then a tool's own `scopes` are all a call needs.
 */
export function grantingScopes(auth: AuthModel, tool: ToolModel): string[] | null {
  if (auth.grants.length === 0) return null;
  return auth.grants
    .filter((grant) => admits(grant.admits, tool))
    .sort((a, b) => narrowness[a.admits] - narrowness[b.admits] || compareText(a.scope, b.scope))
    .map((grant) => grant.scope);
}
