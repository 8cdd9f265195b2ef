import { describe, expect, it } from 'vitest';
import { ArgumentError, buildArguments, promptArguments } from '../../src/live/arguments.js';

const schema = {
  type: 'object',
  properties: {
    n: { type: 'integer' },
    x: { type: 'number' },
    flag: { type: 'boolean' },
    text: { type: 'string' },
    maybe: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    where: { type: 'object' },
    mode: { enum: ['fast', 'slow'] },
  },
};

describe('call arguments', () => {
  it('reads each --arg as its property type says', () => {
    expect(
      buildArguments(
        undefined,
        [
          'n=-3',
          'x=2.5',
          'flag=true',
          'text=007',
          'maybe=null',
          'tags=["a","b"]',
          'where={"k":1}',
          'mode=fast',
          'other=12',
          'free=a=b',
        ],
        schema,
      ),
    ).toEqual({
      n: -3,
      x: 2.5,
      flag: true,
      text: '007',
      maybe: 'null',
      tags: ['a', 'b'],
      where: { k: 1 },
      mode: 'fast',
      other: 12,
      free: 'a=b',
    });
  });

  it('puts --arg values on top of --json', () => {
    expect(buildArguments('{"n":1,"text":"a"}', ['n=2'], schema)).toEqual({ n: 2, text: 'a' });
  });

  it('refuses what the schema cannot read', () => {
    expect(() => buildArguments(undefined, ['n=1.5'], schema)).toThrow(
      new ArgumentError('--arg n: expected integer, got "1.5"'),
    );
    expect(() => buildArguments(undefined, ['flag=yes'], schema)).toThrow('--arg flag: expected boolean, got "yes"');
    expect(() => buildArguments(undefined, ['tags=a,b'], schema)).toThrow('--arg tags: expected array, got "a,b"');
    expect(() => buildArguments(undefined, ['novalue'], schema)).toThrow('--arg "novalue": expected key=value');
    expect(() => buildArguments('[1]', [], schema)).toThrow('--json: expected a JSON object');
  });

  it('keeps prompt arguments as text', () => {
    expect(promptArguments(['n=1', 'code=a=b'])).toEqual({ n: '1', code: 'a=b' });
  });
});
