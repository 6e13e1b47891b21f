// A list costs the same SQL statements for 1 item as for 50: whatever a listed item needs (its counters,
// its creator, the caller's role on it) is read in the list's own queries, never one query per item. Every
// `list*` operation of the contract is held to it here (its fill in test/support/list-fills/), or named in
// `excused` with the reason it cannot hold 50 items; a new list with neither fails the first test.
// The per-operation budgets themselves (`statements` in the contract) are checked for every test file by
// the harness (test/support/query-budget.ts), and test/spec.test.ts checks that each operation has one.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { contractOperations } from '../contract/index.js';
import type { Operation } from '../contract/operation.js';
import { send } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { listCases, type ListRead } from './support/list-fills/index.js';

const h = useHarness();

/** Lists that cannot reasonably hold 50 items, each with the reason. */
const excused: Record<string, string> = {
  listRevisionPageMetaLinks: "GitBook's name for a read of one page's links (`{ canonical, alternates }`), not a list of items: it has no pages or items to hold at 50",
};

const operations = contractOperations as Record<string, Operation>;
const listOperations = Object.keys(operations).filter((id) => id.startsWith('list') && operations[id].method === 'get');

/** What the app last reported (read through a call: TypeScript would narrow a direct read to its reset value). */
function reported(seen: { last?: { operationId: string; statements: number } }) {
  return seen.last;
}

/** The items of a list answer: a page's `items`, or a page tree's top-level `pages`. */
function listed(body: { items?: unknown[]; pages?: unknown[] }): unknown[] {
  const items = body.items ?? body.pages;
  expect(Array.isArray(items), `a list answer: ${JSON.stringify(body).slice(0, 200)}`).toBe(true);
  return items!;
}

describe('query budget', () => {
  it('holds every list operation at 1 and 50 items, or names why it cannot', () => {
    const checked = new Set(listCases.map((c) => c.operationId));
    expect(listOperations.filter((id) => !checked.has(id) && !(id in excused))).toEqual([]);
    expect([...checked, ...Object.keys(excused)].filter((id) => !listOperations.includes(id))).toEqual([]);
    expect(Object.keys(excused).filter((id) => checked.has(id))).toEqual([]);
  });

  it.each(listCases.map((c) => ({ ...c, name: c.variant ? `${c.operationId} (${c.variant})` : c.operationId })))(
    'list $name sends as many statements for 50 items as for 1',
    async ({ operationId, fill }) => {
      const seen: { last?: { operationId: string; statements: number } } = {};
      const app = createApp({
        db: h.current.db,
        logger: pino({ level: 'silent' }),
        publicUrl: PUBLIC_URL,
        onStatements: (id, statements) => {
          seen.last = { operationId: id, statements };
        },
      });
      const query = operations[operationId].query;
      const paginated = query !== undefined && 'limit' in query.shape;
      const statementsOf = async (admin: Account, read: string | ListRead, items: number) => {
        const { path, query: extra } = typeof read === 'string' ? { path: read, query: {} } : read;
        seen.last = undefined;
        const res = await send(app, 'get', `/v1${path}`, { token: admin.token, query: { ...extra, ...(paginated ? { limit: 50 } : {}) } });
        expect(res.status, path).toBe(200);
        expect(listed(res.body), path).toHaveLength(items);
        const counted = reported(seen);
        expect(counted?.operationId).toBe(operationId);
        return counted!.statements;
      };
      const one = await h.current.newAdmin();
      const fifty = await h.current.newAdmin();
      const oneRead = await fill(h.current, one, 1);
      const fiftyRead = await fill(h.current, fifty, 50);
      const forOne = await statementsOf(one, oneRead, 1);
      expect(forOne).toBeGreaterThan(0);
      expect(await statementsOf(fifty, fiftyRead, 50)).toBe(forOne);
    },
    // Fifty items of some lists take fifty organizations, spaces or processing jobs to make.
    180_000,
  );
});
