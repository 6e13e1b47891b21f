// A three-way merge of revisions read without their Documents (revisions.store.ts `documents: false`): only
// the pages changed on both sides get their Documents loaded (one query, or none when cached), so a merge
// that touches one page of a large space reads one page's Documents, not the space's.
import type { Db } from '../db/client.js';
import { ownPages } from './content-documents.js';
import { mergeContent, pagesChangedOnBothSides, pagesToMerge } from './merge.js';
import type { RevisionContent } from './revision-content.js';

/** `ours` merged with `theirs` from `base` (merge.ts `mergeContent`); the contents' pages may lack Documents. */
export async function mergeStoredContents(db: Db, base: RevisionContent, theirs: RevisionContent, ours: RevisionContent): Promise<RevisionContent> {
  // Computed once: ownPages copies only pages of this set, so it stays true for mergeContent.
  const toMerge = pagesToMerge(base, theirs, ours);
  await ownPages(db, [base, theirs, ours], pagesChangedOnBothSides(base, theirs, ours, toMerge));
  return mergeContent(base, theirs, ours, toMerge);
}
