// Background jobs, claimed by the workers of every server process with FOR UPDATE SKIP LOCKED.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, updatedAt } from './columns.js';
import { jobStatusValues } from './enums.js';

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    /** What to do: the name of a registered job handler, e.g. `purge-deleted-spaces`. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    status: text('status').notNull().default('queued'),
    /** At most one queued or running job per key (e.g. one pending purge), when set. */
    uniqueKey: text('unique_key'),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    /** While running: when the claim expires and another worker may take the job over (its worker died). */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('jobs_due_idx').on(t.status, t.runAt),
    // The prune's lookup (server/jobs/prune.job.ts): finished jobs by when they finished.
    index('jobs_finished_idx').on(t.updatedAt).where(sql`status IN ('done', 'failed')`),
    uniqueIndex('jobs_unique_key_idx').on(t.uniqueKey).where(sql`unique_key IS NOT NULL AND status IN ('queued', 'running')`),
    check('jobs_status_check', sql.raw(`status IN (${oneOf(jobStatusValues)})`)),
  ],
);
