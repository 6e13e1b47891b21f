// @ts-check
// Mutation testing (`npm run test:mutation`; docs/testing-behaviour.md, results in bench/results/mutation.md):
// Stryker changes one line of a module at a time and reruns the tests covering it; a mutant no test notices
// is a behaviour the suite does not prove. Run one module at a time with `-- --mutate <file>`; CI runs
// `npm run test:mutation:ci`: every module, incrementally from bench/results/stryker-incremental.json (the
// mutants whose code and covering tests did not change keep their result), each module at 80 % or more.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // Only the tests that cover a mutant run against it.
  coverageAnalysis: 'perTest',
  // The machine's 2 cores are shared: one mutant at a time.
  concurrency: 1,
  // The modules where a wrong line costs the most (issue 38).
  mutate: [
    'server/auth/roles.ts',
    // The access check and its grant queries: test/unit/access-check.test.ts runs them on an in-memory PGlite.
    'server/auth/access.ts',
    'server/auth/grants.ts',
    'server/conditions/*.ts',
    'server/content/merge.ts',
    'server/content/page-diff.ts',
    'server/content/merge-blocks.ts',
    'server/content/apply-changes.ts',
    'server/change-requests/merge-rules.ts',
    'server/http/route-table.ts',
    'server/http/validation.ts',
    'server/operating/rate-limit.ts',
    'server/jobs/claims.ts',
    'server/jobs/runner.ts',
    'server/jobs/backoff.ts',
  ],
  // The sandbox needs the server, the generated router and the tests; not the rest.
  ignorePatterns: ['bench', 'docs', 'api', 'mock', 'client', 'data', 'test-results', 'reports', '.ci', 'dist'],
  // A run whose score is under 80 % fails; scripts/mutation-report.ts --check 80 holds each module to it.
  thresholds: { high: 90, low: 80, break: 80 },
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  timeoutMS: 10_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
