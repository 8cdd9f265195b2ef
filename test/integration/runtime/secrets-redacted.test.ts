import { describe, expect, it } from 'vitest';
import { hideSecrets, logToStderr, redact } from '../../../templates/runtime/log.gen.js';
import { connectRedisStore } from '../../../templates/runtime/store-redis.gen.js';

// Issue 33: a connection string never reaches a log or an error with its password, well-formed or not. The
// reported case: a mistyped store URL (`redis//default:PASS@host`), which ioredis takes for a socket path and echoes
// in its error (`connect ENOENT //default:PASS@host`); no Redis is needed to reproduce it.

/** What `run` writes to stderr, line by line. */
function stderrOf(run: () => void): string[] {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
  try {
    run();
  } finally {
    process.stderr.write = write;
  }
  return written;
}

describe('secrets never printed', () => {
  it('redacts the credentials of URLs, well-formed or not, and leaves stack frames and addresses alone', () => {
    expect(
      [
        'connect ENOENT //default:PASS@host',
        'redis//default:PASS@host:6379',
        'redis://default:PASS@127.0.0.1:6379/0',
        'redis://:PASS@127.0.0.1',
        'postgres://reader:p%40ss@db.internal/library',
        'https://ghp_TOKEN@github.com/org/repo.git',
        'user:password@host',
        'at file:///app/node_modules/@scope/pkg/index.js:1:2',
        'listening on http://127.0.0.1:3000/mcp',
      ].map(redact),
    ).toEqual([
      'connect ENOENT //***@host',
      'redis//***@host:6379',
      'redis://***@127.0.0.1:6379/0',
      'redis://***@127.0.0.1',
      'postgres://***@db.internal/library',
      'https://***@github.com/org/repo.git',
      '***@host',
      'at file:///app/node_modules/@scope/pkg/index.js:1:2',
      'listening on http://127.0.0.1:3000/mcp',
    ]);
  });

  it('hides secret values whole, of a store URL its password (all of it when unparsable), in every log line', () => {
    hideSecrets(
      {
        SHOP_TOKEN: 'tok-0123456789',
        SHOP_HOOK: 'https://hooks.example.com/T0KEN-in-path',
        SHOP_SHORT: 'abc',
        SHOP_STORE_URL: 'redis://default:s3cr%24t-pass@cache:6379',
        SHOP_BUS_URL: 'redis//bus:typo-pass@cache',
      },
      ['SHOP_TOKEN', 'SHOP_HOOK', 'SHOP_SHORT', 'SHOP_UNSET'],
      ['SHOP_STORE_URL', 'SHOP_BUS_URL'],
    );
    expect(
      stderrOf(() => {
        logToStderr('setup failed: the API refused tok-0123456789 at https://hooks.example.com/T0KEN-in-path');
        logToStderr('store: WRONGPASS for s3cr$t-pass (redis://default:s3cr%24t-pass@cache:6379)');
        logToStderr('store: redis redis://cache:6379 is reachable');
        logToStderr('bus: cannot open redis//bus:typo-pass@cache');
        logToStderr('abc is not hidden: shorter values would hide ordinary words');
      }),
    ).toEqual([
      'setup failed: the API refused *** at ***\n',
      'store: WRONGPASS for *** (redis://***@cache:6379)\n',
      'store: redis redis://cache:6379 is reachable\n',
      'bus: cannot open ***\n',
      'abc is not hidden: shorter values would hide ordinary words\n',
    ]);
  });

  it('a mistyped Redis URL: the log line of the store and its errors carry no password', async () => {
    const lines: string[] = [];
    const store = await connectRedisStore('redis//default:PASS@host', (line) => lines.push(line));
    expect(lines).toEqual([
      'store: redis (unparsable URL) is unreachable (connect ENOENT //***@host); calls that need the store fail ' +
        'closed until it is back',
    ]);
    const failure = await store.get('k').then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/^redis \(unparsable URL\): /);
    expect(failure).not.toContain('PASS');
  });
});
