// Contents narrowed to what one reader may see (reader-content.ts). They share their
// revision's id, so what is cached by revision id (the Markdown of a page) must not be cached from them.
import type { RevisionContent } from './revision-content.js';

const views = new WeakSet<RevisionContent>();

/** Marks `content` as one reader's view of a revision. */
export function markReaderView(content: RevisionContent): RevisionContent {
  views.add(content);
  return content;
}

/** Whether `content` is one reader's view (not the whole revision). */
export function isReaderView(content: RevisionContent): boolean {
  return views.has(content);
}
