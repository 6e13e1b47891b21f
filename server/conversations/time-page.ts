// Keyset pagination over (timestamp, id) in either direction, with the total count read beside the page.
// The cursor holds the last row's timestamp and id (server/db/cursor.ts).
import { and, count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { afterCursor, cutPage, orderOf, pageLimit, type PageRequest, type SortKey } from '../db/cursor.js';
import type { Page } from '../db/paginate.js';

/** One page of `table` rows matching `where`, ordered by (`time`, `id`) in `order`, with the total count. */
export async function timePage<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  time: PgColumn,
  id: PgColumn,
  order: 'asc' | 'desc',
  request: PageRequest,
  read: (row: T['$inferSelect']) => { time: Date; id: string },
): Promise<Page<T['$inferSelect']>> {
  const limit = pageLimit(request);
  const keys: SortKey[] = [
    { column: time, kind: 'timestamp', cast: 'timestamptz' },
    { column: id, kind: 'string' },
  ];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(and(where, afterCursor(keys, order, request.page)))
      .orderBy(...orderOf(keys, order))
      .limit(limit + 1) as Promise<T['$inferSelect'][]>,
    db.select({ total: count() }).from(table as PgTable).where(where),
  ]);
  const page = cutPage(rows, limit, (last) => {
    const key = read(last);
    return [key.time.toISOString(), key.id];
  });
  return { rows: page.rows, count: total, ...(page.next && { next: page.next }) };
}
