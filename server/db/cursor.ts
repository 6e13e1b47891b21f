// The one cursor module of every list. The opaque `next.page` cursor is the sort-key values of the
// previous page's last row, as base64url JSON; a page starts strictly after them, so page 1,000 costs what
// page 1 costs (given an index on the keys). Decoding checks the shape the list expects, so a forged
// cursor is a 400 naming `query.page`, never a value that reaches the database and fails there (a NUL, a
// malformed timestamp).
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE } from '../../contract/common.js';
import { BadRequest } from '../errors.js';

export type CursorValue = string | number;

/** What one key of a cursor must hold: a string or a number, a string, or a timestamp as this API writes them. */
export type CursorKey = 'scalar' | 'string' | 'timestamp';

export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of `page`, one per key and each of its key's kind; a 400 otherwise. */
export function decodeCursor(page: string, keys: readonly CursorKey[]): CursorValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(values) || values.length !== keys.length || !values.every((v, i) => fits(v, keys[i]))) throw invalidCursor();
  return values;
}

/** The one-string cursor of lists keyed by an id alone. */
export function decodeIdCursor(page: string): string {
  return decodeCursor(page, ['string'])[0] as string;
}

export function invalidCursor(): BadRequest {
  return new BadRequest('Invalid request: query.page: not a page identifier returned by this list');
}

function fits(value: unknown, key: CursorKey): boolean {
  if (typeof value === 'string' && value.includes('\u0000')) return false;
  if (key === 'timestamp') return isCursorTimestamp(value);
  if (key === 'string') return typeof value === 'string';
  return typeof value === 'string' || typeof value === 'number';
}

/** Whether `value` is a timestamp as this API writes them (`Date#toISOString`). */
function isCursorTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

/** What a list request asks for: the cursor of the page to start after, and how many items at most. */
export interface PageRequest {
  page?: string;
  limit?: number;
}

/** The number of items a page request asks for (the API's default page size when it does not say). */
export function pageLimit(request: PageRequest): number {
  return request.limit ?? DEFAULT_PAGE_SIZE;
}

/**
 * A key a list is sorted on: the SQL it sorts on, the kind of value its cursor holds, and the cast that
 * writes that value back into SQL when the parameter's type cannot be inferred (e.g. `timestamptz`).
 */
export interface SortKey {
  column: PgColumn | SQL;
  kind?: CursorKey;
  cast?: string;
}

/**
 * The condition "strictly after the cursor `page`" for rows sorted by `keys` (unique together) in `order`,
 * as one row comparison so an index on the keys serves it; undefined on the first page.
 */
export function afterCursor(keys: readonly SortKey[], order: 'asc' | 'desc', page: string | undefined): SQL | undefined {
  if (page === undefined) return undefined;
  const after = decodeCursor(page, keys.map((k) => k.kind ?? 'scalar'));
  const values = after.map((v, i) => (keys[i].cast ? sql`${v}::${sql.raw(keys[i].cast!)}` : sql`${v}`));
  const left = sql.join(keys.map((k) => sql`${k.column}`), sql`, `);
  return sql`(${left}) ${sql.raw(order === 'asc' ? '>' : '<')} (${sql.join(values, sql`, `)})`;
}

/** The ORDER BY of rows sorted by `keys` in `order`. */
export function orderOf(keys: readonly SortKey[], order: 'asc' | 'desc'): SQL[] {
  return keys.map((k) => (order === 'asc' ? asc(k.column) : desc(k.column)));
}

/**
 * The page cut from `rows`, read with `limit + 1` so the extra row tells whether a next page exists;
 * `cursorOf` gives the sort-key values of a row, which the next page starts after.
 */
export function cutPage<Row>(rows: Row[], limit: number, cursorOf: (row: Row) => CursorValue[]): { rows: Row[]; next?: { page: string } } {
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return { rows: pageRows, ...(rows.length > limit && last !== undefined && { next: { page: encodeCursor(cursorOf(last)) } }) };
}
