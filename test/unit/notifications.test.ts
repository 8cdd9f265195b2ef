import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../src/emit/registry/discover.js';
import { runtimeModules, runtimeFeatures } from '../../src/emit/runtime/index.js';
import { usesRedis } from '../../src/model/store.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { validated } from '../support/manifests.js';

// The manifest's `notifications`: normalized once, and the capabilities, modules and Redis dependency follow it.

const tool = 'ping: { description: Pings., input: { type: object, additionalProperties: false } }';
const resource = 'today: { uri: notes://notes/today, description: Today. }';
const manifest = (extra: string) =>
  normalizeManifest(
    validated(
      `mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\ntools: { ${tool} }\nresources: { ${resource} }\n${extra}`,
    ),
  );

describe('notifications', () => {
  it('announces nothing by default, and says so in the capabilities', () => {
    const model = manifest('');
    expect(model.notifications).toEqual({ listChanged: [], resourceUpdates: false });
    expect(discoverContract(model).capabilities).toEqual({
      tools: { listChanged: false },
      resources: { listChanged: false },
    });
    expect(runtimeModules(runtimeFeatures(model))).not.toContain('notify');
  });

  it('sorts the declared lists, drops a list the manifest leaves empty, and declares exactly those', () => {
    const model = manifest(
      'store: { type: redis, urlEnv: TINY_REDIS_URL }\n' +
        'notifications: { listChanged: [tools, prompts, resources], resourceUpdates: true }\n',
    );
    expect(model.notifications).toEqual({ listChanged: ['resources', 'tools'], resourceUpdates: true });
    expect(discoverContract(model).capabilities).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    expect(runtimeModules(runtimeFeatures(model)).filter((name) => name.startsWith('notify'))).toEqual([
      'notify',
      'notify-redis',
    ]);
    // No tool needs the store, but the bus does: the server depends on ioredis.
    expect(usesRedis(model)).toBe(true);
  });

  it('keeps the bus in process with the memory store', () => {
    const model = manifest('notifications: { resourceUpdates: true }\n');
    expect(runtimeModules(runtimeFeatures(model)).filter((name) => name.startsWith('notify'))).toEqual(['notify']);
    expect(usesRedis(model)).toBe(false);
  });
});
