import { defineConfig } from 'vitest/config';

// Three tiers, chosen by folder (docs/testing.md):
//   unit         test/unit/**         in-process, no child processes of node; needs no build
//   e2e          test/e2e/**          installs packages with npm; builds dist/ first
//   integration  test/integration/** spawns the CLI, compilers or servers; builds dist/ first
// A new test file lands in a tier by where it is saved; nothing here lists files.
const unit = 'test/unit/**/*.test.ts';
const e2e = 'test/e2e/**/*.test.ts';
const fixtures = 'test/fixtures/**';

export default defineConfig({
  test: {
    // Generous on purpose: the suite must pass on a busy 2-core machine, also beside a second
    // run. Hooks generate and compile whole projects and start servers; a hang still ends.
    hookTimeout: 180_000,
    testTimeout: 120_000,
    teardownTimeout: 60_000,
    // A committed `.only` would silently skip the rest of a file.
    allowOnly: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [unit],
          // Tiers run one after another, fastest first, so a broken unit test fails `npm test` early.
          sequence: { groupOrder: 0 },
          exclude: [fixtures],
          // The files share one module graph per worker: ts-morph and the TypeScript compiler
          // load once per worker instead of once per file.
          isolate: false,
          // One worker per core (vitest's default leaves one idle, half the cores of a two-core
          // machine): the property test keeps one worker busy for most of the tier.
          maxWorkers: '100%',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          exclude: [fixtures],
          globalSetup: ['test/support/build.ts'],
          // Two files at once on two cores (vitest's default is one): most of a file's time is child processes
          // starting, compiling and waiting, and each file works in folders and on ports of its own.
          maxWorkers: '100%',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [e2e],
          sequence: { groupOrder: 2 },
          exclude: [fixtures],
          globalSetup: ['test/support/build.ts'],
          // As the integration tier: npm installs wait on the registry, not on a core.
          maxWorkers: '100%',
        },
      },
    ],
  },
});
