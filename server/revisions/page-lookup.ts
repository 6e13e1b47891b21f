// Finding what a renderer asks for in a revision: a page by its path, a reusable content by its id.
import { upgradeDocument } from '../content/document-upgrade.js';
import type { Document } from '../content/markdown-document.js';
import { NotFound } from '../errors.js';
import { pagePath, type RevisionContent, type StoredPage, type StoredReusableContent } from '../content/revision-content.js';

/** `getting-started/quickstart` from any spelling a caller may send: leading, trailing and doubled slashes dropped. */
export function normalizePagePath(raw: string): string {
  return raw.split('/').filter((s) => s !== '').join('/');
}

/** The page whose path is `raw` (after normalizing); NotFound names the parameter. */
export function findPageByPath(content: RevisionContent, raw: string): StoredPage {
  const wanted = normalizePagePath(raw);
  const byId = new Map(content.pages.map((p) => [p.id, p]));
  const page = wanted === '' ? undefined : content.pages.find((p) => pagePath(byId, p) === wanted);
  if (!page) throw new NotFound(`No page at path ${JSON.stringify(wanted)} (path.pagePath) in this revision`);
  return page;
}

/** The reusable content `id` of the content; NotFound names the parameter. */
export function findReusableContent(content: RevisionContent, id: string, at = 'path.reusableContentId'): StoredReusableContent {
  const found = content.reusableContents.find((r) => r.id === id);
  if (!found) throw new NotFound(`Reusable content ${id} (${at}) not found in this revision`);
  return found;
}

/** The document of a reusable content, with its `data` (empty when it has no blocks). */
export function reusableDocument(reusable: StoredReusableContent): Document {
  return upgradeDocument({ object: 'document', data: reusable.document?.data ?? {}, nodes: reusable.document?.nodes ?? [] });
}
