/**
 * Consent by annotation (`auth.grants`): which scopes admit a tool by its class. A read-only tool is admitted by
 * `readOnly`, `nonDestructive` and `all` scopes; a tool with `destructiveHint: false` by `nonDestructive` and `all`;
 * any other tool (destructive, as the spec's default says) by `all` only. Pure.
 */
import { compareText } from '../util/compare.js';
import type { AuthModel, GrantModel, ToolModel } from './types.js';

const narrowness: Readonly<Record<GrantModel['admits'], number>> = { readOnly: 0, nonDestructive: 1, all: 2 };

/** Whether a scope granting `grant` admits a tool of this class (validate reads the class from raw annotations). */
export function grantAdmits(grant: GrantModel['admits'], readOnly: boolean, destructive: boolean): boolean {
  if (grant === 'all' || readOnly) return true;
  return grant === 'nonDestructive' && !destructive;
}

/**
 * The scopes that admit `tool`, the narrowest class first (a challenge names the first), or null without grants:
 * then a tool's own `scopes` are all a call needs.
 */
export function grantingScopes(auth: AuthModel, tool: ToolModel): string[] | null {
  if (auth.grants.length === 0) return null;
  return auth.grants
    .filter((grant) => grantAdmits(grant.admits, tool.readOnly, tool.destructive))
    .sort((a, b) => narrowness[a.admits] - narrowness[b.admits] || compareText(a.scope, b.scope))
    .map((grant) => grant.scope);
}
