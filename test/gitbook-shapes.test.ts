// Every operation whose id GitBook's public API also has answers, and accepts, GitBook's shapes: from the
// fuzz world (test/support/fuzz-world.ts, the access matrix's recipes), each shared operation is called once
// by the organization's admin with its recipe's request; the request body is validated against GitBook's
// request schema for the operation id and the answer against GitBook's response schema for the operation id
// and status (`@gitbook/api`'s spec/openapi.json, Ajv, Document schemas aside: test/support/gitbook-spec.ts).
// Our own document's check (every answer against generated/openapi.json) runs too, through `send`.
import { beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/api.js';
import { createAccounts, createWorld, implementedOperations, tuplesFor, type World } from './support/fuzz-world.js';
import { gitbookOperations, gitbookRequestProblems, gitbookResponseProblems } from './support/gitbook-spec.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/**
 * Where our shapes knowingly differ from GitBook's published schema, by operation id, with the reason.
 * Keep it short: each entry is a place where GitBook's document contradicts itself or its own service.
 */
export const gitbookShapeExceptions: Record<string, string> = {};

const shared = implementedOperations.filter((op) => gitbookOperations.has(op.operationId));

describe("GitBook's shapes for the operations both APIs have", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(h.current, await createAccounts(h.current));
  });

  it('shares most of the operations', () => {
    expect(shared.length).toBeGreaterThan(150);
  });

  // Reads first, on a world no write has changed.
  const ordered = [...shared.filter((op) => op.method === 'get'), ...shared.filter((op) => op.method !== 'get')];
  it.each(ordered.map((op) => [op.operationId, op] as const))('%s', async (operationId, op) => {
    const [tuple] = await tuplesFor(world, op, 1);
    const path = `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(tuple.params[name]))}`;
    const body = op.operation.requestBody ? (tuple.body ?? {}) : undefined;
    const res = await send(h.current.app, op.method as 'get', path, { token: world.admin.token, body, ...(tuple.query && { query: tuple.query }) });
    const answer = `${op.method.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`;
    expect(res.status >= 200 && res.status < 300, answer).toBe(true);
    if (gitbookShapeExceptions[operationId]) return;
    const problems = [
      ...(body !== undefined ? gitbookRequestProblems(operationId, body) : []),
      ...gitbookResponseProblems(operationId, res.status, res.status === 204 ? undefined : res.body),
    ];
    expect(problems, `${answer}\n${problems.join('\n')}`).toEqual([]);
  });
});
