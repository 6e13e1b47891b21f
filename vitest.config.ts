import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The JSON report is what CI counts (`.ci/run` prints its totals).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    globalSetup: ['test/support/global-setup.ts'],
    // PGlite instances and the Prism mock take a few seconds to start on this 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
