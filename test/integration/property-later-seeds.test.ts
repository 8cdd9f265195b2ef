import { describeSeeds } from '../support/property.js';

// The second hundred seeds of test/unit/property.test.ts, in memory like those: kept out of the unit
// tier so that it stays a fast first check, and run with every `npm test`.
describeSeeds(101, 200);
