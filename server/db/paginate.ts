// Keyset pagination over one table's columns (the cursor rules are server/db/cursor.ts's).
import { and, count, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type attachSelect, type Select } from './attached-select.js';
import type { Db } from './client.js';
import { afterCursor, cutPage, orderOf, pageLimit, type CursorValue, type PageRequest, type SortKey } from './cursor.js';
import { literalLimit } from './literal-limit.js';

export type { PageRequest };

export interface Page<Row> {
  rows: Row[];
  next?: { page: string };
  count: number;
}

/** A row of keysetPage's: the table's columns and the `extra` fields. */
type KeysetRow<T extends PgTable, Extra> = T['$inferSelect'] & { [K in keyof Extra]: Extra[K] extends SQL<infer V> ? V : unknown };

/** The selects of one page of keysetPage's and of its total (its rows carry it as `pageTotal`). */
export interface KeysetPageSelects<Row> {
  /** The page's rows, a select that other selects may read from (a subquery). */
  rows: Parameters<typeof attachSelect>[1] & PromiseLike<unknown[]> & SQLWrapper;
  total: Select & PromiseLike<{ total: number }[]>;
  /** The condition after the request's cursor; undefined on the first page. */
  after: SQL | undefined;
  limit: number;
  cursorOf: (row: Row) => CursorValue[];
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
) {
  return readKeysetPage(undefined, '', keysetPageSelects(db, table, where, keys, request, extra, order));
}

/**
 * The selects of keysetPage's page and of its total, built without running them: what readKeysetPage reads,
 * and what an operation attaches to its grant (attachListPage) so that its page comes with its access.
 */
export function keysetPageSelects<T extends PgTable, Extra extends Record<string, SQL.Aliased | SQL> = Record<never, never>>(
  db: Db,
  table: T,
  where: SQL | undefined,
  keys: PgColumn[],
  request: PageRequest,
  extra?: Extra,
  order: 'asc' | 'desc' = 'asc',
) {
  const limit = pageLimit(request);
  const sortKeys: SortKey[] = keys.map((k) => ({ column: k, kind: k.columnType === 'PgTimestamp' ? 'timestamp' : 'scalar' }));
  const total = db.select({ total: count() }).from(table as PgTable).where(where);
  const after = afterCursor(sortKeys, order, request.page);
  const rows = db
    .select({ ...getTableColumns(table), ...extra, pageTotal: sql<number>`(${total})`.mapWith(Number) })
    .from(table as PgTable)
    .where(and(where, after))
    .orderBy(...orderOf(sortKeys, order))
    .limit(literalLimit(limit + 1));
  const cursorOf = (last: KeysetRow<T, Extra>) => keys.map((k) => (last as Record<string, unknown>)[columnKey(table, k)] as CursorValue);
  const selects: KeysetPageSelects<KeysetRow<T, Extra>> = { rows, total, after, limit, cursorOf };
  return selects;
}

/**
 * The page keysetPageSelects selects: its rows from the grant's statement when they came with it under
 * `name` (`attached`: the grant's attached row), else read now. The total comes in the same round trip, as
 * a scalar subquery of each row; only a page past the end needs its total apart (an empty first page is
 * an empty list), which comes with the grant too when attachListPage attached the page.
 */
export async function readKeysetPage<Row>(
  attached: Record<string, unknown> | undefined,
  name: string,
  selects: KeysetPageSelects<Row>,
): Promise<Page<Row>> {
  const { after, limit, cursorOf } = selects;
  const rows = (await rowsOf(attached, name, selects.rows)) as (Row & { pageTotal?: number })[];
  const total = rows.length > 0 ? rows[0].pageTotal! : after === undefined ? 0 : (await rowsOf(attached, `${name}_total`, selects.total))[0].total;
  for (const row of rows) delete row.pageTotal;
  const page = cutPage(rows, limit, cursorOf);
  return { rows: page.rows, count: total, ...(page.next && { next: page.next }) };
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
