// Pages over a site's structure in tree order. A site's sections and site spaces are few (they make up
// one site's navigation), so the whole ordered list is read and the page cut from it; the cursor is the
// id of the last item of the previous page, opaque to clients.
import { DEFAULT_PAGE_SIZE } from '../../contract/common.js';
import type { PageRequest } from '../db/paginate.js';
import { decodeIdCursor, encodeCursor, invalidCursor } from '../db/cursor.js';

/** The page of `items` after the cursor, with the total and the next cursor. */
export function pageOf<T extends { id: string }>(items: T[], request: PageRequest): { rows: T[]; count: number; next?: { page: string } } {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  let start = 0;
  if (request.page !== undefined) {
    const lastId = decodeIdCursor(request.page);
    const index = items.findIndex((i) => i.id === lastId);
    if (index < 0) throw invalidCursor();
    start = index + 1;
  }
  const rows = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  return { rows, count: items.length, ...(hasMore && { next: { page: encodeCursor([rows.at(-1)!.id]) } }) };
}
