// A member's space list with grants (issue 35): "a member with 1,000 granted spaces lists their spaces in
// one page as fast as today". Two organizations of 1,000 live spaces each, on PGlite and on PostgreSQL:
//   - today's path: the spaces inherit (defaultLevel `inherit`), the member (role `read`) reaches every one
//     through the organization role;
//   - grants: the spaces are private (defaultLevel null), the member (role `read`) is given `read` on each,
//     and `--others` other members are given a role on every space too (the grants an index must skip).
// The member lists their own spaces (GET /v1/orgs/{id}/members/{self}/spaces?limit=1000: one page of 1,000)
// through the real app over HTTP, the two alternately, and the medians are kept. The target: grants at
// most 1.1x today's path.
//
//   npx tsx bench/granted-spaces.ts [--storage pglite|postgres|both] [--spaces 1000] [--others 10] [--repeats 15]
//
// Rows are seeded with generate_series. Results: bench/results/granted-spaces.json.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { addMember, createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { createDb, type Database } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    spaces: { type: 'string', default: '1000' },
    others: { type: 'string', default: '10' },
    repeats: { type: 'string', default: '15' },
    // Print the plan of the list's query for both members (EXPLAIN ANALYZE) instead of timing it.
    explain: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const spaceCount = Number(opts.spaces);
const others = Number(opts.others);
const repeats = Number(opts.repeats);
const storages = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage];
if (spaceCount > 1000) throw new Error('--spaces: at most 1000 (one page)');

async function openStorage(kind: string): Promise<{ database: Database; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = createDb({ kind: 'pglite' });
    return { database, dispose: () => database.close() };
  }
  return createScratchDatabase(opts['pg-url']!, { prefix: 'bench_granted' });
}

interface Reader {
  organizationId: string;
  userId: string;
  token: string;
}

/** An organization of `spaceCount` spaces and a `read` member who reaches them by `how`. */
async function seedOrganization(database: Database, how: 'inherit' | 'grants'): Promise<Reader> {
  const exec = (text: string) => database.db.execute(text as never);
  const owner = await createUser(database.db, { email: `owner-${how}@bench.example`, displayName: 'Owner' });
  const organization = await createOrganization(database.db, { title: `Bench ${how}`, ownerId: owner.id });
  const reader = await createUser(database.db, { email: `reader-${how}@bench.example`, displayName: 'Reader' });
  await addMember(database.db, organization.id, reader.id, 'read');
  const token = await issueToken(database.db, reader.id, 'bench');
  const level = how === 'inherit' ? `'inherit'` : 'NULL';
  await exec(`INSERT INTO spaces (id, organization_id, title, emoji, visibility, edit_mode, merge_rules, revision_id, position, default_level, created_at, updated_at)
    SELECT 'spc_${how}' || lpad(i::text, 5, '0'), '${organization.id}', 'Space ' || i, '', 'private', 'live', '{"type":"inherit"}', 'rev_${how}' || i,
      'a' || lpad(i::text, 5, '0'), ${level}, now(), now() FROM generate_series(1, ${spaceCount}) i`);
  // Other members, each with a role on every space (grants organization) or none (today's path): same people either way.
  await exec(`INSERT INTO users (id, display_name, email, created_at)
    SELECT 'usr_${how}' || i, 'Other ' || i, 'other' || i || '-${how}@bench.example', now() FROM generate_series(1, ${others}) i`);
  await exec(`INSERT INTO members (organization_id, user_id, role, joined_at)
    SELECT '${organization.id}', 'usr_${how}' || i, 'read', now() FROM generate_series(1, ${others}) i`);
  if (how === 'grants') {
    await exec(`INSERT INTO content_grants (id, organization_id, space_id, user_id, role, created_at)
      SELECT 'grt_bench' || lpad(i::text, 5, '0'), '${organization.id}', 'spc_grants' || lpad(i::text, 5, '0'), '${reader.id}', 'read', now()
      FROM generate_series(1, ${spaceCount}) i`);
    await exec(`INSERT INTO content_grants (id, organization_id, space_id, user_id, role, created_at)
      SELECT 'grt_other' || o || '_' || i, '${organization.id}', 'spc_grants' || lpad(i::text, 5, '0'), 'usr_grants' || o, 'edit', now()
      FROM generate_series(1, ${spaceCount}) i, generate_series(1, ${others}) o`);
  }
  return { organizationId: organization.id, userId: reader.id, token };
}

/** The plan of the member's space list (the shape server/members/member-lists.ts sends: the member is the caller). */
async function explain(database: Database, reader: Reader): Promise<void> {
  const role = (who: string) => `space_role_of(s, '${who}', true, 'read')`;
  const where = `s.organization_id = '${reader.organizationId}' AND s.deleted_at IS NULL AND ${role(reader.userId)} IS NOT NULL AND ${role(reader.userId)} IS NOT NULL`;
  const sql = `EXPLAIN (ANALYZE, COSTS OFF) SELECT s.id, ${role(reader.userId)} AS member_role, ${role(reader.userId)} AS caller_role,
    (SELECT count(*) FROM change_requests x WHERE x.space_id = s.id) AS crs,
    (SELECT count(*) FROM spaces s WHERE ${where}) AS total
    FROM spaces s WHERE ${where} ORDER BY s.id LIMIT 1001`;
  const result = (await database.db.execute(sql as never)) as unknown as { rows: Record<string, string>[] };
  console.log(`--- ${reader.organizationId}\n${result.rows.map((r) => Object.values(r)[0]).join('\n')}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const results: Record<string, unknown> = {};
  for (const kind of storages) {
    const { database, dispose } = await openStorage(kind);
    try {
      await database.migrate();
      console.log(`${kind}: migrated, seeding`);
      const today = await seedOrganization(database, 'inherit');
      const granted = await seedOrganization(database, 'grants');
      await database.db.execute('ANALYZE' as never);
      const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), publicUrl: 'http://bench.example' });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const list = async (reader: Reader) => {
        const started = performance.now();
        const res = await fetch(`${base}/orgs/${reader.organizationId}/members/${reader.userId}/spaces?limit=1000`, {
          headers: { Authorization: `Bearer ${reader.token}` },
        });
        const body = (await res.json()) as { items: unknown[]; next?: unknown };
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
        if (body.items.length !== spaceCount || body.next) throw new Error(`expected ${spaceCount} spaces in one page, got ${body.items.length}`);
        return ms;
      };
      console.log(`${kind}: seeded, listing`);
      if (opts.explain) {
        for (const reader of [today, granted]) await explain(database, reader);
        continue;
      }
      // Warm-up: plans cached, pages in memory, for both.
      for (let i = 0; i < 3; i++) await list(today), await list(granted);
      const todayMs: number[] = [];
      const grantedMs: number[] = [];
      for (let i = 0; i < repeats; i++) {
        todayMs.push(await list(today));
        grantedMs.push(await list(granted));
      }
      const entry = { todayMs: +median(todayMs).toFixed(2), grantsMs: +median(grantedMs).toFixed(2), ratio: +(median(grantedMs) / median(todayMs)).toFixed(2) };
      results[kind] = entry;
      console.log(`${kind.padEnd(9)} today's path ${entry.todayMs} ms, ${spaceCount} grants ${entry.grantsMs} ms, ratio ${entry.ratio}`);
      server.close();
    } finally {
      await dispose();
    }
  }
  const out = path.resolve(import.meta.dirname, 'results/granted-spaces.json');
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), spaces: spaceCount, othersWithGrants: others, limit: 1000, repeats, results }, null, 2) + '\n');
  console.log(`written to ${out}`);
}

await main();
// The app's background work (the PGlite thread, timers) would keep the process alive.
process.exit(0);
