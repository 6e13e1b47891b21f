// List cost at depth: page 1 and page 1000 (limit 100) of an organization's members and of its spaces,
// over 100,000 rows each, on PGlite and on PostgreSQL. Keyset pagination should make page 1000 cost what
// page 1 costs (the target: at most 1.2x). The pages are reached by following `next.page` from page 1,
// so the cursors are the API's own; then pages 1 and 1000 are timed again, alternately, and medians kept.
//
//   npx tsx bench/lists.ts [--storage pglite|postgres|both] [--rows 100000] [--repeats 15]
//
// Rows are seeded with generate_series (the API would take minutes to create 200,000 rows); the requests
// go through the real app over HTTP. Results: bench/results/lists.json.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { createDb, type Database } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    rows: { type: 'string', default: '100000' },
    repeats: { type: 'string', default: '15' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const rows = Number(opts.rows);
const repeats = Number(opts.repeats);
// The deepest page timed: page 1000 at the default 100,000 rows.
const deepPage = Math.min(1000, Math.floor(rows / 100));
const storages = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage];

async function openStorage(kind: string): Promise<{ database: Database; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = createDb({ kind: 'pglite' });
    return { database, dispose: () => database.close() };
  }
  return createScratchDatabase(opts['pg-url']!, { prefix: 'bench_lists' });
}

/** 100,000 members (each a user) and 100,000 spaces in one organization. */
async function seed(database: Database) {
  const owner = await createUser(database.db, { email: 'owner@bench.example', displayName: 'Owner' });
  const organization = await createOrganization(database.db, { title: 'Bench', ownerId: owner.id });
  const token = await issueToken(database.db, owner.id, 'bench');
  const exec = (text: string) => database.db.execute(text as never);
  await exec(`INSERT INTO users (id, display_name, email, created_at)
    SELECT 'usr_bench' || lpad(i::text, 7, '0'), 'User ' || i, 'user' || i || '@bench.example', now() FROM generate_series(1, ${rows}) i`);
  await exec(`INSERT INTO members (organization_id, user_id, role, joined_at)
    SELECT '${organization.id}', 'usr_bench' || lpad(i::text, 7, '0'), 'read', now() - (i || ' seconds')::interval FROM generate_series(1, ${rows}) i`);
  await exec(`INSERT INTO spaces (id, organization_id, title, emoji, visibility, edit_mode, merge_rules, revision_id, position, created_at, updated_at)
    SELECT 'spc_bench' || lpad(i::text, 7, '0'), '${organization.id}', 'Space ' || i, '', 'private', 'live', '{"type":"inherit"}', 'rev_bench' || i,
      'a' || lpad(i::text, 7, '0'), now(), now() FROM generate_series(1, ${rows}) i`);
  await exec('ANALYZE');
  return { organizationId: organization.id, token };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const results: Record<string, unknown> = {};
  for (const kind of storages) {
    const { database, dispose } = await openStorage(kind);
    try {
      await database.migrate();
      const world = await seed(database);
      const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), publicUrl: 'http://bench.example' });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const get = async (url: string) => {
        const started = performance.now();
        const res = await fetch(url, { headers: { Authorization: `Bearer ${world.token}` } });
        const body = (await res.json()) as { next?: { page: string }; items: unknown[] };
        if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${JSON.stringify(body)}`);
        return { ms: performance.now() - started, body };
      };
      for (const [list, first] of [
        ['members', `${base}/orgs/${world.organizationId}/members?limit=100`],
        ['spaces', `${base}/orgs/${world.organizationId}/spaces?limit=100`],
      ] as const) {
        // Follow next.page to the deep page, keeping its URL.
        let url: string = first;
        for (let page = 1; page < deepPage; page++) {
          const { body } = await get(url);
          if (!body.next) throw new Error(`${list}: no page ${page + 1}`);
          url = `${first}&page=${encodeURIComponent(body.next.page)}`;
        }
        const page1000Url = url;
        const page1: number[] = [];
        const page1000: number[] = [];
        for (let i = 0; i < repeats; i++) {
          page1.push((await get(first)).ms);
          page1000.push((await get(page1000Url)).ms);
        }
        const entry = { page1Ms: +median(page1).toFixed(2), page1000Ms: +median(page1000).toFixed(2), ratio: +(median(page1000) / median(page1)).toFixed(2) };
        results[`${kind} ${list}`] = entry;
        console.log(`${kind.padEnd(9)} ${list.padEnd(8)} page 1 ${entry.page1Ms} ms, page 1000 ${entry.page1000Ms} ms, ratio ${entry.ratio}`);
      }
      server.close();
    } finally {
      await dispose();
    }
  }
  const out = path.resolve(import.meta.dirname, 'results/lists.json');
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), rows, limit: 100, repeats, results }, null, 2) + '\n');
  console.log(`written to ${out}`);
}

await main();
