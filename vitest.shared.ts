// The one test layout for the repo: co-located *.test.ts files next to the source.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Budgets for a busy machine: `npm test` runs two packages at once on a 2-core machine that may
    // be running other work, and a test that spawns processes can take 3-4 times as long as on a
    // quiet one. A test that hangs still fails, only later; a test that must finish quickly says so
    // with its own bound, far above its good case.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    expect: {
      // expect.poll waits for an event (a line of output, a process gone, a status): the default
      // deadline of 1 s is reached by the good case on a busy machine.
      poll: { timeout: 30_000 },
    },
  },
});
