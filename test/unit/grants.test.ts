import { describe, expect, it } from 'vitest';
import { grantingScopes } from '../../src/model/grants.js';
import type { AuthModel, ToolModel } from '../../src/model/types.js';

// Consent by annotation: which scopes of auth.grants admit a tool, by the class its annotations give it.
const auth = (grants: AuthModel['grants']): AuthModel => ({
  type: 'bearer',
  tokensEnv: 'T',
  resource: null,
  scopes: [],
  grants,
});
const tool = (readOnly: boolean, destructive: boolean) => ({ readOnly, destructive }) as ToolModel;
const grants: AuthModel['grants'] = [
  { scope: 'admin', admits: 'all' },
  { scope: 'read', admits: 'readOnly' },
  { scope: 'write', admits: 'nonDestructive' },
  { scope: 'zz.read', admits: 'readOnly' },
];

describe('grantingScopes', () => {
  it('admits a read-only tool by every class, the narrowest first', () => {
    expect(grantingScopes(auth(grants), tool(true, false))).toEqual(['read', 'zz.read', 'write', 'admin']);
  });

  it('admits a non-destructive tool by nonDestructive and all, a destructive one by all only', () => {
    expect(grantingScopes(auth(grants), tool(false, false))).toEqual(['write', 'admin']);
    expect(grantingScopes(auth(grants), tool(false, true))).toEqual(['admin']);
  });

  it('is null without grants: a tool needs its own scopes only', () => {
    expect(grantingScopes(auth([]), tool(false, true))).toBeNull();
  });
});
