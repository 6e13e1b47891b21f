// The jobs runner on the application's database: exactly-once under racing runners, retries with
// backoff, lease takeover, stop(), and the purge of deleted spaces.
import { eq, inArray, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDb, queryRows, type Db } from '../server/db/client.js';
import { jobs, spaces } from '../server/db/schema/index.js';
import { newId } from '../server/ids.js';
import { enqueueJob } from '../server/jobs/queue.js';
import { jobHandlers, startupJobs } from '../server/jobs/registry.js';
import { createJobRunner, type JobHandler } from '../server/jobs/runner.js';
import { PURGE_DELETED_SPACES } from '../server/spaces/purge.job.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const silent = pino({ level: 'silent' });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger keeping its lines (warn and above), to check what the runner reported. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** A clock the test moves by hand. */
function manualClock(start = Date.now()) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms), at: () => t };
}

async function rowsOf(kind: string) {
  return h.current.db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.id);
}

/** A second connection pool to the harness database on PostgreSQL (a second process, in effect); the harness db on PGlite. */
async function secondDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { db: h.current.db, close: async () => {} };
  const [{ name }] = await queryRows<{ name: string }>(h.current.db, sql`SELECT current_database() AS name`);
  const other = new URL(url);
  other.pathname = `/${name}`;
  const database = createDb({ kind: 'postgres', url: other.toString(), poolSize: 4, onConnectionError: () => {} });
  return { db: database.db, close: () => database.close() };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await pause(10);
  }
}

describe('jobs runner', () => {
  it('two runners racing on one database run each of 50 jobs exactly once', async () => {
    const { db } = h.current;
    const executions = new Map<number, number>();
    const ranBy = new Set<string>();
    const handler =
      (runner: string): JobHandler =>
      async (payload) => {
        const n = (payload as { n: number }).n;
        executions.set(n, (executions.get(n) ?? 0) + 1);
        ranBy.add(runner);
        await pause(2); // a little work, so the runners overlap
      };
    for (let n = 0; n < 50; n++) await enqueueJob(db, { kind: 'race', payload: { n } }, new Date());
    const second = await secondDb();
    const runners = ['a', 'b'].map((name, i) =>
      createJobRunner({ db: i === 0 ? db : second.db, logger: silent, handlers: { race: handler(name) }, pollIntervalMs: 5, concurrency: 2 }),
    );
    try {
      runners.forEach((r) => r.start());
      await until(async () => (await rowsOf('race')).every((row) => row.status === 'done'));
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
      await second.close();
    }
    expect(executions.size).toBe(50);
    expect([...executions.values()].every((count) => count === 1)).toBe(true);
    const rows = await rowsOf('race');
    expect(rows.map((r) => [r.status, r.attempts, r.lockedUntil])).toEqual(rows.map(() => ['done', 1, null]));
    expect(ranBy).toEqual(new Set(['a', 'b']));
  });

  it('retries a failing job with exponential backoff, then marks it failed with the error', async () => {
    const clock = manualClock();
    const t0 = clock.at();
    let calls = 0;
    const runner = createJobRunner({
      db: h.current.db,
      logger: silent,
      now: clock.now,
      handlers: {
        flaky: async () => {
          calls++;
          throw new Error('boom');
        },
      },
      backoff: { baseMs: 1000 },
    });
    await enqueueJob(h.current.db, { kind: 'flaky', maxAttempts: 3 }, clock.now());

    expect(await runner.drain()).toBe(1);
    let [row] = await rowsOf('flaky');
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'boom', lockedUntil: null });
    expect(row.runAt.getTime()).toBe(t0 + 1000); // base × 2^0

    expect(await runner.drain()).toBe(0); // not due before its backoff
    clock.advance(1000);
    expect(await runner.drain()).toBe(1);
    [row] = await rowsOf('flaky');
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row.runAt.getTime()).toBe(t0 + 1000 + 2000); // base × 2^1

    clock.advance(2000);
    expect(await runner.drain()).toBe(1);
    [row] = await rowsOf('flaky');
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: 'boom', lockedUntil: null });
    clock.advance(DAY);
    expect(await runner.drain()).toBe(0);
    expect(calls).toBe(3);
  });

  it('takes over a running job whose lease expired, and leaves one whose lease holds', async () => {
    const clock = manualClock();
    const t = clock.at();
    const ran: string[] = [];
    const orphan = newId('job');
    const held = newId('job');
    const row = { kind: 'orphan', status: 'running', attempts: 1, runAt: new Date(t - 10 * 60_000), createdAt: new Date(t), updatedAt: new Date(t) };
    await h.current.db.insert(jobs).values([
      { ...row, id: orphan, payload: { id: 'orphan' }, lockedUntil: new Date(t - 60_000) }, // its worker died
      { ...row, id: held, payload: { id: 'held' }, lockedUntil: new Date(t + 60_000) }, // its worker is alive
    ]);
    const runner = createJobRunner({
      db: h.current.db,
      logger: silent,
      now: clock.now,
      handlers: { orphan: async (payload) => void ran.push((payload as { id: string }).id) },
    });
    expect(await runner.drain()).toBe(1);
    expect(ran).toEqual(['orphan']);
    const rows = await h.current.db.select().from(jobs).where(inArray(jobs.id, [orphan, held])).orderBy(jobs.id);
    expect(rows.map((r) => [r.id, r.status, r.attempts])).toEqual([
      [orphan, 'done', 2],
      [held, 'running', 1],
    ]);
  });

  it('fails, without running it, a job taken over after the worker of its last attempt died', async () => {
    const t = Date.now();
    let ran = false;
    await h.current.db.insert(jobs).values({
      id: newId('job'),
      kind: 'poison',
      status: 'running',
      attempts: 2,
      maxAttempts: 2,
      runAt: new Date(t - 60_000),
      lockedUntil: new Date(t - 1),
      createdAt: new Date(t),
      updatedAt: new Date(t),
    });
    const settled: unknown[] = [];
    const poison = Object.assign(async () => void (ran = true), { onExhausted: async (payload: unknown) => void settled.push(payload) });
    const runner = createJobRunner({ db: h.current.db, logger: silent, handlers: { poison } });
    expect(await runner.drain()).toBe(1);
    expect(ran).toBe(false);
    // The kind settles its own records (what its last attempt would have marked).
    expect(settled).toEqual([{}]);
    const [row] = await rowsOf('poison');
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row.lastError).toContain('lease expired');
  });

  it('stop() claims no more jobs and waits for the one in progress', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runner = createJobRunner({
      db: h.current.db,
      logger: silent,
      pollIntervalMs: 5,
      handlers: { slow: async () => (started(), gate) },
    });
    await enqueueJob(h.current.db, { kind: 'slow' }, new Date());
    runner.start();
    await running;
    await enqueueJob(h.current.db, { kind: 'slow' }, new Date());

    let stopped = false;
    const stopping = runner.stop().then(() => void (stopped = true));
    await pause(100);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await rowsOf('slow')).map((r) => r.status)).toEqual(['done', 'queued']);
  });

  it('stop() gives up waiting after its timeout, and the job keeps its lease for a takeover', async () => {
    const { logger, lines } = capturingLogger();
    const runner = createJobRunner({
      db: h.current.db,
      logger,
      pollIntervalMs: 5,
      stopTimeoutMs: 50,
      handlers: { stuck: () => new Promise<void>(() => {}) },
    });
    await enqueueJob(h.current.db, { kind: 'stuck' }, new Date());
    runner.start();
    await until(async () => (await rowsOf('stuck'))[0].status === 'running');
    await runner.stop();
    expect(lines.map((l) => l.msg)).toContain('job runner stopped before the job in progress finished');
    expect((await rowsOf('stuck'))[0].lockedUntil!.getTime()).toBeGreaterThan(Date.now());
  });

  it('logs a database error while polling and carries on at the next tick', async () => {
    const { logger, lines } = capturingLogger();
    let failures = 2;
    // The claim is an UPDATE: the first two fail as if the database were unreachable.
    const flakyDb = new Proxy(h.current.db, {
      get(target, prop, receiver) {
        if (prop === 'update' && failures > 0) {
          failures--;
          return () => {
            throw new Error('connection refused');
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    let done = false;
    const runner = createJobRunner({ db: flakyDb, logger, pollIntervalMs: 5, handlers: { after: async () => void (done = true) } });
    await enqueueJob(h.current.db, { kind: 'after' }, new Date());
    runner.start();
    try {
      await until(async () => (await rowsOf('after'))[0].status === 'done');
    } finally {
      await runner.stop();
    }
    expect(done).toBe(true);
    expect(lines.filter((l) => l.msg === 'job runner: database error, retrying')).toHaveLength(2);
  });
});

describe('purge-deleted-spaces', () => {
  it('removes spaces deleted more than 7 days ago, keeps the restorable ones, and reschedules itself once', async () => {
    const admin = await h.current.newAdmin();
    const create = async (title: string) => (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title })).body.id as string;
    const [old, recent, live] = [await create('Old'), await create('Recent'), await create('Live')];
    await admin.api.delete(`/spaces/${old}`);
    h.current.advanceClock(7 * DAY);
    await admin.api.delete(`/spaces/${recent}`);
    h.current.advanceClock(DAY); // old: deleted 8 days ago; recent: 1 day ago

    // The runner shares the app's clock.
    const now = () => h.current.ctx(admin.userId).now();
    for (const job of [...startupJobs(now()), ...startupJobs(now())]) await enqueueJob(h.current.db, job, now());
    expect((await rowsOf(PURGE_DELETED_SPACES)).map((r) => r.status)).toEqual(['queued']); // the second was a no-op

    const runner = createJobRunner({ db: h.current.db, logger: silent, now, handlers: jobHandlers });
    const before = now().getTime();
    expect(await runner.drain()).toBe(1); // the next run is an hour away
    const after = now().getTime();

    const left = await h.current.db.select({ id: spaces.id }).from(spaces).where(inArray(spaces.id, [old, recent, live]));
    expect(left.map((r) => r.id).sort()).toEqual([recent, live].sort());
    expect((await admin.api.post(`/spaces/${old}/restore`)).status).toBe(404);
    expect((await admin.api.post(`/spaces/${recent}/restore`)).status).toBe(200);
    expect((await admin.api.get(`/spaces/${live}`)).body).toMatchObject({ id: live, title: 'Live' });

    const purges = await rowsOf(PURGE_DELETED_SPACES);
    expect(purges.map((r) => [r.status, r.uniqueKey])).toEqual([
      ['done', PURGE_DELETED_SPACES],
      ['queued', PURGE_DELETED_SPACES],
    ]);
    expect(purges[1].runAt.getTime()).toBeGreaterThanOrEqual(before + HOUR);
    expect(purges[1].runAt.getTime()).toBeLessThanOrEqual(after + HOUR);
    // A server start while it is pending adds nothing.
    expect(await enqueueJob(h.current.db, startupJobs(now())[0], now())).toBeNull();
    expect(await rowsOf(PURGE_DELETED_SPACES)).toHaveLength(2);
  });
});
