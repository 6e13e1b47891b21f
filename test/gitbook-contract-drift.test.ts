// The contract's schemas for the operations GitBook's API also has do not drift from GitBook's
// (`@gitbook/api`'s spec/openapi.json): in every success answer, what GitBook requires we require, our enums
// stay within GitBook's values and our types within GitBook's; every request GitBook's schema allows, ours
// accepts (we require no more, and take every enum value). The comparison is test/support/gitbook-drift.ts;
// the Document family is left to the Document's own test (test/support/gitbook-spec.ts).
//
// The differences the contract has today are listed in test/gitbook-drift-known.json (most are fields GitBook
// requires that we answer with every time but declare optional, and enums we declare as strings): the test
// fails on any difference not listed, and on a listed one that is gone (remove it from the list), so the
// list only shrinks. `GITBOOK_DRIFT_WRITE=1` rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { drift } from './support/gitbook-drift.js';
import { gitbookRequestSchema, gitbookResponseSchema, sharedOperations } from './support/gitbook-spec.js';
import { resolveRef } from './support/spec.js';

const knownFile = path.resolve(import.meta.dirname, 'gitbook-drift-known.json');
const known = new Set<string>(JSON.parse(readFileSync(knownFile, 'utf8')) as string[]);

/** Every difference of the contract from GitBook's schemas, one line each: `<operationId> <status|request> <place>: <what>`. */
function differences(): string[] {
  return sharedOperations.flatMap((op) => [
    ...Object.keys(op.responses)
      .filter((status) => /^2\d\d$/.test(status))
      .flatMap((status) =>
        drift(resolveRef(op.responses[status])?.content?.['application/json']?.schema, gitbookResponseSchema(op.operationId, Number(status)), 'response').map(
          (p) => `${op.operationId} ${status} ${p}`,
        ),
      ),
    ...(op.operation.requestBody
      ? drift(resolveRef(op.operation.requestBody)?.content?.['application/json']?.schema, gitbookRequestSchema(op.operationId), 'request').map(
          (p) => `${op.operationId} request ${p}`,
        )
      : []),
  ]);
}

describe("the contract's schemas against GitBook's", () => {
  const found = differences();
  if (process.env.GITBOOK_DRIFT_WRITE) writeFileSync(knownFile, `${JSON.stringify([...new Set(found)].sort(), null, 1)}\n`);

  it('compares the operations both APIs have', () => {
    expect(sharedOperations.length).toBeGreaterThan(150);
  });

  it('has no difference from GitBook that is not already listed', () => {
    expect(found.filter((d) => !known.has(d))).toEqual([]);
  });

  it('lists no difference that is gone (the list only shrinks)', () => {
    const current = new Set(found);
    expect([...known].filter((d) => !current.has(d))).toEqual([]);
  });

  it('catches a required field we would drop', () => {
    // The comparison itself: an answer without a field GitBook requires is a difference.
    const theirs = { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } }, required: ['id', 'title'] };
    const ours = { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } }, required: ['id'] };
    expect(drift(ours, theirs, 'response')).toEqual(['.title: required by GitBook, optional in ours']);
    expect(drift({ type: 'string', enum: ['a', 'z'] }, { type: 'string', enum: ['a', 'b'] }, 'response')).toEqual([': ["z"] not among GitBook\'s ["a","b"]']);
    // A request string held to a pattern must take each of GitBook's values.
    expect(drift({ type: 'string', pattern: '^integration:[^:]+$' }, { type: 'string', enum: ['builtin:openapi'] }, 'request')).toEqual([': GitBook\'s ["builtin:openapi"] not accepted by ours /^integration:[^:]+$/']);
  });

  it('names the difference from the variant of GitBook that is the same schema, not from another as near', () => {
    // GitBook's `space` of a space installation is an id or a Space: our Space differs from GitBook's Space by a
    // merge-rule value only, which is the difference to name (not that a Space is not a string).
    const space = { $ref: '#/components/schemas/Space' };
    expect(drift(space, { oneOf: [{ type: 'string' }, space] }, 'response')).toEqual(['.mergeRules<variant 1>.type: ["rules"] not among GitBook\'s ["inherit"]']);
  });
});
