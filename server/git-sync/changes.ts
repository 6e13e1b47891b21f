// What changed since the last sync, on each side: in the space, pages whose content (title, description,
// emoji, place, visibility, Markdown) differs from the synced revision; in the repository, pages whose
// file's blob differs from the one recorded at that sync. A page changed on both is a conflict.
import { markdownOfPage } from '../content/revision-view.js';
import { pagePath, type RevisionContent, type StoredPage } from '../content/revision-content.js';
import type { RevisionGit } from '../content/revisions.store.js';
import type { TreeFile } from './work-repository.js';
import type { GitSyncOperation } from './sync-record.js';

export type Conflict = NonNullable<GitSyncOperation['conflicts']>[number];

function fingerprint(content: RevisionContent, page: StoredPage): string {
  const { title, description, emoji, parent, type, hidden } = page;
  return JSON.stringify([title, description ?? '', emoji ?? '', parent, type, hidden, markdownOfPage(content, page)]);
}

/** Ids of the pages of `current` added or changed since `base` (every page when there is no base). */
export function pagesChangedInSpace(base: RevisionContent | undefined, current: RevisionContent): Set<string> {
  if (!base) return new Set(current.pages.map((p) => p.id));
  const before = new Map(base.pages.map((p) => [p.id, p]));
  const changed = new Set<string>();
  for (const page of current.pages) {
    const old = before.get(page.id);
    if (!old || fingerprint(base, old) !== fingerprint(current, page)) changed.add(page.id);
  }
  return changed;
}

/**
 * Ids of the pages and files recorded at the last sync whose file in the repository is now another blob or
 * gone; `undefined` when nothing was recorded (never synced: every page counts as changed).
 */
export function idsChangedInRepository(synced: RevisionGit | undefined, files: Map<string, TreeFile>): Set<string> | undefined {
  if (!synced) return undefined;
  const changed = new Set<string>();
  for (const [id, blob] of Object.entries(synced.blobs)) if (files.get(blob.path)?.oid !== blob.oid) changed.add(id);
  return changed;
}

/** The pages of `current` changed on both sides, named for the operation's outcome. */
export function conflictsOf(current: RevisionContent, inSpace: Set<string>, inRepository: Set<string> | undefined, git: RevisionGit | undefined): Conflict[] {
  const byId = new Map(current.pages.map((p) => [p.id, p]));
  return current.pages
    .filter((p) => inSpace.has(p.id) && (inRepository === undefined || inRepository.has(p.id)))
    .map((p) => ({ page: p.id, title: p.title, path: pagePath(byId, p), ...(git?.blobs[p.id] && { gitPath: git.blobs[p.id].path }) }));
}
