// Set-up file of the runs test/example-handlers.test.ts starts. Each test file of a run belongs to one sampled
// operation (`inject('exampleHandlers')`: file → operation id); for that file, the operation answers its
// documented example (the success status, the example body and headers: what the mock answers) instead of
// doing its work. Once a test of an operation's files has failed, the operation is caught: its remaining
// tests are skipped (a `bail` of its own, so one run can hold every operation and its worker imports the
// server once). Workers keep their modules between files (isolate: false), so every file first puts back
// the handlers as they were.
import { beforeEach, expect, inject } from 'vitest';
import { handlers } from '../../server/handlers.js';
import { exampleAnswer } from './example-answer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    exampleHandlers: Record<string, string>;
  }
}

const ORIGINAL = Symbol.for('docs-workspace-api.original-handlers');
const CAUGHT = Symbol.for('docs-workspace-api.caught-example-handlers');
const kept = globalThis as { [ORIGINAL]?: Record<string, unknown>; [CAUGHT]?: Set<string> };
kept[ORIGINAL] ??= { ...handlers };
const caught = (kept[CAUGHT] ??= new Set());
Object.assign(handlers, kept[ORIGINAL]);
const id = inject('exampleHandlers')[expect.getState().testPath ?? ''];
if (id) {
  const answer = exampleAnswer(id);
  Object.assign(handlers, { [id]: async () => ({ ...answer }) });
  beforeEach((context) => {
    if (caught.has(id)) context.skip();
    context.onTestFailed(() => {
      caught.add(id);
    });
  });
}
