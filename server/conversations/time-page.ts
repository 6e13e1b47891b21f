// Keyset pagination over (timestamp, id) in either direction, for lists sorted newest first.
// (server/db/paginate.ts walks ascending keys only.) The cursor holds the last row's timestamp and id.
import { and, asc, count, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE } from '../../contract/common.js';
import type { Db } from '../db/client.js';
import { isCursorTimestamp, type Page, type PageRequest } from '../db/paginate.js';
import { BadRequest } from '../http/errors.js';

function decode(page: string): [string, string] {
  try {
    const v: unknown = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && isCursorTimestamp(v[0]) && !v[1].includes('\u0000')) {
      return [new Date(v[0]).toISOString(), v[1]];
    }
  } catch {
    // fall through
  }
  throw new BadRequest('Invalid request: query.page: not a page identifier returned by this list');
}

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
  const after = request.page === undefined ? undefined : decode(request.page);
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
  const next = rows.length > limit && last ? (({ time: t, id: i }) => Buffer.from(JSON.stringify([t.toISOString(), i])).toString('base64url'))(read(last)) : undefined;
  return { rows: pageRows, count: total, ...(next && { next: { page: next } }) };
}
