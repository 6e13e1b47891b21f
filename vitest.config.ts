import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // PGlite instances and the Prism mock take a few seconds to start on this 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
