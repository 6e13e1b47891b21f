// Keyset pagination over one table's columns (the cursor rules are server/db/cursor.ts's).
import { and, count, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { afterCursor, cutPage, orderOf, pageLimit, type CursorValue, type PageRequest, type SortKey } from './cursor.js';

export type { PageRequest };

export interface Page<Row> {
  rows: Row[];
  next?: { page: string };
  count: number;
}

/**
 * One page of `table` rows matching `where`, in ascending order of `keys` (which must be unique together),
 * each with the `extra` fields (SQL computed per row, e.g. the caller's role). The total count comes in
 * the same round trip, as a scalar subquery; only a page past the end needs a second query for it (an empty
 * first page is an empty list).
 * `order: 'desc'` pages in descending order of the keys instead (e.g. newest first).
 */
export async function keysetPage<T extends PgTable, Extra extends Record<string, SQL.Aliased | SQL> = Record<never, never>>(
  db: Db,
  table: T,
  where: SQL | undefined,
  keys: PgColumn[],
  request: PageRequest,
  extra?: Extra,
  order: 'asc' | 'desc' = 'asc',
): Promise<Page<T['$inferSelect'] & { [K in keyof Extra]: Extra[K] extends SQL<infer V> ? V : unknown }>> {
  const limit = pageLimit(request);
  const sortKeys: SortKey[] = keys.map((k) => ({ column: k, kind: k.columnType === 'PgTimestamp' ? 'timestamp' : 'scalar' }));
  const totalOf = () => db.select({ total: count() }).from(table as PgTable).where(where);
  const after = afterCursor(sortKeys, order, request.page);
  const rows = (await db
    .select({ ...getTableColumns(table), ...extra, pageTotal: sql<number>`(${totalOf()})`.mapWith(Number) })
    .from(table as PgTable)
    .where(and(where, after))
    .orderBy(...orderOf(sortKeys, order))
    .limit(limit + 1)) as Record<string, unknown>[];
  // An empty first page is an empty list: only a page past the end counts again.
  const total = rows.length > 0 ? (rows[0].pageTotal as number) : after === undefined ? 0 : (await totalOf())[0].total;
  for (const row of rows) delete row.pageTotal;
  const page = cutPage(rows, limit, (last) => keys.map((k) => last[columnKey(table, k)] as CursorValue));
  return { rows: page.rows as never, count: total, ...(page.next && { next: page.next }) };
}

/** The property name under which Drizzle returns a column in a selected row. */
function columnKey(table: PgTable, column: PgColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!entry) throw new Error(`column ${column.name} is not in the table`);
  return entry[0];
}

/** The list envelope `{ items, count, next? }` of a page, its rows mapped to API objects. */
export function listBody<Row, Item>(page: Page<Row>, toItem: (row: Row) => Item) {
  return { items: page.rows.map(toItem), count: page.count, ...(page.next && { next: page.next }) };
}
