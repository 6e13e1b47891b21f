// What the server processes share to operate together on PostgreSQL: the rate-limit counts
// (server/operating/rate-limit.ts). On PGlite the counts stay in memory (one process owns DATA_DIR).
import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

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
