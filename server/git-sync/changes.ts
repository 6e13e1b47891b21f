// What changed since the last sync, on each side, for everything the repository format carries: a page's
// fields (title, slug, description, emoji, icon, hidden, noIndex, noRobotsIndex, condition, the front
// matter keys it has no field for, its place: parent and type) and its Markdown; a file's record (name,
// type, size, dimensions: its bytes); a reusable content's title and document. In the space, what differs from the synced revision; in the repository,
// what sits in a file whose blob differs from the one recorded at that sync, and what SUMMARY.md says
// (a page's parent and order, a group's title and slug: they have no file of their own). Changed on both: a conflict.
import { stableJson } from '../content/block-keys.js';
import { markdownOfPage } from '../content/revision-view.js';
import { childrenOf, pagePath, type RevisionContent, type StoredFile, type StoredPage, type StoredReusableContent } from '../content/revision-content.js';
import type { RevisionGit } from '../content/revisions.store.js';
import { siblingKeys } from './format/positions.js';
import type { TreeFile } from './work-repository.js';
import type { GitSyncOperation } from './sync-record.js';

export type Conflict = NonNullable<GitSyncOperation['conflicts']>[number];

/** The page fields the format carries (front matter, `# Title`, SUMMARY.md); position aside (SUMMARY.md's order is merged). */
const PAGE_FIELDS = ['title', 'slug', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'condition', 'frontMatter', 'linkTitle', 'parent', 'type', 'target'] as const;

function fieldsOf(page: StoredPage, fields: readonly (keyof StoredPage)[] = PAGE_FIELDS): string {
  return JSON.stringify(fields.map((f) => page[f] ?? null));
}

function fingerprint(content: RevisionContent, page: StoredPage): string {
  return `${fieldsOf(page)}\u0000${markdownOfPage(content, page)}`;
}

const filePrint = (file: StoredFile) => stableJson({ ...file, downloadURL: undefined });
const reusablePrint = (reusable: StoredReusableContent) => stableJson({ title: reusable.title, nodes: reusable.document?.nodes ?? [] });

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

/** Ids of the files and reusable contents of `current` added or changed since `base` (all of them without a base). */
export function recordsChangedInSpace(base: RevisionContent | undefined, current: RevisionContent): Set<string> {
  const changed = new Set<string>();
  const files = new Map((base?.files ?? []).map((f) => [f.id, filePrint(f)]));
  for (const file of current.files) if (files.get(file.id) !== filePrint(file)) changed.add(file.id);
  const reusables = new Map((base?.reusableContents ?? []).map((r) => [r.id, reusablePrint(r)]));
  for (const reusable of current.reusableContents) if (reusables.get(reusable.id) !== reusablePrint(reusable)) changed.add(reusable.id);
  return changed;
}

/**
 * Ids of the pages, files and reusable contents recorded at the last sync whose file in the repository is
 * now another blob or gone; `undefined` when nothing was recorded (never synced: every page counts as changed).
 */
export function idsChangedInRepository(synced: RevisionGit | undefined, files: Map<string, TreeFile>): Set<string> | undefined {
  if (!synced) return undefined;
  const changed = new Set<string>();
  for (const [id, blob] of Object.entries(synced.blobs)) if (files.get(blob.path)?.oid !== blob.oid) changed.add(id);
  return changed;
}

/**
 * Ids of the pages whose place the repository's SUMMARY.md changed since the sync (`base`, the content
 * then): a page under another parent or moved among its siblings (those outside the longest run of
 * siblings still in their order at the sync), a group renamed. Their files say nothing of it; `skip` are
 * pages whose content at the sync was not their file's (an import kept the space's), judged by their blob only.
 */
export function pagesMovedInRepository(base: RevisionContent, imported: RevisionContent, skip: Iterable<string> = []): Set<string> {
  const skipped = new Set(skip);
  const before = new Map(base.pages.map((p) => [p.id, p]));
  const moved = new Set<string>();
  const parents = new Set<string | null>();
  for (const page of imported.pages) {
    parents.add(page.parent);
    const old = before.get(page.id);
    if (!old || skipped.has(page.id)) continue;
    // A document's title is SUMMARY.md's too; a group and a link page are SUMMARY.md entries only.
    const fields: (keyof StoredPage)[] = page.type === 'group' ? ['parent', 'type', 'title', 'slug'] : page.type === 'link' ? ['parent', 'type', 'title', 'target'] : ['parent', 'type', 'title'];
    if (fieldsOf(old, fields) !== fieldsOf(page, fields)) moved.add(page.id);
  }
  // The order: siblings read in the repository's order, with the keys they had at the sync.
  for (const parent of parents) {
    const siblings = childrenOf(imported, parent).filter((p) => !skipped.has(p.id) && before.get(p.id)?.parent === parent);
    const keys = siblings.map((p) => before.get(p.id)!.position);
    const kept = siblingKeys(keys);
    siblings.forEach((p, i) => {
      if (kept[i] !== keys[i]) moved.add(p.id);
    });
  }
  return moved;
}

/**
 * The pages of `current` changed on both sides, named for the operation's outcome; a page both sides
 * changed to the same fields and Markdown (`theirs`, the repository's content) is no conflict.
 */
export function conflictsOf(current: RevisionContent, inSpace: Set<string>, inRepository: Set<string> | undefined, git: RevisionGit | undefined, theirs?: RevisionContent): Conflict[] {
  const byId = new Map(current.pages.map((p) => [p.id, p]));
  const theirPages = new Map((theirs?.pages ?? []).map((p) => [p.id, p]));
  return current.pages
    .filter((p) => inSpace.has(p.id) && (inRepository === undefined || inRepository.has(p.id)))
    .filter((p) => !theirs || !theirPages.has(p.id) || fingerprint(theirs, theirPages.get(p.id)!) !== fingerprint(current, p))
    .map((p) => ({ page: p.id, title: p.title, path: pagePath(byId, p), ...(git?.blobs[p.id] && { gitPath: git.blobs[p.id].path }) }));
}

/** The files and reusable contents changed on both sides (and not to the same record), named in words. */
export function recordConflictsOf(current: RevisionContent, theirs: RevisionContent, inSpace: Set<string>, inRepository: Set<string> | undefined, git: RevisionGit | undefined): string[] {
  const both = (id: string) => inSpace.has(id) && (inRepository === undefined || inRepository.has(id));
  const at = (id: string) => (git?.blobs[id] ? ` (${git.blobs[id].path})` : '');
  const theirFiles = new Map(theirs.files.map((f) => [f.id, filePrint(f)]));
  const theirReusables = new Map(theirs.reusableContents.map((r) => [r.id, reusablePrint(r)]));
  return [
    ...current.files.filter((f) => both(f.id) && theirFiles.get(f.id) !== filePrint(f)).map((f) => `file "${f.name}"${at(f.id)}`),
    ...current.reusableContents.filter((r) => both(r.id) && theirReusables.get(r.id) !== reusablePrint(r)).map((r) => `reusable content "${r.title}"${at(r.id)}`),
  ];
}
