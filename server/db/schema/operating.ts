// What the server processes share to operate together on PostgreSQL: the rate-limit counts
// (server/operating/rate-limit.ts). On PGlite the counts stay in memory (one process owns DATA_DIR).
import { bigint, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const rateLimitCounts = pgTable(
  'rate_limit_counts',
  {
    /** `token:<sha256 of the token>` or `address:<client address>`: never a token in clear. */
    key: text('key').notNull(),
    /** The minute the count is for, as epoch milliseconds of its start. */
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * Data migrations (server/data-migrations/): rewrites of stored values that SQL alone cannot do, run in
 * batches after the SQL migrations, under the same start-up lock. `position` says where the next batch
 * starts (the step and the last key done), written in the batch's own transaction, so a run that stops
 * resumes where it stopped; `finished_at` is set once every step is done.
 */
export const dataMigrations = pgTable('data_migrations', {
  name: text('name').primaryKey(),
  position: jsonb('position').$type<{ step: number; after: string | null }>().notNull(),
  rowsChanged: integer('rows_changed').notNull().default(0),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
});
