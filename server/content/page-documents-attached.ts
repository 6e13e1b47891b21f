// The Documents a page read shows (the page's, or its subtree's: content-documents.ts `hydratePage`,
// `hydrateSubtree`), read in the statement that reads its revision (revision-attached.ts), so that the read
// is one round trip. Documents never change once written and are cached in this process by hash: when the
// process holds the revision, it names the Documents it lacks; when it does not, the statement finds the
// page (and its subpages) in the revision's page list itself.
import { isCached } from './content-documents.js';
import { positionOf } from './page-index.js';
import { subtreeIds } from './revision-content.js';
import { heldContent } from './revisions.store.js';

/** Which Documents a page read shows: its page's, or those of the page and every page under it. */
export type PageDocuments = 'page' | 'subtree';

/** The hashes of the Documents of `pageId` (`which`) the revision `held` names and this process lacks; none when it does not hold `held`. */
export function missingDocuments(held: string | null, pageId: string, which: PageDocuments): string[] {
  const content = held === null ? undefined : heldContent(held);
  if (!content) return [];
  const ids = which === 'subtree' ? subtreeIds(content, pageId) : new Set([pageId]);
  const hashes: string[] = [];
  for (const id of ids) {
    const hash = content.pages[positionOf(content.pages, id)]?.documentHash;
    if (hash !== undefined && !isCached(hash)) hashes.push(hash);
  }
  return hashes;
}

/**
 * The column `rev_documents` of the revision `r`: `[hash, Document as text]` pairs of the page `page` (SQL
 * text) and, for `subtree`, of its subpages. When `r` is the revision `held` (which this process holds),
 * those of `missing` (a JSON array of hashes: missingDocuments); else those its page list names, read from
 * the row's pages or its page chunks (revisions.store.ts).
 */
export function pageDocumentsColumn(which: PageDocuments, held: string, page: string, missing: string): string {
  const documentsOf = (hashes: string) => `(SELECT json_agg(json_build_array(d.hash, d.document::text)) FROM content_documents d WHERE d.hash IN (${hashes}))`;
  const under = which === 'subtree' ? `UNION SELECT l.e FROM listed l JOIN shown t ON l.e->>'parent' = t.e->>'id'` : '';
  return `CASE WHEN r.id IS DISTINCT FROM ${held} THEN (
        WITH RECURSIVE listed AS (
          SELECT e FROM jsonb_array_elements(COALESCE(r.content->'pages', '[]'::jsonb)) e
          UNION ALL
          SELECT e FROM content_documents c CROSS JOIN jsonb_array_elements(c.document) e
            WHERE c.hash IN (SELECT jsonb_array_elements_text(r.content->'pageChunks'))
        ), shown AS (SELECT e FROM listed WHERE e->>'id' = ${page} ${under})
        SELECT ${documentsOf(`SELECT e->>'documentHash' FROM shown`)})
      ELSE ${documentsOf(`SELECT jsonb_array_elements_text(${missing})`)} END AS rev_documents`;
}
