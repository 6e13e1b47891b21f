// Keyset pagination over (timestamp, id) in either direction, with the total count read in the same
// statement as the page. The cursor holds the last row's timestamp and id (server/db/cursor.ts).
import { and, count, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { afterCursor, orderOf, pageLimit, type PageRequest, type SortKey } from '../db/cursor.js';
import type { KeysetPageSelects } from '../db/paginate.js';
import { literalLimit } from '../db/literal-limit.js';

/**
 * The selects of one page of `table` rows matching `where`, ordered by (`time`, `id`) in `order`, each row
 * carrying the total, and of the total alone: what readKeysetPage (server/db/paginate.ts) reads, and what an operation attaches to
 * its grant (attachSelect of `rows`) so that its first page comes with its access. `read`: a row's key.
 */
export function timePageSelects<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  time: PgColumn,
  id: PgColumn,
  order: 'asc' | 'desc',
  request: PageRequest,
  read: (row: T['$inferSelect']) => { time: Date; id: string },
): KeysetPageSelects<T['$inferSelect']> {
  const keys: SortKey[] = [
    { column: time, kind: 'timestamp', cast: 'timestamptz' },
    { column: id, kind: 'string' },
  ];
  const total = db.select({ total: count() }).from(table as PgTable).where(where);
  const after = afterCursor(keys, order, request.page);
  const limit = pageLimit(request);
  const rows = db
    .select({ ...getTableColumns(table), pageTotal: sql<number>`(${total})`.mapWith(Number) })
    .from(table as PgTable)
    .where(and(where, after))
    .orderBy(...orderOf(keys, order))
    .limit(literalLimit(limit + 1));
  const cursorOf = (last: T['$inferSelect']) => {
    const key = read(last);
    return [key.time.toISOString(), key.id];
  };
  return { rows, total, after, limit, cursorOf };
}

