// The answers of the most frequent reads held per process (server/http/read-cache.ts): given again with no
// statement, to their own caller only, and never once anything was written since, through the API or
// straight in the database. test/read-cache-processes.test.ts does the same across two processes.
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp, type App } from '../server/app.js';
import { queryRows } from '../server/db/client.js';
import { servedChangesOf } from '../server/db/served-changes.js';
import { spaces } from '../server/db/schema/index.js';
import { apiClient, type ApiClient } from './support/api.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';

const h = useHarness();

/** An app of its own over the harness's database, telling the statements of each request it answers. */
function appCounting(cacheReads?: boolean): { app: App; statements: number[] } {
  const statements: number[] = [];
  const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, cacheReads, onStatements: (_op, n) => statements.push(n) });
  return { app, statements };
}

/** Reads `path` with `client`, expecting `status`; gives the body and the statements the read sent. */
async function read(client: ApiClient, statements: number[], path: string, status = 200) {
  const before = statements.length;
  const res = await client.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(statements.length).toBe(before + 1);
  return { body: res.body, statements: statements[before]! };
}

/**
 * Reads `path` twice once every write before is heard, and expects the second read to be given with no
 * statement. An answer is held only if no notice came during its read, and the notice of the write just
 * before may come late under load (PostgreSQL tells the listening session at the commit, which reads it
 * when it can), so the first of the two may be read anew; the cache's own catching up is not the test's.
 */
async function expectHeld(client: ApiClient, statements: number[], path: string) {
  expect(await servedChangesOf(h.current.db)!.caughtUp()).toBe(true);
  const kept = await read(client, statements, path);
  const again = await read(client, statements, path);
  expect(again.statements).toBe(0);
  expect(again.body).toEqual(kept.body);
  return again;
}

describe('the answers held for reads', () => {
  it('has every table tell its writes, but the three the server writes on its own', async () => {
    const untold = await queryRows<{ tablename: string }>(
      h.current.db,
      sql`SELECT tablename FROM pg_tables t WHERE schemaname = current_schema()
          AND NOT EXISTS (SELECT 1 FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
                          WHERE c.relname = t.tablename AND c.relnamespace = to_regnamespace(current_schema()) AND g.tgname = 'api_written')
          ORDER BY tablename`,
    );
    expect(untold.map((t) => t.tablename)).toEqual(['data_migrations', 'jobs', 'rate_limit_counts']);
  });

  it('gives a read again with no statement, until the API or the database writes anything', async () => {
    const { app, statements } = appCounting();
    const admin = await h.current.newAdmin();
    const client = apiClient(app, admin.token);
    const created = await client.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Held' });
    expect(created.status).toBe(201);
    const path = `/spaces/${created.body.id}`;

    const first = await read(client, statements, path);
    expect(first.statements).toBeGreaterThan(0);
    expect((await expectHeld(client, statements, path)).body).toEqual(first.body);

    // Through the API: the answer of the write's own reader is read anew.
    expect((await client.patch(path, { title: 'Renamed by the API' })).status).toBe(200);
    const renamed = await read(client, statements, path);
    expect(renamed.body.title).toBe('Renamed by the API');
    expect(renamed.statements).toBeGreaterThan(0);
    await expectHeld(client, statements, path);

    // Straight in the database (a tool, another server): told by the table's trigger.
    await h.current.db.update(spaces).set({ title: 'Renamed in the database' }).where(eq(spaces.id, created.body.id));
    expect((await read(client, statements, path)).body.title).toBe('Renamed in the database');

    // A write to another table whatever (a change request opened) moves it too: its counters are in the answer.
    const before = await expectHeld(client, statements, path);
    expect(before.body.title).toBe('Renamed in the database');
    expect((await client.post(`${path}/change-requests`, { subject: 'Open' })).status).toBe(201);
    const counted = await read(client, statements, path);
    expect(counted.statements).toBeGreaterThan(0);
    expect(counted.body).not.toEqual(before.body);
  });

  it('gives each caller only their own answer, and none once their access is taken away', async () => {
    const { app, statements } = appCounting();
    const admin = await h.current.newAdmin();
    const guest = await h.current.newMember(admin.organizationId, null);
    const adminClient = apiClient(app, admin.token);
    const guestClient = apiClient(app, guest.token);
    const created = await adminClient.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Shared with one guest' });
    expect(created.status).toBe(201);
    const path = `/spaces/${created.body.id}`;
    await expectHeld(adminClient, statements, path);
    // The admin's answer is not the guest's, who has no way in yet.
    await read(guestClient, statements, path, 404);

    expect((await adminClient.post(`${path}/permissions`, { role: 'read', users: [guest.userId] })).status).toBe(204);
    const given = await read(guestClient, statements, path);
    expect(given.body.id).toBe(created.body.id);
    await expectHeld(guestClient, statements, path);

    expect((await adminClient.delete(`${path}/permissions/users/${guest.userId}`)).status).toBe(205);
    await read(guestClient, statements, path, 404);
  });

  it('holds a list, and reads it anew once a member, a team or a space is added', async () => {
    const { app, statements } = appCounting();
    const admin = await h.current.newAdmin();
    const client = apiClient(app, admin.token);
    const lists = ['spaces', 'members', 'teams'].map((list) => `/orgs/${admin.organizationId}/${list}`);
    const sizes = async () => {
      const read = await Promise.all(lists.map((path) => client.get(path)));
      for (const res of read) expect(res.status).toBe(200);
      return read.map((res) => res.body.items.length as number);
    };
    const before = await sizes();
    for (const path of lists) await expectHeld(client, statements, path);

    expect((await client.post(`/orgs/${admin.organizationId}/spaces`, { title: 'One more' })).status).toBe(201);
    await h.current.newMember(admin.organizationId, 'read');
    expect((await client.put(`/orgs/${admin.organizationId}/teams`, { title: 'One more', members: [] })).status).toBe(201);
    expect(await sizes()).toEqual(before.map((n) => n + 1));
  });

  it('holds nothing when told not to', async () => {
    const { app, statements } = appCounting(false);
    const admin = await h.current.newAdmin();
    const client = apiClient(app, admin.token);
    const path = `/orgs/${admin.organizationId}`;
    for (let i = 0; i < 3; i++) expect((await read(client, statements, path)).statements).toBeGreaterThan(0);
  });
});
