// Pages over a site's structure in tree order. A site's sections and site spaces are few (they make up
// one site's navigation), so the whole ordered list is read and the page cut from it; the cursor is the
// id of the last item of the previous page, opaque to clients.
import { cutPage, decodeIdCursor, invalidCursor, pageLimit, type PageRequest } from '../db/cursor.js';

/** The page of `items` after the cursor, with the total and the next cursor. */
export function pageOf<T extends { id: string }>(items: T[], request: PageRequest): { rows: T[]; count: number; next?: { page: string } } {
  const limit = pageLimit(request);
  let start = 0;
  if (request.page !== undefined) {
    const lastId = decodeIdCursor(request.page);
    const index = items.findIndex((i) => i.id === lastId);
    if (index < 0) throw invalidCursor();
    start = index + 1;
  }
  const page = cutPage(items.slice(start, start + limit + 1), limit, (last) => [last.id]);
  return { rows: page.rows, count: items.length, ...(page.next && { next: page.next }) };
}
