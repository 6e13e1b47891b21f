// Keyset pagination in either direction, for lists whose sort key is not a single table's columns (a
// joined user's name, a timestamp) or whose order the caller chooses. Same cursor rules as
// server/db/paginate.ts: a page starts strictly after the keys of the previous page's last row.
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE } from '../../contract/common.js';
import { decodeCursor, encodeCursor, type CursorValue } from '../db/cursor.js';
import type { PageRequest } from '../db/paginate.js';

/** A sort key: the SQL it sorts on, and how a cursor value is written back into SQL (e.g. cast). */
export interface SortKey {
  column: PgColumn | SQL;
  cast?: string;
}

/** The condition, order and limit of one page sorted by `keys` (unique together) in direction `order`. */
export function directedPage(keys: SortKey[], order: 'asc' | 'desc', request: PageRequest) {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const after = request.page === undefined ? undefined : decodeCursor(request.page, keys.map((k) => (k.cast === 'timestamptz' ? 'timestamp' : 'scalar')));
  const values = after?.map((v, i) => (keys[i].cast ? sql`${v}::${sql.raw(keys[i].cast!)}` : sql`${v}`));
  const left = sql.join(keys.map((k) => sql`${k.column}`), sql`, `);
  const condition = values ? (order === 'asc' ? sql`(${left}) > (${sql.join(values, sql`, `)})` : sql`(${left}) < (${sql.join(values, sql`, `)})`) : undefined;
  const orderBy = keys.map((k) => (order === 'asc' ? asc(k.column) : desc(k.column)));
  return { condition, orderBy, fetch: limit + 1, limit };
}

/** The page envelope from `limit + 1` fetched rows; `cursorOf` gives a row's key values. */
export function finishPage<Row, Item>(rows: Row[], limit: number, total: number, cursorOf: (row: Row) => CursorValue[], toItem: (row: Row) => Item) {
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  const next = rows.length > limit && last ? { page: encodeCursor(cursorOf(last)) } : undefined;
  return { items: pageRows.map(toItem), count: total, ...(next && { next }) };
}

/** `%text%` for ILIKE, with the pattern characters of `text` escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
