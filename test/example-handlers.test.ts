// A handler that only answers its documented example must fail the suite's behaviour tests: otherwise they
// prove shapes, not behaviour. Each run samples one operation of every area (the document's tags), chosen
// by the run's seed (FUZZ_SEED, today's by default) among the operations whose behaviour tests are titled
// by their method and path (`get /spaces/{spaceId} returns …`, the suite's convention), and prints the
// sample. A run of vitest in this process (its Node API) runs those test files, each with its operation
// answering its example (test/support/example-handler-setup.ts); each operation must fail one of its tests.
// Once one has, the operation's other tests are skipped, which is all it has to show. Every operation goes
// in one run (two when they share a file): the nested run's worker then imports the server once, where a
// run per operation paid for a new worker each time (half of this file's time).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { handlers } from '../server/handlers.js';
import { isImplemented } from '../server/http/not-implemented.js';
import { FUZZ_SEED } from './support/fuzz-world.js';
import { specOperations, type SpecOperation } from './support/spec.js';

const root = path.resolve(import.meta.dirname, '..');
const testFiles = readdirSync(path.join(root, 'test')).filter((f) => f.endsWith('.test.ts') && f !== 'example-handlers.test.ts');
const texts = new Map(testFiles.map((f) => [f, readFileSync(path.join(root, 'test', f), 'utf8')]));

/**
 * The operation's behaviour test files: those with a test titled by its method and path, else those that
 * name its operation id (the access matrix, the fuzz and the budgets, which check shapes, left out).
 */
function behaviourFiles(op: SpecOperation): string[] {
  const title = new RegExp(`${op.method} ${op.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/{-])`);
  const titled = testFiles.filter((f) => title.test(texts.get(f)!));
  const shapesOnly = ['access-matrix.test.ts', 'integrations-token-matrix.test.ts', 'fuzz.test.ts', 'fuzz-sequences.test.ts', 'query-budget.test.ts', 'spec.test.ts', 'route-table.test.ts', 'http.test.ts', 'mock-hybrid.test.ts', 'gitbook-shapes.test.ts', 'gitbook-contract-drift.test.ts'];
  const naming = testFiles.filter((f) => !shapesOnly.includes(f) && new RegExp(`\\b${op.operationId}\\b`).test(texts.get(f)!));
  return (titled.length > 0 ? titled : naming).map((f) => path.join(root, 'test', f));
}

/** A small, seeded choice (mulberry32), so the sample is the run's and can be replayed with its seed. */
function chooser(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 2 ** 32) % n;
  };
}

const implemented = specOperations.filter((op) => isImplemented((handlers as Record<string, unknown>)[op.operationId]));
const areas = [...new Set(implemented.map((op) => (op.operation.tags as string[])[0]))].filter((tag) => tag !== 'api').sort();
const choose = chooser(FUZZ_SEED);
const sample = areas.flatMap((area) => {
  const candidates = implemented.filter((op) => op.operation.tags[0] === area).map((op) => ({ op, files: behaviourFiles(op) })).filter((c) => c.files.length > 0);
  return candidates.length === 0 ? [] : [{ area, ...candidates[choose(candidates.length)] }];
});
console.info(`example handlers (seed ${FUZZ_SEED}): ${sample.map((s) => `${s.area}: ${s.op.operationId}`).join(', ')}`);

describe('a handler replaced by its documented example', () => {
  it('has an operation with behaviour tests in every area', () => {
    expect(areas.filter((area) => !sample.some((s) => s.area === area))).toEqual([]);
  });

  it('fails the behaviour tests of its area, for one sampled operation of every area', async () => {
    const vitest = await createVitest('test', {
      config: false,
      root,
      watch: false,
      reporters: [{ onInit() {} }], // quiet: the outcome is read below
      include: ['test/**/*.test.ts'],
      isolate: false,
      maxWorkers: 1,
      hookTimeout: 60_000,
      testTimeout: 30_000,
      setupFiles: ['test/support/example-handler-setup.ts'],
      env: { ALLOW_PRIVATE_FETCH: 'true' },
    });
    // The database templates this run made (test/support/global-setup.ts) serve the runs below too.
    vitest.provide('pgliteTemplate', inject('pgliteTemplate'));
    vitest.provide('postgresTemplate', inject('postgresTemplate') as string);
    // One run per round, each file in one round only: a file that two sampled operations share runs in two.
    const rounds: (typeof sample)[] = [];
    for (const entry of sample) {
      const round = rounds.find((r) => r.every((other) => other.files.every((f) => !entry.files.includes(f))));
      if (round) round.push(entry);
      else rounds.push([entry]);
    }
    const outcomes: string[] = [];
    try {
      for (const round of rounds) {
        vitest.provide('exampleHandlers', Object.fromEntries(round.flatMap(({ op, files }) => files.map((f) => [f, op.operationId]))));
        const result = await vitest.runTestFiles(round.flatMap(({ files }) => files));
        for (const { area, op, files } of round) {
          // Caught: a test failed (not only a hook: a file that cannot start proves nothing).
          // Only this operation's files: the run's result may hold the modules of earlier runs too.
          const failed = result.testModules.filter((m) => files.includes(m.moduleId)).reduce((n, m) => n + [...m.children.allTests('failed')].length, 0);
          outcomes.push(`${area}: ${op.operationId} (${files.map((f) => path.relative(root, f)).join(', ')}) ${failed > 0 ? `caught (${failed} failed)` : 'NOT caught'}`);
        }
      }
    } finally {
      await vitest.close();
    }
    console.info(`example handlers:\n  ${outcomes.join('\n  ')}`);
    expect(outcomes.filter((o) => o.endsWith('NOT caught'))).toEqual([]);
    expect(outcomes).toHaveLength(sample.length);
  }, 1_200_000);
});
