// `npm run admin -- copy-to-postgres`: a workspace filled on PGlite (the demo workspace: every kind of
// resource), copied into a fresh PostgreSQL database, answers the same reads there as on PGlite; the copy
// keeps ids, order keys, tokens and jobs, and a second copy into the now filled database is refused.
// PostgreSQL pass only (it needs a PostgreSQL server to copy into).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb, queryRows } from '../server/db/client.js';
import { seedDemoWorkspace } from '../server/demo/seed.js';
import { killChild, startChildServer, type ChildServer } from './support/child-server.js';
import { recordToken } from './support/suite-log.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const serverUrl = process.env.DATABASE_URL;
const TOKEN = 'copy-test-owner-token-0123456789';
const PUBLIC_URL = 'https://copy.test.example';

/** The admin CLI as an operator runs it; resolves with its exit code and output. */
async function admin(env: Record<string, string>, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

async function get(server: ChildServer, pathname: string): Promise<unknown> {
  const res = await fetch(`${server.url}/v1${pathname}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status, `GET ${pathname}`).toBe(200);
  return res.json();
}

/** The same reads on any server: the organization, its lists, and every space with its content and change requests. */
async function reads(server: ChildServer, organizationId: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const p of ['/user', '/orgs', `/orgs/${organizationId}`, `/orgs/${organizationId}/members`, `/orgs/${organizationId}/teams`, `/orgs/${organizationId}/collections`, `/orgs/${organizationId}/sites`, `/orgs/${organizationId}/openapi`, `/orgs/${organizationId}/translations`, `/orgs/${organizationId}/change-requests`]) {
    out[p] = await get(server, p);
  }
  const spaces = (await get(server, `/orgs/${organizationId}/spaces`)) as { items: { id: string }[] };
  out.spaces = spaces;
  for (const { id } of spaces.items) {
    for (const p of [`/spaces/${id}`, `/spaces/${id}/content`, `/spaces/${id}/content/pages`, `/spaces/${id}/change-requests`, `/spaces/${id}/comments`]) out[p] = await get(server, p);
  }
  return out;
}

/** Rows that must come over exactly, read straight from a database. */
async function keyRows(query: (text: string) => Promise<Record<string, unknown>[]>) {
  return {
    tokens: await query('SELECT id, user_id, token_hash FROM api_tokens ORDER BY id'),
    spaces: await query('SELECT id, position, title FROM spaces ORDER BY id'),
    jobs: await query('SELECT id, kind, status, run_at::text, attempts, payload::text FROM jobs ORDER BY id'),
    changeRequests: await query('SELECT id, space_id, number FROM change_requests ORDER BY id'),
  };
}

describe.skipIf(!serverUrl)('copy-to-postgres', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copy-test-'));
  const databaseName = `copytest_${randomBytes(6).toString('hex')}`;
  const targetUrl = serverUrl ? Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).toString() : '';
  const servers: ChildServer[] = [];
  recordToken(TOKEN);

  afterAll(async () => {
    for (const server of servers) await killChild(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (!serverUrl) return;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  });

  it('copies everything into an empty database, which then answers the same reads, and refuses a second copy', { timeout: 300_000 }, async () => {
    // A workspace on PGlite: the demo data holds every kind of resource. The folder starts as the suite's
    // migrated template (what a first start leaves), which saves running every migration in WebAssembly.
    execFileSync('tar', ['xf', inject('pgliteTemplate'), '-C', dataDir]);
    const source = createDb({ kind: 'pglite', dataDir, thread: false });
    await source.migrate();
    const { organizationId } = await seedDemoWorkspace(source.db, { ownerToken: TOKEN });
    await source.close();
    const creator = new pg.Client({ connectionString: serverUrl });
    await creator.connect();
    await creator.query(`CREATE DATABASE ${databaseName}`);
    await creator.end();

    const copied = await admin({ DATA_DIR: dataDir }, 'copy-to-postgres', '--database-url', targetUrl);
    expect(copied.output).toMatch(/Copied \d+ rows of \d+ tables/);
    expect(copied.output).toMatch(/^ {2}spaces: \d+ rows$/m);
    expect(copied.code).toBe(0);

    const again = await admin({ DATA_DIR: dataDir }, 'copy-to-postgres', '--database-url', targetUrl);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/The target database is not empty \(rows in .*spaces/);

    // The rows that identify things came over unchanged.
    const reopened = createDb({ kind: 'pglite', dataDir, thread: false });
    const pool = new pg.Pool({ connectionString: targetUrl, max: 1 });
    const fromSource = await keyRows(async (text) => await queryRows<Record<string, unknown>>(reopened.db, sql.raw(text)));
    const fromTarget = await keyRows(async (text) => (await pool.query(text)).rows);
    await reopened.close();
    await pool.end();
    expect(fromSource.spaces.length).toBeGreaterThan(0);
    expect(fromSource.jobs.length).toBeGreaterThan(0);
    expect(fromTarget).toEqual(fromSource);

    // The same reads, answered by a server on each storage (one at a time: the PGlite one holds DATA_DIR).
    const embedded = await startChildServer({ DATA_DIR: dataDir, PUBLIC_URL });
    servers.push(embedded);
    const onPglite = await reads(embedded, organizationId);
    embedded.kill('SIGTERM');
    expect((await embedded.exited).code).toBe(0);
    const postgres = await startChildServer({ DATABASE_URL: targetUrl, PUBLIC_URL });
    servers.push(postgres);
    const onPostgres = await reads(postgres, organizationId);
    expect(Object.keys(onPostgres).length).toBeGreaterThan(15);
    expect(onPostgres).toEqual(onPglite);
  });
});
