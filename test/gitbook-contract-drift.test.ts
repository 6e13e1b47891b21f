// The contract's schemas for the operations GitBook's API also has do not drift from GitBook's
// (`@gitbook/api`'s spec/openapi.json): in every success answer, what GitBook requires we require, our enums
// stay within GitBook's values and our types within GitBook's; every request GitBook's schema allows, ours
// accepts (we require no more, and take every enum value). The comparison is test/support/gitbook-drift.ts;
// the Document family is left to the Document's own test (test/support/gitbook-spec.ts).
import { describe, expect, it } from 'vitest';
import { drift } from './support/gitbook-drift.js';
import { gitbookRequestSchema, gitbookResponseSchema, sharedOperations } from './support/gitbook-spec.js';
import { resolveRef } from './support/spec.js';

/**
 * Places where our schema knowingly departs from GitBook's, by operation id and place, with the reason.
 * Each must be a place where GitBook's document contradicts itself or where a departure is forced.
 */
export const gitbookDriftExceptions: Record<string, string> = {};

const successes = sharedOperations.flatMap((op) =>
  Object.keys(op.responses)
    .filter((status) => /^2\d\d$/.test(status))
    .map((status) => [`${op.operationId} ${status}`, op, Number(status)] as const),
);

describe("the contract's schemas against GitBook's", () => {
  it.each(successes)('%s answers within GitBook’s schema', (_name, op, status) => {
    const ours = resolveRef(op.responses[String(status)])?.content?.['application/json']?.schema;
    const theirs = gitbookResponseSchema(op.operationId, status);
    const problems = drift(ours, theirs, 'response').filter((p) => !gitbookDriftExceptions[`${op.operationId} ${p.split(':')[0]}`]);
    expect(problems).toEqual([]);
  });

  const withBodies = sharedOperations.filter((op) => op.operation.requestBody).map((op) => [op.operationId, op] as const);
  it.each(withBodies)('%s accepts GitBook’s request', (_name, op) => {
    const ours = resolveRef(op.operation.requestBody)?.content?.['application/json']?.schema;
    const theirs = gitbookRequestSchema(op.operationId);
    const problems = drift(ours, theirs, 'request').filter((p) => !gitbookDriftExceptions[`${op.operationId} ${p.split(':')[0]}`]);
    expect(problems).toEqual([]);
  });
});
