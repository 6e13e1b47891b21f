// Plain SQL written as fragments (server/db/sql-text.ts): values become parameters numbered in order of
// appearance, nested fragments keep theirs, and `columnsAs` + `tableRow` read several tables' rows out of
// one statement under Drizzle's names and types, on the test's storage.
import { describe, expect, it } from 'vitest';
import { tableRow } from '../server/db/client.js';
import { changeRequests, users } from '../server/db/schema/index.js';
import { columnsAs, rawSql, renderSql, runSql, sqlText } from '../server/db/sql-text.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('SQL fragments', () => {
  it('numbers the values of nested fragments in order, and splices raw SQL without a parameter', () => {
    const inner = sqlText`b = ${2} AND c = ${'three'}`;
    const { text, params } = renderSql(sqlText`SELECT ${rawSql('x.*')} FROM x WHERE a = ${1} AND ${inner} AND d = ${null}`);
    expect(text).toBe('SELECT x.* FROM x WHERE a = $1 AND b = $2 AND c = $3 AND d = $4');
    expect(params).toEqual([1, 2, 'three', null]);
  });

  it('reads the rows of two tables from one statement under their own names and types, in and out of a transaction', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const created = await admin.api.post(`/spaces/${space.body.id}/change-requests`, { subject: "It's new" });
    expect(created.status).toBe(201);
    const statement = sqlText`SELECT ${columnsAs(changeRequests, 'c', 'c_')}, ${columnsAs(users, 'u', 'u_')}
      FROM change_requests c JOIN users u ON u.id = c.created_by WHERE c.id = ${created.body.id}::text`;
    const read = async (db: typeof h.current.db) => {
      const [raw] = await runSql(db, statement);
      return { cr: tableRow(changeRequests, raw, 'c_'), creator: tableRow(users, raw, 'u_') };
    };
    const outside = await read(h.current.db);
    expect(outside.cr).toMatchObject({ id: created.body.id, number: 1, subject: "It's new", contributors: [], createdBy: admin.userId });
    expect(outside.cr.createdAt).toBeInstanceOf(Date);
    expect(outside.cr.createdAt.toISOString()).toBe(created.body.createdAt);
    expect(outside.creator.id).toBe(admin.userId);
    const inside = await h.current.db.transaction(async (tx) => read(tx as unknown as typeof h.current.db));
    expect(inside).toEqual(outside);
  });
});
