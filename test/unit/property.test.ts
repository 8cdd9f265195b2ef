import { describeSeeds } from '../support/property.js';

// Regeneration never loses a byte the user wrote: random sequences of manifest edits and user
// edits, each regenerated through the in-process pipeline and the writer's planning against a
// project held in memory. test/integration/property-disk.test.ts replays the first seeds on disk
// through bin/mcp-gen.js and checks that both end with the same files. Seeds 101 to 200 run in
// test/integration/property-later-seeds.test.ts, so that this tier stays fast.
describeSeeds(1, 100);
