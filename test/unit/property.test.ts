import path from 'node:path';
import { describe, it } from 'vitest';
import { repoRoot } from '../support/golden.js';
import { memoryProject, runEditSequence } from '../support/property.js';

// Regeneration never loses a byte the user wrote: random sequences of manifest edits and user
// edits, each regenerated through the in-process pipeline and the writer's planning against a
// project held in memory. test/integration/property-disk.test.ts replays the first seeds on disk
// through bin/mcp-gen.js and checks that both end with the same files.
describe('regeneration never loses a user-written byte (property, in memory)', () => {
  const scratch = path.join(repoRoot, '.test-out', 'property-memory');
  for (let seed = 1; seed <= 200; seed++) {
    it(`seed ${seed}`, () => runEditSequence(seed, memoryProject(scratch, '0.1.0')));
  }
});
