import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files whose outcome does not depend on the suite's database: the spec, the mocks, the client's
 * types, pure functions, PGlite's thread, and the reference docs in a browser (a page the server serves
 * from the published document, without a query).
 */
const storageIndependentTests = [
  'test/spec.test.ts',
  'test/schema-enums.test.ts',
  'test/roles.test.ts',
  'test/architecture-imports.test.ts',
  'test/integrations-images.test.ts',
  'test/client-types.test.ts',
  'test/mock.test.ts',
  'test/mock-dynamic.test.ts',
  'test/mock-stateful.test.ts',
  'test/mock-hybrid.test.ts',
  'test/mock-launch.test.ts',
  'test/pglite-thread.test.ts',
  'test/api-diff.test.ts',
  'test/git-sync-format.test.ts',
  'test/openapi-links.test.ts',
  'test/docs-browser.test.ts',
  // The memory of a 200 MB file's upload and download: the file store's streams. The first pass measures it
  // with PGlite's thread inside the server's process, the stricter of the two.
  'test/blobs-memory.test.ts',
  // The memory of a Git Sync import of 100 MB of assets: the pack on disk, the assets streamed to the folder store.
  'test/git-sync-memory.test.ts',
  // Unit tests of pure functions (the mutation-testing set); the job claims' own in-memory PGlite included.
  'test/unit/**/*.test.ts',
  // A handler swapped for its documented example fails its area's behaviour tests: the swap is the same on
  // either storage (the files it runs do use the pass's storage).
  'test/example-handlers.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // `.ci/run` runs the suite twice, on PGlite then on PostgreSQL; the second pass (STORAGE_PASS=again)
    // leaves out the files whose outcome does not depend on the database, which the first pass has run.
    // The floor pass (STORAGE_PASS=floor: the oldest Node line, on PGlite) leaves out the example-handler test:
    // it runs other files of the suite again with one handler swapped, files the floor pass runs itself, so it
    // proves nothing more on an older Node and would double the pass's longest file.
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.STORAGE_PASS === 'again' ? storageIndependentTests : []),
      ...(process.env.STORAGE_PASS === 'floor' ? ['test/example-handlers.test.ts'] : []),
    ],
    // The JSON report is what CI counts (`.ci/run` prints its totals); VITEST_JSON moves it (two runs side by side).
    reporters: ['default', ['json', { outputFile: process.env.VITEST_JSON ?? 'test-results/vitest.json' }]],
    globalSetup: ['test/support/global-setup.ts'],
    // Closes the servers `send` listened on for the file's apps (test/support/listening.ts).
    setupFiles: ['test/support/setup-file.ts'],
    // Vitest's default (one worker less than the cores) is a single worker on a 2-core machine, leaving a
    // core idle while the worker waits on its database: two files at a time nearly halve the suite there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Test files share their worker's module cache instead of importing the whole server again each (the
    // imports were 163 s of a 415 s PGlite pass; 13 s shared). Safe because every file builds its own app
    // and database and none mocks modules; a file that changes process.env puts it back.
    isolate: false,
    // PGlite instances and the Prism mock take a few seconds to start on this 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
    // The tests' stand-in servers listen on 127.0.0.1, which user-given URLs may not reach otherwise
    // (server/http/outbound.ts); test/operating-outbound.test.ts checks the refusal with the flag off.
    env: { ALLOW_PRIVATE_FETCH: 'true' },
  },
});
