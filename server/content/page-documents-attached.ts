// The Documents a read shows (a page's, or its subtree's: content-documents.ts `hydratePage`,
// `hydrateSubtree`; every page's for a site token's reader when some page has a condition: space-content.ts
// `readerView`), read in the statement that reads its revision (revision-attached.ts), so that the read
// is one round trip. Documents never change once written and are cached in this process by hash: when the
// process holds the revision, it names the Documents it lacks; when it does not, the statement finds the
// page (and its subpages) in the revision's page list itself.
import { isCached, storedPairsSql } from './content-documents.js';
import { positionOf } from './page-index.js';
import { subtreeIds, type RevisionContent } from './revision-content.js';
import { heldContent } from './revisions.store.js';

/**
 * Which Documents a read shows: those of the page `pageId`, or of it and every page under it; or, for a
 * site token's reader (`reader`), every page's when some page has a condition.
 */
export type ShownDocuments = { which: 'page' | 'subtree'; pageId: string } | { which: 'reader' };

/** The ids of the pages of `content` whose Documents `shown` names. */
function shownIds(content: RevisionContent, shown: ShownDocuments): Iterable<string> {
  if (shown.which === 'reader') return content.pages.some((p) => p.condition) ? content.pages.map((p) => p.id) : [];
  return shown.which === 'subtree' ? subtreeIds(content, shown.pageId) : [shown.pageId];
}

/** The hashes of the Documents `shown` names in the revision `held` that this process lacks; none when it does not hold `held`. */
export function missingDocuments(held: string | null, shown: ShownDocuments): string[] {
  const content = held === null ? undefined : heldContent(held);
  if (!content) return [];
  const hashes: string[] = [];
  for (const id of shownIds(content, shown)) {
    const hash = content.pages[positionOf(content.pages, id)]?.documentHash;
    if (hash !== undefined && !isCached(hash)) hashes.push(hash);
  }
  return hashes;
}

/** The parameters of `pageDocumentsColumn`: the missing Documents (JSON), then the page when one is named. */
export function pageDocumentsParams(held: string | null, shown: ShownDocuments): unknown[] {
  const missing = JSON.stringify(missingDocuments(held, shown));
  return shown.which === 'reader' ? [missing] : [missing, shown.pageId];
}

/** The SQL of the pages of the revision `r` whose Documents `which` names, from `listed` (its page list) and the page `$page`. */
const shownSql: Record<ShownDocuments['which'], (page: string) => string> = {
  page: (page) => `SELECT e FROM listed WHERE e->>'id' = ${page}`,
  subtree: (page) => `SELECT e FROM listed WHERE e->>'id' = ${page} UNION SELECT l.e FROM listed l JOIN shown t ON l.e->>'parent' = t.e->>'id'`,
  reader: () => `SELECT e FROM listed WHERE EXISTS (SELECT 1 FROM listed c WHERE COALESCE(c.e->>'condition', '') <> '')`,
};

/**
 * The column `rev_documents` of the revision `r`: `[hash, Document as text]` pairs of the pages `which`
 * names, its parameters (pageDocumentsParams) from `$first`. When `r` is the revision `held` (which this
 * process holds), those it lacks (missingDocuments); else those of the pages its page list names, read from
 * the row's pages or its page chunks (revisions.store.ts).
 */
export function pageDocumentsColumn(which: ShownDocuments['which'], held: string, first: number): string {
  const [missing, page] = [`$${first}::jsonb`, `$${first + 1}::text`];
  return `CASE WHEN r.id IS DISTINCT FROM ${held} THEN (
        WITH RECURSIVE listed AS (
          SELECT e FROM jsonb_array_elements(COALESCE(r.content->'pages', '[]'::jsonb)) e
          UNION ALL
          SELECT e FROM content_documents c CROSS JOIN jsonb_array_elements(c.document) e
            WHERE c.hash IN (SELECT jsonb_array_elements_text(r.content->'pageChunks'))
        ), shown AS (${shownSql[which](page)})
        SELECT ${storedPairsSql(`SELECT e->>'documentHash' FROM shown`)})
      ELSE ${storedPairsSql(`SELECT jsonb_array_elements_text(${missing})`)} END AS rev_documents`;
}

/** How many parameters `pageDocumentsColumn` takes. */
export const pageDocumentsParamCount = (which: ShownDocuments['which']) => (which === 'reader' ? 1 : 2);
