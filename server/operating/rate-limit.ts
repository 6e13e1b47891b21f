// Rate limits: at most `perMinute` requests per key (a token, or an address for requests without a valid
// token) in each calendar minute (a fixed window, so `X-RateLimit-Reset` is the end of the minute).
//
// On PGlite one process owns the data (the DATA_DIR lock), so the counts live in its memory. On PostgreSQL
// every process must see the same counts. One atomic upsert per request would be exact, but it puts a write
// on every read (WAL and a round trip), and one busy token makes every request update the same row, so all
// of them queue on its row lock. Instead each process counts locally and, every `syncIntervalMs`, adds what
// it counted to `rate_limit_counts` in ONE statement for all its keys (an upsert that returns the shared
// totals); a key's count is then the shared total at the last sync plus what this process counted since.
// The cost is one statement per process per interval whatever the load. The price: a process sees the
// others' requests up to one interval late, so the limit can be exceeded by what the other processes
// admit in that time (at most the token's whole rate over ~0.5 s), and a count not yet synced when a
// process dies is lost. For a limit meant to stop one client from taking the whole server, both are fine.
import { lt, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.js';
import { queryRows } from '../db/client.js';
import { rateLimitCounts } from '../db/schema/index.js';

const WINDOW_MS = 60_000;

/** What the caller is told: the limit, what is left in this window, and when it resets (epoch seconds). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window ends and the count starts again. */
  reset: number;
  /** Whether this request is over the limit (and so refused). */
  limited: boolean;
  /** Seconds to wait before a refused request may be sent again. */
  retryAfter: number;
}

export interface RateLimiter {
  readonly perMinute: number;
  /** Counts one request of `key` (refused ones are not counted) and says whether it may go on. */
  hit(key: string): RateLimitState;
  /** Sends what is not yet shared (PostgreSQL) and stops the timer. */
  close(): Promise<void>;
}

interface Entry {
  window: number;
  /** The key as stored in the shared table (tokens hashed). */
  storedKey: string;
  /** The shared total (every process) at the last sync, this process's synced requests included. */
  shared: number;
  /** Counted here since the last sync. */
  pending: number;
}

/** The key of a token: its SHA-256, so no token is kept in clear in the shared table. */
function storedKeyOf(key: string): string {
  if (!key.startsWith('token:')) return key;
  return `token:${createHash('sha256').update(key.slice('token:'.length)).digest('hex')}`;
}

export interface RateLimiterOptions {
  perMinute: number;
  now?: () => number;
  /** PostgreSQL database shared by every process; absent: counts in this process only (PGlite). */
  shared?: Db;
  /** How often the counts are shared (PostgreSQL); default 500 ms. */
  syncIntervalMs?: number;
  /** Told when a sync fails (the counts are kept and sent at the next one). */
  onSyncError?: (err: unknown) => void;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter & { sync(): Promise<void> } {
  const { perMinute, now = Date.now, shared } = options;
  const entries = new Map<string, Entry>();

  function entryOf(key: string, window: number): Entry {
    let entry = entries.get(key);
    if (!entry || entry.window !== window) {
      // A new minute starts from zero; what the old one still had pending is sent by the next sync.
      if (entry && entry.pending > 0 && shared) stale.push(entry);
      entry = { window, storedKey: entry?.storedKey ?? storedKeyOf(key), shared: 0, pending: 0 };
      entries.set(key, entry);
    }
    return entry;
  }
  /** Entries of a past minute whose count is not shared yet. */
  let stale: Entry[] = [];

  function hit(key: string): RateLimitState {
    const time = now();
    const window = Math.floor(time / WINDOW_MS);
    const reset = (window + 1) * (WINDOW_MS / 1000);
    const entry = entryOf(key, window);
    const used = entry.shared + entry.pending;
    if (used >= perMinute) {
      return { limit: perMinute, remaining: 0, reset, limited: true, retryAfter: Math.max(1, Math.ceil(reset - time / 1000)) };
    }
    entry.pending++;
    return { limit: perMinute, remaining: perMinute - used - 1, reset, limited: false, retryAfter: 0 };
  }

  let syncing: Promise<void> | undefined;
  let lastCleanup = 0;
  /** Adds the pending counts to the shared table and reads back the totals of every key active this minute. */
  async function syncOnce(db: Db): Promise<void> {
    const window = Math.floor(now() / WINDOW_MS);
    // Forget the keys of past minutes (their pending counts are in `stale`).
    for (const [key, entry] of entries) {
      if (entry.window >= window) continue;
      entries.delete(key);
      if (entry.pending > 0) stale.push(entry);
    }
    const batch = [...stale, ...entries.values()];
    stale = [];
    if (batch.length === 0) return;
    const sent = batch.map((e) => e.pending);
    const keys = batch.map((e) => e.storedKey);
    const windows = batch.map((e) => e.window * WINDOW_MS);
    let rows: { key: string; window_start: string; count: number }[];
    try {
      rows = await queryRows(
        db,
        sql`INSERT INTO rate_limit_counts (key, window_start, count)
            SELECT * FROM unnest(${sql.param(keys)}::text[], ${sql.param(windows)}::bigint[], ${sql.param(sent)}::int[])
            ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counts.count + excluded.count
            RETURNING key, window_start, count`,
      );
    } catch (err) {
      // Nothing was added: the counts stay pending (past minutes' too) for the next sync.
      stale.push(...batch.filter((e) => e.window < window && e.pending > 0));
      throw err;
    }
    const totals = new Map(rows.map((r) => [`${r.key} ${r.window_start}`, Number(r.count)]));
    batch.forEach((entry, i) => {
      entry.pending -= sent[i];
      entry.shared = totals.get(`${entry.storedKey} ${entry.window * WINDOW_MS}`) ?? entry.shared + sent[i];
    });
    // Rows of past minutes are of no more use; one process a minute deleting them is plenty.
    if (window !== lastCleanup) {
      lastCleanup = window;
      await db.delete(rateLimitCounts).where(lt(rateLimitCounts.windowStart, (window - 1) * WINDOW_MS));
    }
  }

  function sync(): Promise<void> {
    if (!shared) {
      const window = Math.floor(now() / WINDOW_MS);
      for (const [key, entry] of entries) if (entry.window < window) entries.delete(key);
      return Promise.resolve();
    }
    syncing ??= syncOnce(shared).finally(() => (syncing = undefined));
    return syncing;
  }

  const timer = setInterval(
    () => void sync().catch((err) => options.onSyncError?.(err)),
    shared ? (options.syncIntervalMs ?? 500) : WINDOW_MS,
  );
  timer.unref();

  return {
    perMinute,
    hit,
    sync,
    async close() {
      clearInterval(timer);
      await syncing?.catch(() => {});
      await sync().catch((err) => options.onSyncError?.(err));
    },
  };
}
