// The changes of a content batch (updateChangeRequestContent) that write reusable contents: insert, update
// and delete. A reusable content is a record of the revision (`reusableContents`: id, title, Document), merged
// by id as files and variables are (merge.ts); its Document is stored as a page's is (page-content.ts: checked,
// keyed, Markdown read with the revision's references). Pages include one with a `reusable-content` block,
// which a batch may write with the `ref` it gave the content (apply-changes.ts withBatchRefs).
import type { z } from 'zod';
import type { ChangeRequestContentChange } from '../../contract/change-requests.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Document } from './markdown-document.js';
import { setPageContent } from './page-content.js';
import { RefResolver } from './ref-resolver.js';
import type { RevisionContent, StoredPage, StoredReusableContent } from './revision-content.js';

type Change = z.output<typeof ChangeRequestContentChange>;
export type ReusableContentChange = Extract<Change, { operation: 'insert_reusable_content' | 'update_reusable_content' | 'delete_reusable_content' }>;
type Body = NonNullable<Extract<Change, { operation: 'insert_reusable_content' }>['document']>;

export type ReusableContentResult =
  | { object: 'created_reusable_content'; ref?: string; reusableContent: string }
  | { object: 'updated_reusable_content'; reusableContent: string }
  | { object: 'deleted_reusable_content'; reusableContent: string };

/** Sets the content's Document from a change's body, as a page's is set: the same checks, keys and references. */
function setContent(content: RevisionContent, reusable: StoredReusableContent, body: Body, at: string): void {
  // page-content.ts stores a page's Document; a holder lends it the reusable content's, then gives it back.
  const holder = { document: reusable.document } as StoredPage;
  const given: Parameters<typeof setPageContent>[1] = 'markdown' in body ? { markdown: body.markdown } : 'document' in body ? { document: body.document as Document } : {};
  setPageContent(holder, given, at, new RefResolver(content).markdownRefs(undefined));
  reusable.document = holder.document;
}

/**
 * Applies one reusable-content change to `content` (in place, as applyChanges does), `at` naming it in errors;
 * `refs` are the batch's names (shared with pages and files), `touched` collects the contents written, whose
 * Documents may name what the batch inserted by its `ref`.
 */
export function applyReusableContentChange(
  content: RevisionContent,
  change: ReusableContentChange,
  at: string,
  refs: Map<string, string>,
  now: Date,
  touched: Set<StoredReusableContent>,
): ReusableContentResult {
  const find = (ref: string): StoredReusableContent => {
    const id = refs.get(ref) ?? ref;
    const found = content.reusableContents.find((r) => r.id === id);
    if (!found) throw new NotFound(`${at}.reusableContent: reusable content ${ref} not found in the change request`);
    return found;
  };
  switch (change.operation) {
    case 'insert_reusable_content': {
      if (change.ref !== undefined && refs.has(change.ref)) throw new BadRequest(`${at}.ref: ${change.ref} is already used in this batch`);
      const reusable: StoredReusableContent = { id: newId('rsc', now.getTime()), title: change.title };
      setContent(content, reusable, change.document ?? {}, `${at}.document`);
      content.reusableContents.push(reusable);
      touched.add(reusable);
      if (change.ref !== undefined) refs.set(change.ref, reusable.id);
      return { object: 'created_reusable_content', ...(change.ref !== undefined && { ref: change.ref }), reusableContent: reusable.id };
    }
    case 'update_reusable_content': {
      const reusable = find(change.reusableContent);
      if (change.title !== undefined) reusable.title = change.title;
      if (change.document !== undefined) {
        setContent(content, reusable, change.document, `${at}.document`);
        touched.add(reusable);
      }
      return { object: 'updated_reusable_content', reusableContent: reusable.id };
    }
    case 'delete_reusable_content': {
      const reusable = find(change.reusableContent);
      content.reusableContents = content.reusableContents.filter((r) => r !== reusable);
      touched.delete(reusable);
      return { object: 'deleted_reusable_content', reusableContent: reusable.id };
    }
  }
}
