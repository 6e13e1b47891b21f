// A three-way merge of revisions read without their Documents (revisions.store.ts `documents: false`): only
// the pages changed on both sides get their Documents loaded (one query, or none when cached), so a merge
// that touches one page of a large space reads one page's Documents, not the space's.
import type { Db } from '../db/client.js';
import { hydratePages } from './content-documents.js';
import { comparePages, mergeContent, pagesChangedOnBothSides } from './merge.js';
import type { RevisionContent, StoredPage } from './revision-content.js';

/** `ours` merged with `theirs` from `base` (merge.ts `mergeContent`); the contents' pages may lack Documents. */
export async function mergeStoredContents(db: Db, base: RevisionContent, theirs: RevisionContent, ours: RevisionContent): Promise<RevisionContent> {
  const compared = comparePages(base, theirs, ours);
  // The pages changed on both sides, each side's its own copy with its Document, in place of the shared
  // one (the contents' lists are left as they are: the merge reads compared pages from `compared`).
  const copies: StoredPage[] = [];
  for (const id of pagesChangedOnBothSides(compared)) {
    for (const side of [compared.base, compared.theirs, compared.ours]) {
      const page = side.get(id);
      if (!page) continue;
      const copy = { ...page };
      side.set(id, copy);
      copies.push(copy);
    }
  }
  await hydratePages(db, copies);
  return mergeContent(base, theirs, ours, compared);
}
