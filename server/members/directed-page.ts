// Keyset pagination in either direction, for lists whose sort key is not a single table's columns (a
// joined user's name, a timestamp) or whose order the caller chooses. The cursor rules are
// server/db/cursor.ts's; this file only fits them to the member, team and space lists.
import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterCursor, cutPage, orderOf, pageLimit, type CursorValue, type PageRequest, type SortKey as CursorSortKey } from '../db/cursor.js';

/** A sort key: the SQL it sorts on, and how a cursor value is written back into SQL (e.g. cast). */
export type SortKey = Omit<CursorSortKey, 'kind'>;

/** The condition, order and limit of one page sorted by `keys` (unique together) in direction `order`. */
export function directedPage(keys: SortKey[], order: 'asc' | 'desc', request: PageRequest) {
  const limit = pageLimit(request);
  const sortKeys: CursorSortKey[] = keys.map((k) => ({ ...k, kind: k.cast === 'timestamptz' ? 'timestamp' : 'scalar' }));
  return { condition: afterCursor(sortKeys, order, request.page), orderBy: orderOf(sortKeys, order), fetch: limit + 1, limit };
}

/** The page envelope from `limit + 1` fetched rows; `cursorOf` gives a row's key values. */
export function finishPage<Row, Item>(rows: Row[], limit: number, total: number, cursorOf: (row: Row) => CursorValue[], toItem: (row: Row) => Item) {
  const page = cutPage(rows, limit, cursorOf);
  return { items: page.rows.map(toItem), count: total, ...(page.next && { next: page.next }) };
}

export type DirectedPage = ReturnType<typeof directedPage>;

/**
 * A list's total as a field of each row of its page: the page and its count in one statement (read back by
 * server/db/attached-select.ts pageOf).
 */
export const totalField = (total: SQLWrapper) => sql<number>`(${total})`.mapWith(Number);

/** `%text%` for ILIKE, with the pattern characters of `text` escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
