// The job runner (server/jobs/runner.ts) on an in-memory PGlite migrated once for the file: which jobs it
// runs, what a success and a failure leave in the row (retries after the backoff, failed for good at the
// last attempt), a job taken over after its last worker died, the lease's heartbeat, and the poll loops
// (concurrency, stop). The statements themselves are pinned by job-claims.test.ts; test/jobs.test.ts races
// runners on both storages.
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Database, type Db } from '../../server/db/client.js';
import { jobs } from '../../server/db/schema/index.js';
import { createJobRunner, type JobContext, type JobHandler, type JobRunnerOptions } from '../../server/jobs/runner.js';

let database: Database;
const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
let clock = t0;

beforeAll(async () => {
  database = createDb({ kind: 'pglite', thread: false });
  await database.migrate();
}, 60_000);
afterAll(async () => database.close());
beforeEach(async () => {
  await database.db.delete(jobs);
  clock = t0;
});

async function insert(id: string, over: Partial<typeof jobs.$inferInsert> = {}) {
  await database.db.insert(jobs).values({ id, kind: 'k', runAt: t0, createdAt: t0, updatedAt: t0, ...over });
}
const row = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await wait(5);
  }
}

interface Entry {
  level: 'info' | 'warn' | 'error';
  bindings: Record<string, unknown>;
  fields: Record<string, unknown>;
  msg: string;
}
/** A logger keeping what the runner logs, with the bindings of the child it was logged on. */
function recorder() {
  const entries: Entry[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const at = (level: Entry['level']) => (a: unknown, b?: string) =>
      entries.push(typeof a === 'string' ? { level, bindings, fields: {}, msg: a } : { level, bindings, fields: a as Record<string, unknown>, msg: b! });
    return { child: (more: Record<string, unknown>) => make({ ...bindings, ...more }), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  };
  return { logger: make({}), entries, messages: () => entries.map((e) => `${e.level}: ${e.msg}`) };
}

/** The database with its UPDATE statements counted; those `lost` picks find no row (another worker holds it). */
function watchedDb(lost: (n: number) => boolean = () => false) {
  const watch = { seen: 0 };
  const db = new Proxy(database.db, {
    get(target, property, receiver) {
      if (property !== 'update') return Reflect.get(target, property, receiver);
      watch.seen++;
      if (!lost(watch.seen)) return Reflect.get(target, property, receiver);
      const chain = { set: () => chain, where: () => chain, returning: async () => [] };
      return () => chain;
    },
  }) as Db;
  return { db, watch };
}

function runner(handlers: Record<string, JobHandler>, more: Partial<JobRunnerOptions> = {}) {
  const log = recorder();
  return { ...log, runner: createJobRunner({ db: database.db, logger: log.logger, handlers, now: () => clock, ...more }) };
}

describe('runOnce: one due job', () => {
  it('claims nothing without handlers, and nothing when no job of its kinds is due', async () => {
    await insert('j');
    expect(await runner({}).runner.runOnce()).toBe(false);
    expect(await row('j')).toMatchObject({ status: 'queued', attempts: 0 });
    const { runner: other } = runner({ x: async () => undefined });
    expect(await other.runOnce()).toBe(false);
    await insert('later', { kind: 'x', runAt: at(1) });
    expect(await other.runOnce()).toBe(false);
    expect(await row('j')).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('runs the job with its payload and context, marks it done and enqueues its follow-ups', async () => {
    await insert('j', { payload: { n: 1 } });
    const seen: unknown[] = [];
    const { runner: r, entries } = runner({
      k: async (payload, ctx: JobContext) => {
        seen.push(payload, ctx.job.id, ctx.job.attempts, ctx.now(), ctx.db === database.db);
        ctx.enqueueOnSuccess({ kind: 'next', payload: { n: 2 }, runAt: at(60_000) });
        ctx.log.info('inside');
      },
    });
    expect(await r.runOnce()).toBe(true);
    expect(seen).toEqual([{ n: 1 }, 'j', 1, t0, true]);
    expect(await row('j')).toMatchObject({ status: 'done', attempts: 1, lockedUntil: null, lastError: null, updatedAt: t0 });
    const followUps = await database.db.select().from(jobs).where(eq(jobs.kind, 'next'));
    expect(followUps.map((f) => [f.status, f.payload, f.runAt])).toEqual([['queued', { n: 2 }, at(60_000)]]);
    expect(entries).toEqual([
      { level: 'info', bindings: { jobId: 'j', kind: 'k', attempt: 1 }, fields: {}, msg: 'inside' },
      { level: 'info', bindings: { jobId: 'j', kind: 'k', attempt: 1 }, fields: { durationMs: expect.any(Number) }, msg: 'job done' },
    ]);
    expect(entries[1].fields.durationMs).toBeGreaterThanOrEqual(0);
    expect(entries[1].fields.durationMs).toBeLessThan(60_000);
    // Done: nothing due any more (the follow-up is of another kind, and later).
    expect(await r.runOnce()).toBe(false);
  });

  it('retries a failed job after the backoff (1 s, then doubling), then fails it for good at its last attempt', async () => {
    await insert('j', { maxAttempts: 3 });
    const attempts: number[] = [];
    const { runner: r, entries } = runner({
      k: async (_payload, ctx) => {
        attempts.push(ctx.job.attempts);
        throw new Error(`boom ${ctx.job.attempts}`);
      },
    });
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'queued', runAt: at(1000), lockedUntil: null, lastError: 'boom 1', attempts: 1 });
    expect(entries.at(-1)).toMatchObject({ level: 'warn', msg: 'job failed; will retry', fields: { retryAt: at(1000), err: { message: 'boom 1' } } });
    // Not due before its time.
    clock = at(999);
    expect(await r.runOnce()).toBe(false);
    clock = at(1000);
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'queued', runAt: at(3000), lastError: 'boom 2', attempts: 2 });
    clock = at(3000);
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'failed', runAt: at(1000 + 2000), lockedUntil: null, lastError: 'boom 3', attempts: 3 });
    expect(entries.at(-1)).toMatchObject({ level: 'error', msg: 'job failed for good', fields: { err: { message: 'boom 3' } } });
    expect(entries.at(-1)?.fields).not.toHaveProperty('retryAt');
    clock = at(1_000_000);
    expect(await r.runOnce()).toBe(false);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('stops renewing the lease of a failed job', async () => {
    await insert('j', { maxAttempts: 2 });
    const { runner: r, messages } = runner({ k: async () => Promise.reject(new Error('no')) }, { leaseMs: 15 });
    await r.runOnce();
    await wait(60);
    expect(messages()).toEqual(['warn: job failed; will retry']);
    expect(await row('j')).toMatchObject({ status: 'queued', lockedUntil: null });
  });

  it('reads the wall clock when given none', async () => {
    await insert('j');
    const before = Date.now();
    const seen: Date[] = [];
    const { runner: r } = runner({ k: async (_p, ctx) => void seen.push(ctx.now()) }, { now: undefined });
    expect(await r.runOnce()).toBe(true);
    expect(seen[0].getTime()).toBeGreaterThanOrEqual(before);
    expect(seen[0].getTime()).toBeLessThanOrEqual(Date.now());
    expect((await row('j')).updatedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('waits as the backoff options say', async () => {
    await insert('j', { maxAttempts: 4 });
    const { runner: r } = runner({ k: async () => Promise.reject(new Error('no')) }, { backoff: { baseMs: 10, maxMs: 15 } });
    await r.runOnce();
    expect((await row('j')).runAt).toEqual(at(10));
    clock = at(10);
    await r.runOnce();
    expect((await row('j')).runAt).toEqual(at(25));
  });

  it('records what was thrown, whatever it was', async () => {
    const thrown: unknown[] = ['plain text', { message: 'an object' }, 42, new Error('outer', { cause: new Error('inner') })];
    const { runner: r } = runner({
      k: async (payload) => {
        throw thrown[payload as number];
      },
    });
    for (const [i] of thrown.entries()) await insert(`j${i}`, { payload: i, maxAttempts: 1, runAt: at(-10 + i) });
    expect(await r.drain()).toBe(4);
    expect((await database.db.select().from(jobs).orderBy(jobs.runAt)).map((j) => [j.status, j.lastError])).toEqual([
      ['failed', 'plain text'],
      ['failed', 'an object'],
      ['failed', '42'],
      ['failed', 'outer'],
    ]);
  });

  it('fails a job whose kind lost its handler after the runner was made', async () => {
    await insert('j', { maxAttempts: 1 });
    const handlers: Record<string, JobHandler> = { k: async () => undefined };
    const { runner: r } = runner(handlers);
    delete handlers.k;
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'failed', lastError: 'No handler for job kind k' });
  });
});

describe('a job taken over after its worker died', () => {
  it('runs it again when attempts are left', async () => {
    await insert('j', { status: 'running', attempts: 1, maxAttempts: 2, lockedUntil: at(-1) });
    const ran: number[] = [];
    const { runner: r } = runner({ k: async (_p, ctx) => void ran.push(ctx.job.attempts) });
    expect(await r.runOnce()).toBe(true);
    expect(ran).toEqual([2]);
    expect(await row('j')).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('fails it without running it after its last attempt, and lets its kind settle its records', async () => {
    await insert('j', { status: 'running', attempts: 2, maxAttempts: 2, lockedUntil: at(-1), payload: { p: 1 } });
    let ran = false;
    const settled: unknown[] = [];
    const handler: JobHandler = Object.assign(
      async () => {
        ran = true;
      },
      {
        onExhausted: async (payload: unknown, ctx: JobContext) => {
          settled.push(payload, ctx.job.id, ctx.job.attempts, ctx.now(), ctx.db === database.db);
          ctx.enqueueOnSuccess({ kind: 'never' });
        },
      },
    );
    const { runner: r, entries } = runner({ k: handler });
    expect(await r.runOnce()).toBe(true);
    expect(ran).toBe(false);
    expect(settled).toEqual([{ p: 1 }, 'j', 3, t0, true]);
    expect(await row('j')).toMatchObject({
      status: 'failed',
      attempts: 3,
      lockedUntil: null,
      lastError: 'The worker of its last attempt stopped before finishing (lease expired)',
    });
    expect(await database.db.select().from(jobs).where(eq(jobs.kind, 'never'))).toEqual([]);
    expect(entries.map((e) => [e.level, e.msg, e.bindings])).toEqual([['error', 'job failed: lease expired on its last attempt', { jobId: 'j', kind: 'k', attempt: 3 }]]);
  });

  it('logs a failure to settle, and a kind without a settler is only failed', async () => {
    await insert('j', { status: 'running', attempts: 1, maxAttempts: 1, lockedUntil: at(-1) });
    const failing: JobHandler = Object.assign(async () => undefined, { onExhausted: async () => Promise.reject(new Error('cannot settle')) });
    const { runner: r, messages, entries } = runner({ k: failing });
    expect(await r.runOnce()).toBe(true);
    expect(messages()).toEqual(['error: job failed: lease expired on its last attempt', 'error: job failed: settling its records failed']);
    expect(entries[1].fields).toMatchObject({ err: { message: 'cannot settle' } });
    await insert('k2', { status: 'running', attempts: 1, maxAttempts: 1, lockedUntil: at(-1) });
    const plain = runner({ k: async () => undefined });
    expect(await plain.runner.runOnce()).toBe(true);
    expect(await row('k2')).toMatchObject({ status: 'failed' });
    expect(plain.messages()).toEqual(['error: job failed: lease expired on its last attempt']);
  });
});

describe('a job taken over after its last attempt, continued', () => {
  it('does nothing more when its failure could not be recorded (another worker holds it)', async () => {
    await insert('j', { status: 'running', attempts: 1, maxAttempts: 1, lockedUntil: at(-1) });
    let settled = false;
    const handler: JobHandler = Object.assign(async () => undefined, {
      onExhausted: async () => {
        settled = true;
      },
    });
    // The claim (the first UPDATE) runs; the failure's (the second) finds the row held by another worker.
    const { db, watch } = watchedDb((n) => n === 2);
    const { runner: r, messages } = runner({ k: handler }, { db });
    expect(await r.runOnce()).toBe(true);
    expect(watch.seen).toBe(2);
    expect(settled).toBe(false);
    expect(messages()).toEqual([]);
  });

  it('is failed even when its kind lost its handler', async () => {
    await insert('j', { status: 'running', attempts: 1, maxAttempts: 1, lockedUntil: at(-1) });
    const handlers: Record<string, JobHandler> = { k: async () => undefined };
    const { runner: r, messages } = runner(handlers);
    delete handlers.k;
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'failed' });
    expect(messages()).toEqual(['error: job failed: lease expired on its last attempt']);
  });
});

describe('the lease while a job runs', () => {
  it('is renewed about every third of the lease', async () => {
    await insert('j');
    const { db, watch } = watchedDb();
    let renewals = 0;
    const { runner: r } = runner(
      {
        k: async () => {
          const before = watch.seen;
          await wait(300);
          renewals = watch.seen - before;
        },
      },
      { db, leaseMs: 150 },
    );
    expect(await r.runOnce()).toBe(true);
    // Every 50 ms over 300 ms: about six, whatever the load (a lease of 450 ms would make none, one of 1 ms hundreds).
    expect(renewals).toBeGreaterThanOrEqual(2);
    expect(renewals).toBeLessThanOrEqual(7);
  });

  it('is renewed every third of the lease, from the runner’s clock, and no more once the job is done', async () => {
    await insert('j');
    const { runner: r, messages } = runner(
      {
        k: async () => {
          clock = at(100_000);
          await until(async () => (await row('j')).lockedUntil?.getTime() === at(100_060).getTime());
        },
      },
      { leaseMs: 60 },
    );
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'done', lockedUntil: null, updatedAt: at(100_000) });
    await wait(80);
    expect(messages()).toEqual(['info: job done']);
  });

  it('warns when another worker took the job over, and then records neither its success nor its failure', async () => {
    await insert('a');
    await insert('b', { runAt: at(1) });
    const takeOver = (id: string) => database.db.update(jobs).set({ attempts: 7 }).where(eq(jobs.id, id));
    const { runner: r, messages, entries } = runner(
      {
        k: async (_p, ctx) => {
          await takeOver(ctx.job.id);
          await until(() => messages().includes('warn: job lease was taken over while it ran'));
          if (ctx.job.id === 'b') throw new Error('late failure');
        },
      },
      { leaseMs: 30 },
    );
    expect(await r.runOnce()).toBe(true);
    expect(messages()).toContain('warn: job finished after its lease was taken over; the new holder decides');
    expect(await row('a')).toMatchObject({ status: 'running', attempts: 7 });
    clock = at(1);
    expect(await r.runOnce()).toBe(true);
    expect(messages().at(-1)).toBe('warn: job failed after its lease was taken over; the new holder decides');
    expect(entries.at(-1)?.fields).toMatchObject({ err: { message: 'late failure' } });
    expect(await row('b')).toMatchObject({ status: 'running', attempts: 7, lastError: null });
  });

  it('warns when a renewal fails, and the job still completes', async () => {
    await insert('j');
    let failUpdates = false;
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'update' && failUpdates)
          return () => {
            throw new Error('connection lost');
          };
        return Reflect.get(target, property, receiver);
      },
    }) as Db;
    const { runner: r, entries } = runner(
      {
        k: async () => {
          failUpdates = true;
          await until(() => entries.some((e) => e.msg === 'job lease renewal failed' && (e.fields.err as Error).message === 'connection lost'));
          failUpdates = false;
        },
      },
      { db, leaseMs: 30 },
    );
    expect(await r.runOnce()).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'done' });
  });
});

describe('the poll loops', () => {
  /** A handler counting how many of its jobs run at once, each holding on for `ms`. */
  function counting(ms: number) {
    const state = { running: 0, most: 0, done: 0 };
    const handler: JobHandler = async () => {
      state.running++;
      state.most = Math.max(state.most, state.running);
      await wait(ms);
      state.running--;
      state.done++;
    };
    return { state, handler };
  }

  it('runs due jobs back to back, one at a time by default, and sleeps when none is due', async () => {
    for (const id of ['a', 'b', 'c']) await insert(id);
    const { state, handler } = counting(20);
    // A poll interval longer than the test: only a loop that goes on while jobs are due finishes them.
    const { runner: r } = runner({ k: handler }, { pollIntervalMs: 60_000 });
    r.start();
    r.start();
    await until(() => state.done === 3);
    expect(state.most).toBe(1);
    const started = Date.now();
    await r.stop();
    // stop() cuts the sleep short.
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('runs as many jobs at once as its concurrency', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await insert(id);
    const { state, handler } = counting(60);
    const { runner: r } = runner({ k: handler }, { concurrency: 2, pollIntervalMs: 10 });
    r.start();
    await until(() => state.done === 4);
    await r.stop();
    expect(state.most).toBe(2);
  });

  it('polls again after its interval for jobs that became due', async () => {
    const { state, handler } = counting(0);
    const { runner: r } = runner({ k: handler }, { pollIntervalMs: 10 });
    r.start();
    await wait(30);
    await insert('late');
    await until(() => state.done === 1);
    await r.stop();
    expect(await row('late')).toMatchObject({ status: 'done' });
  });

  it('keeps going after a database error, logging it', async () => {
    await insert('j');
    let failures = 1;
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'update' && failures > 0) {
          failures--;
          return () => {
            throw new Error('database unreachable');
          };
        }
        return Reflect.get(target, property, receiver);
      },
    }) as Db;
    let doneAt = 0;
    const handler: JobHandler = async () => {
      doneAt = Date.now();
    };
    const { runner: r, entries } = runner({ k: handler }, { db, pollIntervalMs: 150 });
    const begun = Date.now();
    r.start();
    await until(() => doneAt > 0);
    await r.stop();
    expect(entries[0]).toMatchObject({ level: 'error', msg: 'job runner: database error, retrying', fields: { err: { message: 'database unreachable' } } });
    // It tries again after the poll interval, not at once.
    expect(doneAt - begun).toBeGreaterThanOrEqual(140);
  });

  it('stop() waits for the jobs in progress, claims no more, and is the same promise when called again', async () => {
    await insert('a');
    await insert('b');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const { runner: r, messages } = runner(
      {
        k: async () => {
          started++;
          await held;
        },
      },
      { pollIntervalMs: 10 },
    );
    r.start();
    await until(() => started === 1);
    const stopped = r.stop();
    expect(r.stop()).toBe(stopped);
    let done = false;
    void stopped.then(() => (done = true));
    await wait(30);
    expect(done).toBe(false);
    release();
    await stopped;
    expect(started).toBe(1);
    expect(await row('a')).toMatchObject({ status: 'done' });
    expect(await row('b')).toMatchObject({ status: 'queued' });
    expect(messages()).toEqual(['info: job done']);
    // Stopped for good: starting again runs nothing.
    r.start();
    await wait(30);
    expect(await row('b')).toMatchObject({ status: 'queued' });
  });

  it('stop() during a poll that finds nothing ends the loop without sleeping again', async () => {
    let polling!: () => void;
    const polled = new Promise<void>((resolve) => (polling = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    // The claim's UPDATE answers "no job" only once released.
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property !== 'update') return Reflect.get(target, property, receiver);
        const chain = {
          set: () => chain,
          where: () => chain,
          returning: async () => {
            polling();
            await answered;
            return [];
          },
        };
        return () => chain;
      },
    }) as Db;
    const { runner: r } = runner({ k: async () => undefined }, { db, pollIntervalMs: 60_000, stopTimeoutMs: 5000 });
    r.start();
    await polled;
    const begun = Date.now();
    const stopped = r.stop();
    answer();
    await stopped;
    expect(Date.now() - begun).toBeLessThan(1000);
  });

  it('stop() gives up waiting after its timeout, leaving the job its lease', async () => {
    await insert('a');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const { runner: r, entries } = runner(
      {
        k: async () => {
          started = true;
          await held;
        },
      },
      { pollIntervalMs: 10, stopTimeoutMs: 50 },
    );
    r.start();
    await until(() => started);
    const begun = Date.now();
    await r.stop();
    expect(Date.now() - begun).toBeGreaterThanOrEqual(45);
    expect(entries.at(-1)).toMatchObject({ level: 'warn', msg: 'job runner stopped before the job in progress finished', fields: { stopTimeoutMs: 50 } });
    expect(await row('a')).toMatchObject({ status: 'running' });
    release();
    await until(async () => (await row('a')).status === 'done');
  });

  it('stop() before start() resolves at once; drain() runs every due job and counts them', async () => {
    const { state, handler } = counting(0);
    const { runner: r, messages } = runner({ k: handler });
    await r.stop();
    expect(messages()).toEqual([]);
    expect(await r.drain()).toBe(0);
    for (const id of ['a', 'b', 'c']) await insert(id);
    await insert('later', { runAt: at(1) });
    expect(await r.drain()).toBe(3);
    expect(state.done).toBe(3);
  });
});
