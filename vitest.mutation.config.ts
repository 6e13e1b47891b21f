import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (`npm run test:mutation`, stryker.config.mjs): only fast tests of
 * pure functions in the modules under mutation. No global setup, no database, no HTTP server: every mutant
 * reruns the tests that cover it, and 2 cores are shared, so a test that starts PGlite would cost seconds a
 * mutant. A module whose only tests went through HTTP has focused ones under test/unit/ (also in `npm test`).
 * The exceptions are modules whose behaviour is SQL or runs on the jobs table: test/unit/job-claims.test.ts,
 * job-runner.test.ts and access-check.test.ts (the access check and its grant queries) each run on an
 * in-memory PGlite they migrate themselves (seconds per mutant of those modules, none for others: a mutant
 * runs only the tests that reach it).
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/roles.test.ts',
      'test/change-requests-merge-rules.test.ts',
      'test/route-table.test.ts',
    ],
    // One worker: Stryker already runs one mutant at a time (concurrency 1) on a shared machine.
    maxWorkers: 1,
    testTimeout: 10_000,
  },
});
