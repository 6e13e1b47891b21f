// Set-up file of the runs test/example-handlers.test.ts starts: the operation it names (`inject('exampleHandler')`)
// answers its documented example (the success status, the example body and headers: what the mock answers)
// instead of doing its work, for the test files of that run. Workers keep their modules between runs
// (isolate: false), so every run first puts back the handlers as they were.
import { inject } from 'vitest';
import { handlers } from '../../server/handlers.js';
import { exampleAnswer } from './example-answer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    exampleHandler: string;
  }
}

const ORIGINAL = Symbol.for('docs-workspace-api.original-handlers');
const kept = globalThis as { [ORIGINAL]?: Record<string, unknown> };
kept[ORIGINAL] ??= { ...handlers };
Object.assign(handlers, kept[ORIGINAL]);
const id = inject('exampleHandler');
if (id) {
  const answer = exampleAnswer(id);
  Object.assign(handlers, { [id]: async () => ({ ...answer }) });
}
