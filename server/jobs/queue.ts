// Putting work on the jobs table. Any server process (or a handler) enqueues; the runners claim it.
import { jobs } from '../db/schema/index.js';
import type { Db } from '../db/client.js';
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

/** Adds a job; returns its id, or null when a queued or running job already holds its `uniqueKey`. */
export async function enqueueJob(db: Db, input: EnqueueInput, now: Date): Promise<string | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      id: newId('job', now.getTime()),
      kind: input.kind,
      payload: input.payload ?? {},
      uniqueKey: input.uniqueKey ?? null,
      runAt: input.runAt ?? now,
      maxAttempts: input.maxAttempts ?? 5,
      createdAt: now,
      updatedAt: now,
    })
    // The partial unique index jobs_unique_key_idx is the only constraint a fresh id can meet; relying
    // on it (rather than checking first) keeps concurrent enqueuers from both inserting.
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return row?.id ?? null;
}
