// Keyset pagination over (timestamp, id) in either direction, for lists sorted newest first.
// (server/db/paginate.ts walks ascending keys only.) The cursor holds the last row's timestamp and id.
import { and, asc, count, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE } from '../../contract/common.js';
import type { Db } from '../db/client.js';
import { decodeCursor, encodeCursor } from '../db/cursor.js';
import type { Page, PageRequest } from '../db/paginate.js';

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
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const after = request.page === undefined ? undefined : decodeCursor(request.page, ['timestamp', 'string']);
  const op = sql.raw(order === 'asc' ? '>' : '<');
  const afterCondition = after ? sql`(${time}, ${id}) ${op} (${after[0]}::timestamptz, ${after[1]})` : undefined;
  const direction = order === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(and(where, afterCondition))
      .orderBy(direction(time), direction(id))
      .limit(limit + 1) as Promise<T['$inferSelect'][]>,
    db.select({ total: count() }).from(table as PgTable).where(where),
  ]);
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  const next = rows.length > limit && last ? (({ time: t, id: i }) => encodeCursor([t.toISOString(), i]))(read(last)) : undefined;
  return { rows: pageRows, count: total, ...(next && { next: { page: next } }) };
}
