// Putting work on the jobs table. Any server process (or a handler) enqueues; the runners claim it.
import type { Db } from '../db/client.js';
import { runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import { newId } from '../ids.js';

export interface EnqueueInput {
  /** The name of a registered handler (server/jobs/registry.ts). */
  kind: string;
  payload?: unknown;
  /** Not before this time; default: `now`. */
  runAt?: Date;
  /** At most one queued or running job per key: enqueueing a second is a no-op. */
  uniqueKey?: string;
  /** Runs before the job is marked failed; default 5. */
  maxAttempts?: number;
}

/**
 * The INSERT of a job, for a statement that writes other rows too (a merge enqueues the search catch-up in
 * its own statement). The partial unique index jobs_unique_key_idx is the only constraint a fresh id can
 * meet; relying on it (rather than checking first) keeps concurrent enqueuers from both inserting.
 */
export function insertJobSql(input: EnqueueInput, now: Date): SqlFragment {
  return sqlText`INSERT INTO jobs (id, kind, payload, unique_key, run_at, max_attempts, created_at, updated_at)
    VALUES (${newId('job', now.getTime())}::text, ${input.kind}::text, ${JSON.stringify(input.payload ?? {})}::jsonb, ${input.uniqueKey ?? null}::text,
      ${input.runAt ?? now}::timestamptz, ${input.maxAttempts ?? 5}::int, ${now}::timestamptz, ${now}::timestamptz)
    ON CONFLICT DO NOTHING`;
}

/** Adds a job; returns its id, or null when a queued or running job already holds its `uniqueKey`. */
export async function enqueueJob(db: Db, input: EnqueueInput, now: Date): Promise<string | null> {
  const [row] = await runSql(db, sqlText`${insertJobSql(input, now)} RETURNING id`);
  return (row?.id as string | undefined) ?? null;
}

/**
 * The INSERT of several jobs in one statement (an event for each installation of a space: one round trip
 * however many there are). Their rows travel as one JSON parameter.
 */
export function insertJobsSql(inputs: EnqueueInput[], now: Date): SqlFragment {
  const rows = inputs.map((input) => ({
    id: newId('job', now.getTime()),
    kind: input.kind,
    payload: input.payload ?? {},
    unique_key: input.uniqueKey ?? null,
    run_at: (input.runAt ?? now).toISOString(),
    max_attempts: input.maxAttempts ?? 5,
  }));
  return sqlText`INSERT INTO jobs (id, kind, payload, unique_key, run_at, max_attempts, created_at, updated_at)
    SELECT j.id, j.kind, j.payload, j.unique_key, j.run_at, j.max_attempts, ${now}::timestamptz, ${now}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS j(id text, kind text, payload jsonb, unique_key text, run_at timestamptz, max_attempts int)
    ON CONFLICT DO NOTHING`;
}
