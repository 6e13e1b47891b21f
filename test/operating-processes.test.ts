// Three server processes on one PostgreSQL database, as behind a load balancer: concurrent change-request
// creates across them get unique numbers, the jobs their writes queue run once each (every process runs
// jobs), the rate-limit count of a token is shared, a deleted token is refused by every process once its
// cache time has passed, and a process killed with SIGKILL leaves the others serving. PostgreSQL only.
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TOKEN_CACHE_TTL_MS } from '../server/auth/authenticate.js';
import { issueToken } from '../server/auth/bootstrap.js';
import { hashToken } from '../server/auth/tokens.js';
import { queryRows } from '../server/db/client.js';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { enqueueJob } from '../server/jobs/queue.js';
import { INDEX_SPACE } from '../server/search/index.job.js';
import { expectDocumentedAnswer } from './support/api.js';
import { call, CHILD_TOKEN, killChild, startChildServer, type ChildServer } from './support/child-server.js';
import { recordToken } from './support/suite-log.js';

const adminUrl = process.env.DATABASE_URL;
// Above what the bootstrap token sends in a minute here (its creates and merges), so only the limited token meets it.
const LIMIT = 120;

async function getWith(server: ChildServer, token: string, pathname = '/user') {
  const res = await fetch(`${server.url}/v1${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  expectDocumentedAnswer('get', `/v1${pathname}`, res.status, await res.clone().json(), res.headers);
  return res;
}

describe.skipIf(!adminUrl)('three processes on one PostgreSQL', () => {
  let scratch: ScratchDatabase | undefined;
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await killChild(server);
    await scratch?.dispose();
  });

  it('share numbers, run each job once, share rate limits and token revocation, and keep serving when one is killed', { timeout: 240_000 }, async () => {
    scratch = await createScratchDatabase(adminUrl!, { prefix: 'dwapi_processes', template: inject('postgresTemplate'), poolSize: 2 });
    const env = { DATABASE_URL: scratch.url, RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    // The first one bootstraps the database; the other two find it ready.
    servers.push(await startChildServer(env));
    servers.push(...(await Promise.all([startChildServer(env), startChildServer(env)])));
    const [a, b, c] = servers;

    // Change-request numbers: 24 creates at once, spread over the three processes.
    const org = (await call(a.url, 'GET', '/orgs')).body.items[0].id as string;
    const space = (await call(b.url, 'POST', `/orgs/${org}/spaces`, { title: 'Shared' })).body.id as string;
    const created = await Promise.all(Array.from({ length: 24 }, (_, i) => call(servers[i % 3].url, 'POST', `/spaces/${space}/change-requests`, { subject: `CR ${i}` })));
    expect(created.map((r) => r.status)).toEqual(Array(24).fill(201));
    expect(created.map((r) => r.body.number as number).sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));

    // Jobs: nine merges, each in a space of its own and spread over the processes, then nine search-index
    // jobs for those spaces (as a release before this one queued for each write: writes now index at
    // commit) that all three processes' runners compete for. Each runs once: a run starts with a claim, which
    // counts an attempt in the same statement that takes the job (server/jobs/claims.ts), so a job run
    // twice, at once or one after the other, would show 2.
    const merged = await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const server = servers[i % 3];
        const own = await call(server.url, 'POST', `/orgs/${org}/spaces`, { title: `Indexed ${i}` });
        expect(own.status).toBe(201);
        const cr = await call(server.url, 'POST', `/spaces/${own.body.id}/change-requests`, { subject: `Page ${i}` });
        expect(cr.status).toBe(201);
        const content = `/spaces/${own.body.id}/change-requests/${cr.body.id}/content?compat=false`;
        const wrote = await call(server.url, 'POST', content, { changes: [{ operation: 'insert_page', document: { markdown: `# Page ${i}\n\nIndexed once.` } }] });
        expect(wrote.status).toBe(200);
        const merge = await call(servers[(i + 1) % 3].url, 'POST', `/spaces/${own.body.id}/change-requests/${cr.body.id}/merge`);
        expect(merge.status).toBe(200);
        return own.body.id as string;
      }),
    );
    const now = new Date();
    for (const spaceId of merged) await enqueueJob(scratch!.database.db, { kind: INDEX_SPACE, payload: { spaceId }, uniqueKey: `${INDEX_SPACE}:${spaceId}`, runAt: now, maxAttempts: 10 }, now);
    const indexJobs = async () =>
      queryRows<{ id: string; status: string; attempts: number; space: string }>(
        scratch!.database.db,
        sql`SELECT id, status, attempts, payload->>'spaceId' AS space FROM jobs WHERE kind = 'index-space-search'`,
      );
    for (const deadline = Date.now() + 60_000; (await indexJobs()).some((job) => job.status !== 'done'); ) {
      if (Date.now() > deadline) throw new Error(`index jobs not done within 60 s: ${JSON.stringify(await indexJobs())}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const jobsRun = await indexJobs();
    expect(new Set(jobsRun.map((job) => job.space))).toEqual(new Set(merged));
    expect(jobsRun.map((job) => job.attempts)).toEqual(jobsRun.map(() => 1));

    // Rate limits: a token's LIMIT requests spread over three processes (LIMIT / 3 each) use up its minute
    // on all of them, once their counts are shared (every 0.5 s).
    const [{ user_id: userId }] = await queryRows<{ user_id: string }>(scratch.database.db, sql`SELECT user_id FROM api_tokens LIMIT 1`);
    const limited = await issueToken(scratch.database.db, userId, 'rate-limit test');
    recordToken(limited);
    // Fresh minute: not to straddle two windows.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 500));
    const statuses = await Promise.all(Array.from({ length: LIMIT }, (_, i) => getWith(servers[i % 3], limited).then((r) => r.status)));
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const server of servers) {
      const res = await getWith(server, limited);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    // A deleted token: known to (cached by) every process, refused by all once the cache time has passed.
    const revoked = await issueToken(scratch.database.db, userId, 'revoked');
    recordToken(revoked);
    for (const server of servers) expect((await getWith(server, revoked)).status).toBe(200);
    await scratch.database.db.execute(sql`DELETE FROM api_tokens WHERE token_hash = ${hashToken(revoked)}`);
    await new Promise((resolve) => setTimeout(resolve, TOKEN_CACHE_TTL_MS + 500));
    for (const server of servers) expect((await getWith(server, revoked)).status).toBe(401);

    // One process killed under load: three clients, one on each process, each sending 25 reads; c is killed
    // once it has answered some, with its client's requests still coming. Those reach nothing (the
    // connection is refused or cut) and are sent again to a, as a load balancer retries an idempotent
    // request; a and b answer every request of theirs, before and after the kill, and every retry.
    const loadToken = await issueToken(scratch.database.db, userId, 'load');
    recordToken(loadToken);
    const answered: Record<'a' | 'b' | 'c', number[]> = { a: [], b: [], c: [] };
    const retried: number[] = [];
    const client = async (server: ChildServer, name: 'a' | 'b' | 'c') => {
      for (let i = 0; i < 25; i++) {
        const res = await getWith(server, loadToken, `/spaces/${space}`).catch(() => undefined);
        if (res) answered[name].push(res.status);
        else {
          expect(name, 'only the killed process fails to answer').toBe('c');
          retried.push((await getWith(a, loadToken, `/spaces/${space}`)).status);
        }
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    };
    const clients = [client(a, 'a'), client(b, 'b'), client(c, 'c')];
    while (answered.c.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    c.kill('SIGKILL');
    expect((await c.exited).signal).toBe('SIGKILL');
    await Promise.all(clients);
    expect(answered.a).toEqual(Array(25).fill(200));
    expect(answered.b).toEqual(Array(25).fill(200));
    // c served until it was killed, and not after: the rest of its client's requests went to a.
    expect(answered.c.length).toBeGreaterThanOrEqual(5);
    expect(answered.c.length).toBeLessThan(25);
    expect(answered.c).toEqual(answered.c.map(() => 200));
    expect(retried).toEqual(Array(25 - answered.c.length).fill(200));
    const after = await call(b.url, 'POST', `/spaces/${space}/change-requests`, { subject: 'After the kill' });
    expect(after.status).toBe(201);
    expect(after.body.number).toBe(25);
  });
});
