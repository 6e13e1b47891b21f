// The state changes of a job row (server/jobs/claims.ts) on an in-memory PGlite migrated once for the file:
// which job a claim takes, the lease, and the fence that makes a worker whose claim was lost change nothing.
// test/jobs.test.ts races real runners on both storages; this file pins each statement's effect.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../server/db/client.js';
import { jobs } from '../../server/db/schema/index.js';
import { claimJob, completeJob, expireOrphanedClaims, recordFailure, renewLease, type JobRow } from '../../server/jobs/claims.js';

let database: Database;
const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const lease = 30_000;

beforeAll(async () => {
  database = createDb({ kind: 'pglite', thread: false });
  await database.migrate();
}, 60_000);
afterAll(async () => database.close());
beforeEach(async () => {
  await database.db.delete(jobs);
});

async function insert(id: string, over: Partial<typeof jobs.$inferInsert> = {}) {
  await database.db.insert(jobs).values({ id, kind: 'k', runAt: t0, createdAt: t0, updatedAt: t0, ...over });
}
const row = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0];

describe('claimJob', () => {
  it('takes the earliest due queued job of the kinds asked, leasing it', async () => {
    await insert('later', { runAt: at(-10) });
    await insert('first', { runAt: at(-20) });
    await insert('future', { runAt: at(1) });
    await insert('other-kind', { kind: 'x', runAt: at(-30) });
    const claimed = await claimJob(database.db, ['k'], t0, lease);
    expect(claimed).toMatchObject({ id: 'first', status: 'running', attempts: 1, lockedUntil: at(30), updatedAt: t0 });
    expect((await claimJob(database.db, ['k'], t0, lease))?.id).toBe('later');
    // Due exactly now counts; in the future does not.
    await insert('now', { runAt: t0 });
    expect((await claimJob(database.db, ['k'], t0, lease))?.id).toBe('now');
    expect(await claimJob(database.db, ['k'], t0, lease)).toBeNull();
    expect((await claimJob(database.db, ['x', 'k'], t0, lease))?.id).toBe('other-kind');
  });

  it('takes over a running job whose lease expired, never one still leased, done or failed', async () => {
    await insert('held', { status: 'running', attempts: 1, lockedUntil: at(1) });
    await insert('expiring-now', { status: 'running', attempts: 1, lockedUntil: t0 });
    await insert('done', { status: 'done', runAt: at(-50) });
    await insert('failed', { status: 'failed', runAt: at(-50) });
    expect(await claimJob(database.db, ['k'], t0, lease)).toBeNull();
    await insert('expired', { status: 'running', attempts: 2, lockedUntil: at(-1) });
    expect(await claimJob(database.db, ['k'], t0, lease)).toMatchObject({ id: 'expired', attempts: 3, lockedUntil: at(30) });
  });
});

describe('after the claim', () => {
  async function claimed(): Promise<JobRow> {
    await insert('j', { maxAttempts: 3 });
    return (await claimJob(database.db, ['k'], t0, lease))!;
  }

  it('completes a held job and enqueues its follow-ups; a lost claim changes nothing', async () => {
    const job = await claimed();
    expect(await completeJob(database.db, job, [{ kind: 'next', runAt: at(60) }], at(5))).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'done', lockedUntil: null, updatedAt: at(5) });
    const followUps = await database.db.select().from(jobs).where(eq(jobs.kind, 'next'));
    expect(followUps.map((f) => [f.status, f.runAt])).toEqual([['queued', at(60)]]);
    // Completed already: a second completion (or one by a worker taken over) is refused, and enqueues nothing.
    expect(await completeJob(database.db, job, [{ kind: 'never' }], at(6))).toBe(false);
    expect(await database.db.select().from(jobs).where(eq(jobs.kind, 'never'))).toEqual([]);
  });

  it('records a failure: queued again for the retry, or failed for good, with the error cut to 2000 characters', async () => {
    const job = await claimed();
    expect(await recordFailure(database.db, job, 'x'.repeat(2500), at(100), at(5))).toBe(true);
    const retried = await row('j');
    expect(retried).toMatchObject({ status: 'queued', runAt: at(100), lockedUntil: null, updatedAt: at(5) });
    expect(retried.lastError).toHaveLength(2000);
    const again = (await claimJob(database.db, ['k'], at(100), lease))!;
    expect(await recordFailure(database.db, again, 'boom', null, at(101))).toBe(true);
    expect(await row('j')).toMatchObject({ status: 'failed', runAt: at(100), lastError: 'boom', lockedUntil: null });
    // The first worker's claim (attempts 1) was lost long ago.
    expect(await recordFailure(database.db, job, 'late', at(200), at(102))).toBe(false);
    expect((await row('j')).lastError).toBe('boom');
  });

  it('renews the lease of a held job only', async () => {
    const job = await claimed();
    expect(await renewLease(database.db, job, at(90), at(10))).toBe(true);
    expect(await row('j')).toMatchObject({ lockedUntil: at(90), updatedAt: at(10) });
    // Taken over by another worker after expiry: attempts moved on, the old holder renews nothing.
    const takenOver = (await claimJob(database.db, ['k'], at(91), lease))!;
    expect(takenOver.attempts).toBe(2);
    expect(await renewLease(database.db, job, at(500), at(92))).toBe(false);
    expect((await row('j')).lockedUntil).toEqual(at(121));
  });

  it('expires the claims still leased at start, and counts them', async () => {
    await insert('a', { status: 'running', attempts: 1, lockedUntil: at(10) });
    await insert('b', { status: 'running', attempts: 1, lockedUntil: at(-10) });
    await insert('c', { status: 'queued', lockedUntil: at(10), runAt: at(100) });
    expect(await expireOrphanedClaims(database.db, t0)).toBe(1);
    expect(await row('a')).toMatchObject({ lockedUntil: t0, updatedAt: t0 });
    expect((await row('b')).lockedUntil).toEqual(at(-10));
    expect((await row('c')).lockedUntil).toEqual(at(10));
    // Expired now: taken over from the next instant on (the claim wants a lease that ended before it).
    await database.db.delete(jobs).where(eq(jobs.id, 'b'));
    expect(await claimJob(database.db, ['k'], t0, lease)).toBeNull();
    expect((await claimJob(database.db, ['k'], at(1), lease))?.id).toBe('a');
  });
});
