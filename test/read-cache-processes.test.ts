// Two server processes on one PostgreSQL database, each holding the answers of its readers
// (server/http/read-cache.ts): a write answered by one is seen by the other's next read, with no wait, and so
// is a change made straight in the database. PostgreSQL only (PGlite is one process's).
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { queryRows } from '../server/db/client.js';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { call, killChild, startChildServer, type ChildServer } from './support/child-server.js';

const adminUrl = process.env.DATABASE_URL;

describe.skipIf(!adminUrl)('two processes holding the answers of their readers', () => {
  let scratch: ScratchDatabase | undefined;
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await killChild(server);
    await scratch?.dispose();
  });

  it('show a write made in the other at the next read, and a change made in the database', { timeout: 120_000 }, async () => {
    scratch = await createScratchDatabase(adminUrl!, { prefix: 'dwapi_read_cache', template: inject('postgresTemplate'), poolSize: 2 });
    const env = { DATABASE_URL: scratch.url };
    servers.push(...(await Promise.all([startChildServer(env), startChildServer(env)])));
    const [a, b] = servers;

    const org = (await call(a.url, 'GET', '/orgs')).body.items[0].id as string;
    const space = await call(a.url, 'POST', `/orgs/${org}/spaces`, { title: 'Version 0' });
    expect(space.status).toBe(201);
    const path = `/spaces/${space.body.id}`;
    const titleOn = async (server: ChildServer) => {
      const res = await call(server.url, 'GET', path);
      expect(res.status).toBe(200);
      return res.body.title as string;
    };

    // B reads the space (and holds it) before each write in A, and reads it again once A answered.
    for (let version = 1; version <= 5; version++) {
      expect(await titleOn(b)).toBe(`Version ${version - 1}`);
      expect(await titleOn(b)).toBe(`Version ${version - 1}`);
      const renamed = await call(a.url, 'PATCH', path, { title: `Version ${version}` });
      expect(renamed.status).toBe(200);
      expect(await titleOn(b)).toBe(`Version ${version}`);
    }

    // Straight in the database, as a tool would: both processes read it anew.
    for (const server of [a, b]) expect(await titleOn(server)).toBe('Version 5');
    await queryRows(scratch.database.db, sql`UPDATE spaces SET title = 'Renamed in the database' WHERE id = ${space.body.id}`);
    for (const server of [b, a]) expect(await titleOn(server)).toBe('Renamed in the database');
    await queryRows(scratch.database.db, sql`UPDATE spaces SET deleted_at = now() WHERE id = ${space.body.id}`);
    for (const server of [a, b]) expect((await call(server.url, 'GET', path)).status).toBe(404);
  });
});
