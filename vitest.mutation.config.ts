import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (`npm run test:mutation`, stryker.config.mjs): only fast tests of
 * pure functions in the modules under mutation. No global setup, no database, no HTTP server: every mutant
 * reruns the tests that cover it, and 2 cores are shared, so a test that starts PGlite would cost seconds a
 * mutant. A module whose only tests went through HTTP has focused ones under test/unit/ (also in `npm test`).
 * One exception: the jobs' claims are SQL statements, so test/unit/job-claims.test.ts runs them on an
 * in-memory PGlite it migrates itself (a few seconds per mutant of server/jobs/claims.ts, none for others).
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
