import { describe, expect, it } from 'vitest';
import { formatTscOutput } from '../../src/live/dev.js';

describe('dev: type errors as file:line:col', () => {
  it("rewrites tsc's lines and keeps each error's indented details with it", () => {
    const output =
      "src/handlers/tools/add.ts(12,64): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
      "  Type 'x' is not assignable.\n" +
      "src/main.ts(1,1): error TS2304: Cannot find name 'y'.\n" +
      '\n';
    expect(formatTscOutput(output)).toEqual([
      "src/handlers/tools/add.ts:12:64: error [TS2322] Type 'string' is not assignable to type 'number'.\n" +
        "  Type 'x' is not assignable.",
      "src/main.ts:1:1: error [TS2304] Cannot find name 'y'.",
    ]);
  });
});
