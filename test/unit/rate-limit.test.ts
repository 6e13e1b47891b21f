// The rate limiter's counting (server/operating/rate-limit.ts) without a server: windows, what is left,
// Retry-After, and the sharing of counts between processes through the table, here a stand-in that does
// what the one upsert does (the real statement runs in test/operating-rate-limit.test.ts on PostgreSQL).
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client.js';
import { createRateLimiter } from '../../server/operating/rate-limit.js';

const minute = 60_000;
/** A clock at `start` (ms) that tests move by hand. */
function clock(start = 10 * minute + 10_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** The shared `rate_limit_counts` table: the upsert adds each key's count and returns the totals; deletes are recorded. */
function sharedTable() {
  const rows = new Map<string, number>();
  const dialect = new PgDialect();
  const sent: { keys: string[]; windows: number[]; counts: number[] }[] = [];
  let deletes = 0;
  let failNext = false;
  const db = {
    async execute(query: SQL) {
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      const [keys, windows, counts] = dialect.sqlToQuery(query).params as [string[], number[], number[]];
      sent.push({ keys, windows, counts });
      const out = keys.map((key, i) => {
        const id = `${key} ${windows[i]}`;
        rows.set(id, (rows.get(id) ?? 0) + counts[i]);
        return { key, window_start: String(windows[i]), count: rows.get(id)! };
      });
      return { rows: out };
    },
    delete: () => ({ where: async () => void deletes++ }),
  };
  return { db: db as unknown as Db, rows, sent, deletes: () => deletes, failOnce: () => void (failNext = true) };
}

describe('rate limiter in one process', () => {
  it('counts per key in calendar minutes, telling what is left and when the window resets', async () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 3, now: time.now });
    const reset = 11 * 60; // the end of minute 10, in epoch seconds
    expect(limiter.perMinute).toBe(3);
    expect(limiter.hit('token:a')).toEqual({ limit: 3, remaining: 2, reset, limited: false, retryAfter: 0 });
    expect(limiter.hit('token:a').remaining).toBe(1);
    expect(limiter.hit('token:b').remaining).toBe(2);
    expect(limiter.hit('token:a')).toEqual({ limit: 3, remaining: 0, reset, limited: false, retryAfter: 0 });
    // Over the limit: refused, not counted, told to wait until the end of the minute (50 s from 10:10).
    expect(limiter.hit('token:a')).toEqual({ limit: 3, remaining: 0, reset, limited: true, retryAfter: 50 });
    time.advance(49_500);
    expect(limiter.hit('token:a')).toMatchObject({ limited: true, retryAfter: 1 });
    // The next minute starts from zero.
    time.advance(500);
    expect(limiter.hit('token:a')).toEqual({ limit: 3, remaining: 2, reset: reset + 60, limited: false, retryAfter: 0 });
    await limiter.close();
  });

  it('rounds Retry-After up, and never answers 0', async () => {
    const time = clock(10 * minute + 59_999);
    const limiter = createRateLimiter({ perMinute: 1, now: time.now });
    limiter.hit('k');
    expect(limiter.hit('k')).toMatchObject({ limited: true, retryAfter: 1 });
    const later = clock(10 * minute + 20_400);
    const other = createRateLimiter({ perMinute: 1, now: later.now });
    other.hit('k');
    expect(other.hit('k')).toMatchObject({ limited: true, retryAfter: 40 });
    await limiter.close();
    await other.close();
  });

  it('forgets the keys of past minutes when it syncs, and sends nothing anywhere', async () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 2, now: time.now });
    limiter.hit('k');
    limiter.hit('k');
    await limiter.sync();
    expect(limiter.hit('k').limited).toBe(true);
    time.advance(minute);
    await limiter.sync();
    expect(limiter.hit('k')).toMatchObject({ limited: false, remaining: 1 });
    await limiter.close();
  });
});

describe('rate limiter shared by processes', () => {
  it('adds each process count to the table, and counts the others once synced', async () => {
    const time = clock();
    const table = sharedTable();
    const a = createRateLimiter({ perMinute: 5, now: time.now, shared: table.db, syncIntervalMs: minute });
    const b = createRateLimiter({ perMinute: 5, now: time.now, shared: table.db, syncIntervalMs: minute });
    a.hit('address:1');
    a.hit('address:1');
    b.hit('address:1');
    // Before a sync each process sees only its own requests.
    expect(b.hit('address:1').remaining).toBe(3);
    await a.sync();
    await b.sync();
    expect(table.rows.get(`address:1 ${10 * minute}`)).toBe(4);
    // b learnt a's two from its own upsert; a learns b's at its next sync.
    expect(b.hit('address:1').remaining).toBe(0);
    expect(a.hit('address:1').remaining).toBe(2);
    await a.sync();
    expect(a.hit('address:1').limited).toBe(true);
    await a.close();
    await b.close();
    expect(table.rows.get(`address:1 ${10 * minute}`)).toBe(6);
  });

  it('stores tokens hashed, addresses as they are, and sends a key only with what it counted', async () => {
    const time = clock();
    const table = sharedTable();
    const limiter = createRateLimiter({ perMinute: 5, now: time.now, shared: table.db, syncIntervalMs: minute });
    limiter.hit('token:secret');
    limiter.hit('address:9');
    limiter.hit('address:9');
    await limiter.sync();
    const [first] = table.sent;
    expect(first.keys).toEqual(['token:2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b', 'address:9']);
    expect(first.counts).toEqual([1, 2]);
    expect(first.windows).toEqual([10 * minute, 10 * minute]);
    // Nothing new: the keys of this minute are sent with 0 to read the others' totals; no new minute, no delete.
    await limiter.sync();
    expect(table.sent[1].counts).toEqual([0, 0]);
    expect(table.deletes()).toBe(1);
    await limiter.close();
  });

  it('sends what a past minute still had pending, and deletes old rows once a minute', async () => {
    const time = clock();
    const table = sharedTable();
    const limiter = createRateLimiter({ perMinute: 5, now: time.now, shared: table.db, syncIntervalMs: minute });
    limiter.hit('k');
    time.advance(minute);
    limiter.hit('k');
    await limiter.sync();
    expect(table.rows.get(`k ${10 * minute}`)).toBe(1);
    expect(table.rows.get(`k ${11 * minute}`)).toBe(1);
    expect(table.deletes()).toBe(1);
    await limiter.sync();
    expect(table.deletes()).toBe(1);
    time.advance(minute);
    limiter.hit('k');
    await limiter.sync();
    expect(table.deletes()).toBe(2);
    await limiter.close();
  });

  it('sends nothing when nothing was counted, and only the keys of this minute once a minute passed', async () => {
    const time = clock();
    const table = sharedTable();
    const limiter = createRateLimiter({ perMinute: 5, now: time.now, shared: table.db, syncIntervalMs: minute });
    await limiter.sync();
    expect([table.sent.length, table.deletes()]).toEqual([0, 0]);
    limiter.hit('old');
    await limiter.sync();
    time.advance(minute);
    limiter.hit('new');
    await limiter.sync();
    expect(table.sent.at(-1)!.keys).toEqual(['new']);
    await limiter.close();
  });

  it('syncs on its own every interval until closed', async () => {
    const table = sharedTable();
    const limiter = createRateLimiter({ perMinute: 5, shared: table.db, syncIntervalMs: 10 });
    limiter.hit('k');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(table.sent.length).toBeGreaterThan(0);
    expect([...table.rows.values()]).toEqual([1]);
    await limiter.close();
    const after = table.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(table.sent.length).toBe(after);
  });

  it('reports a failed timed sync to onSyncError, and closes quietly without one', async () => {
    const table = sharedTable();
    const errors: unknown[] = [];
    const limiter = createRateLimiter({ perMinute: 5, shared: table.db, syncIntervalMs: 10, onSyncError: (e) => errors.push(e) });
    limiter.hit('k');
    table.failOnce();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors.map(String)).toEqual(['Error: connection lost']);
    await limiter.close();
    const quiet = createRateLimiter({ perMinute: 5, shared: table.db, syncIntervalMs: minute });
    quiet.hit('k');
    table.failOnce();
    await expect(quiet.close()).resolves.toBeUndefined();
  });

  it('keeps the counts of a failed sync, this minute and past ones, for the next', async () => {
    const time = clock();
    const table = sharedTable();
    const errors: unknown[] = [];
    const limiter = createRateLimiter({ perMinute: 5, now: time.now, shared: table.db, syncIntervalMs: minute, onSyncError: (e) => errors.push(e) });
    limiter.hit('k');
    time.advance(minute);
    limiter.hit('k');
    limiter.hit('k');
    table.failOnce();
    await expect(limiter.sync()).rejects.toThrow('connection lost');
    expect(limiter.hit('k').remaining).toBe(2);
    await limiter.sync();
    expect(table.rows.get(`k ${10 * minute}`)).toBe(1);
    expect(table.rows.get(`k ${11 * minute}`)).toBe(3);
    // close() sends the rest, and reports a failure instead of throwing.
    limiter.hit('k');
    table.failOnce();
    await limiter.close();
    expect(errors).toHaveLength(1);
  });
});
