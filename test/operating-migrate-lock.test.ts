// Migrations under the start-up lock. Three server processes started at once on an empty PostgreSQL
// database: one migrates and bootstraps, the others wait for it and find both done, and all three serve
// (PostgreSQL only: on PGlite the DATA_DIR lock lets one process in). And `npm run migrate`, on both
// storages: applies what is pending, then says the database is up to date.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../server/db/client.js';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { sourceBundle } from '../scripts/source-bundle.mjs';
import { call, killChild, startChildServer, type ChildServer } from './support/child-server.js';

const adminUrl = process.env.DATABASE_URL;
const root = path.resolve(import.meta.dirname, '..');
const migrationCount = readdirSync(path.join(root, 'server/db/migrations')).filter((f) => f.endsWith('.sql')).length;

/** The "database migrated" line of a server's JSON log. */
function migratedLine(server: ChildServer): { applied: number; waited: boolean } {
  const line = server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; applied: number; waited: boolean })
    .find((l) => l.msg === 'database migrated');
  if (!line) throw new Error(`no "database migrated" line in:\n${server.output()}`);
  return line;
}

describe.skipIf(!adminUrl)('migrations on one PostgreSQL', () => {
  let scratch: ScratchDatabase | undefined;
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await killChild(server);
    await scratch?.dispose();
  });

  it('three processes started at once on an empty database: one migrates and bootstraps, the others wait, all serve', { timeout: 180_000 }, async () => {
    scratch = await createScratchDatabase(adminUrl!, { prefix: 'dwapi_migrate_lock', poolSize: 2 }); // empty: no template
    const env = { DATABASE_URL: scratch.url };
    await sourceBundle('server/main.ts', { name: 'server' }); // built once, before the three start
    servers.push(...(await Promise.all([startChildServer(env), startChildServer(env), startChildServer(env)])));

    const lines = servers.map(migratedLine);
    // Exactly one applied every migration; the others applied none (without the lock each would have run them).
    expect(lines.map((l) => l.applied).sort((a, b) => b - a)).toEqual([migrationCount, 0, 0]);
    const recorded = await queryRows<{ count: number }>(scratch.database.db, sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`);
    expect(recorded[0].count).toBe(migrationCount);
    // One bootstrap: one user, one organization, whichever process made them.
    const users = await queryRows<{ count: number }>(scratch.database.db, sql`SELECT count(*)::int AS count FROM users`);
    expect(users[0].count).toBe(1);
    for (const server of servers) {
      const orgs = await call(server.url, 'GET', '/orgs');
      expect(orgs.status).toBe(200);
      expect(orgs.body.items).toHaveLength(1);
    }
    // The processes that did not migrate had to wait for the one that did, unless one came after it was done.
    const waited = lines.filter((l) => l.waited);
    for (const line of waited) expect(line.applied).toBe(0);
  });
});

describe('npm run migrate', () => {
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await scratch?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies the pending migrations, then finds the database up to date', { timeout: 120_000 }, async () => {
    let env: Record<string, string>;
    if (adminUrl) {
      scratch = await createScratchDatabase(adminUrl, { prefix: 'dwapi_migrate', poolSize: 1 });
      env = { DATABASE_URL: scratch.url };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'dwapi-migrate-'));
      env = { DATA_DIR: dataDir };
    }
    const entry = await sourceBundle('server/migrate.ts', { name: 'migrate' });
    const run = () => promisify(execFile)(process.execPath, [entry], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
    expect((await run()).stdout).toContain(`Applied ${migrationCount} migrations.`);
    expect((await run()).stdout).toContain('The database is up to date.');
  });
});
