// An import: the ref's tree is fetched and read in GitBook's format (format/), then written to the space
// as one new revision recording the commit (`git`) and where each page and file came from. Pages keep
// their ids where their path is unchanged. When the space also changed since the last sync, pages changed
// on one side only are merged (server/content/merge.ts); pages changed on both make the import fail naming
// them, unless `force`. The write checks the space still has the revision the import was computed from
// (else it computes again), and writes the content, the files' rows and the outcome in one transaction
// (the files' bytes were stored as the fetch read them: read-docs.ts).
import { and, eq, isNull } from 'drizzle-orm';
import { Conflict as MergeConflict } from '../errors.js';
import { createCtx, type Ctx } from '../context.js';
import { putBlobBytes } from '../blobs/blobs.js';
import { contentFiles, contentRevisions, spaces } from '../db/schema/index.js';
import { mergeContent } from '../content/merge.js';
import { emptyContent, type RevisionContent } from '../content/revision-content.js';
import { insertRevision, loadRevision, type RevisionGit, type StoredRevision } from '../content/revisions.store.js';
import { publish } from '../events/domain-events.js';
import { createUrls } from '../urls.js';
import { readRepository, type ImportedContent } from './format/index.js';
import { conflictsOf, idsChangedInRepository, pagesChangedInSpace, pagesMovedInRepository, recordConflictsOf, recordsChangedInSpace } from './changes.js';
import { lockRecord, recordOutcome, type Outcome } from './outcome.js';
import { OperationRefused, type OperationContext } from './sync.job.js';
import { readDocs, type RepositoryAsset } from './read-docs.js';
import { withWorkRepository, type TreeFile } from './work-repository.js';

export interface Fetched {
  commit: string;
  message: string;
  tree: Map<string, TreeFile>;
  /** The text files under the docs root, a placeholder for the others (read-docs.ts). */
  files: Map<string, Uint8Array>;
  /** The other files' sizes, and for assets the blob their bytes were stored as. */
  assets: Map<string, RepositoryAsset>;
}

/** The ref's commit, its message, its tree and the files under the docs root, the assets stored as blobs. */
async function fetchRef(op: OperationContext): Promise<Fetched> {
  const { payload } = op;
  return withWorkRepository(op.remote, op.limits, async (repo) => {
    const commit = await repo.remoteHead(payload.ref);
    if (!commit) throw new OperationRefused(`The repository has no ref ${payload.ref}`);
    // The assets are stored from the spool the pack's index pass writes (read-docs.ts).
    await repo.fetch(commit, { spoolBlobsUpTo: op.limits.maxAssetBytes });
    const tree = await repo.listFiles(commit);
    const { files, assets } = await readDocs(op.db, repo, tree, payload.projectDirectory ?? '', op.job.now(), op.limits.maxAssetBytes);
    return { commit, message: await repo.commitMessage(commit), tree, files, assets };
  });
}

/** id → path of the pages and files of the last sync (for ids to stay with their paths). */
function pathsOf(git: RevisionGit | undefined): Map<string, string> | undefined {
  return git && new Map(Object.entries(git.blobs).map(([id, blob]) => [id, blob.path]));
}

export interface Planned {
  content: RevisionContent;
  imported: ImportedContent;
  /** By repository path, the assets read (their bytes stored as blobs). */
  assets: Map<string, RepositoryAsset>;
  /** In a merge, the pages whose content is the space's (changed there since the sync), not their file's. */
  fromSpace?: string[];
}

/**
 * The content to write: the repository's as read, or (when the space changed too, without `force`) the
 * repository's changes merged into the space's (three-way, against the content of the last sync). Throws
 * OperationRefused naming the pages changed on both. An export that finds the branch moved merges so too.
 */
export function plan(op: OperationContext, fetched: Fetched, current: StoredRevision, base: StoredRevision | undefined, now: Date, divergent: string[] = []): Planned {
  const { payload } = op;
  const imported = readRepository(fetched.files, {
    projectDirectory: payload.projectDirectory,
    previous: current.content,
    previousPaths: pathsOf(current.git) ?? pathsOf(base?.git),
    now,
    limits: op.limits,
    assets: fetched.assets,
  });
  // Pages an earlier merge took from the space (`divergent`) are the space's changes still, whatever the base says.
  const spaceChanged = (base ? current.id !== base.id : current.content.pages.length > 0) || divergent.length > 0;
  const assets = fetched.assets;
  if (payload.force || payload.standalone || !spaceChanged) return { content: imported.content, imported, assets };

  const inSpace = pagesChangedInSpace(base?.content, current.content);
  for (const id of divergent) if (current.content.pages.some((p) => p.id === id)) inSpace.add(id);
  const recordsInSpace = recordsChangedInSpace(base?.content, current.content);
  for (const id of divergent) if (current.content.reusableContents.some((r) => r.id === id)) recordsInSpace.add(id);
  // Never synced: a page of the space is in conflict when the repository has a page at its path (same id) with other content.
  const byBlob = idsChangedInRepository(base?.git, fetched.tree);
  const inRepository = byBlob ? new Set([...byBlob, ...pagesMovedInRepository(base!.content, imported.content, divergent)]) : pagesChangedInSpace(current.content, imported.content);
  const git = current.git ?? base?.git;
  const conflicts = conflictsOf(current.content, inSpace, inRepository, git, imported.content);
  const records = recordConflictsOf(current.content, imported.content, recordsInSpace, byBlob ?? recordsChangedInSpace(current.content, imported.content), git);
  if (conflicts.length > 0 || records.length > 0) {
    throw new OperationRefused(
      `Both the space and the repository changed since the last sync: ${[...conflicts.map((c) => c.path), ...records].join(', ')}. ` +
        (payload.direction === 'import' ? "Import with force to take the repository's content" : "Export with force to write the space's content over the branch"),
      conflicts.length > 0 ? conflicts : undefined,
    );
  }
  // What the repository did not change stays as it was at the sync, so the merge takes the space's side.
  const baseContent = base?.content ?? emptyContent();
  const unchanged = <T extends { id: string }>(records: T[], before: T[]): T[] => {
    const at = new Map(before.map((r) => [r.id, r]));
    return records.map((r) => (!inRepository.has(r.id) && at.has(r.id) ? at.get(r.id)! : r));
  };
  const theirs: RevisionContent = {
    ...imported.content,
    pages: unchanged(imported.content.pages, baseContent.pages),
    files: byBlob ? unchanged(imported.content.files, baseContent.files) : imported.content.files,
    reusableContents: byBlob ? unchanged(imported.content.reusableContents, baseContent.reusableContents) : imported.content.reusableContents,
  };
  // Only the bytes of files the repository changed or added are written over the space's.
  const baseFiles = new Set(baseContent.files.map((f) => f.id));
  const fileBytes = new Map([...imported.fileBytes].filter(([id]) => !baseFiles.has(id) || inRepository.has(id)));
  const mergedImport = { ...imported, fileBytes };
  try {
    return { content: mergeContent(baseContent, theirs, current.content), imported: mergedImport, assets, fromSpace: [...inSpace, ...current.content.reusableContents.filter((r) => recordsInSpace.has(r.id)).map((r) => r.id)] };
  } catch (err) {
    if (err instanceof MergeConflict) throw new OperationRefused(`Both the space and the repository changed since the last sync: ${err.message}`);
    throw err;
  }
}

export function jobCtx(op: OperationContext): Ctx {
  return createCtx({ caller: { userId: op.payload.requestedBy }, db: op.db, now: op.job.now, urls: createUrls('http://localhost'), log: op.job.log });
}

/** Runs the import; returns the outcome it recorded. */
export async function importRepository(op: OperationContext): Promise<Outcome> {
  const { payload } = op;
  const fetched = await fetchRef(op);
  for (let attempt = 0; ; attempt++) {
    const [space] = await op.db.select().from(spaces).where(and(eq(spaces.id, payload.spaceId), isNull(spaces.deletedAt)));
    if (!space) throw new OperationRefused('The space was deleted');
    const record = await lockRecord(op.db, payload.spaceId);
    const current = await loadRevision(op.db, space.revisionId, space.createdAt);
    const base = record?.revision && record.revision !== current.id ? await loadRevision(op.db, record.revision, space.createdAt) : record?.revision ? current : undefined;
    // The repository holds nothing the space has not imported: whatever the space did since stays.
    if (!payload.force && !payload.standalone && record?.commit === fetched.commit) {
      const outcome: Outcome = { state: 'success', result: 'unchanged', commit: fetched.commit, timestamp: payload.timestamp };
      await jobCtx(op).transaction((tx) => recordOutcome(tx.db, payload.spaceId, op.job.job.id, outcome, tx.now()));
      return outcome;
    }
    const now = op.job.now();
    const planned = plan(op, fetched, current, base, now, record?.divergent);
    const written = await jobCtx(op).transaction(async (tx) => {
      const [locked] = await tx.db.select().from(spaces).where(eq(spaces.id, payload.spaceId)).for('update');
      if (!locked || locked.deletedAt) throw new OperationRefused('The space was deleted');
      if (locked.revisionId !== current.id) return undefined; // changed meanwhile: plan again
      if (locked.editMode === 'locked') throw new OperationRefused('The space is locked (editMode: locked): its content cannot be changed');
      return write(tx, op, fetched, planned, current);
    });
    if (written) return written;
    if (attempt >= 2) throw new OperationRefused('The space kept changing while the import was written; request it again');
  }
}

async function write(tx: Ctx, op: OperationContext, fetched: Fetched, planned: Planned, current: StoredRevision): Promise<Outcome> {
  const { payload } = op;
  const revision = await insertRevision(tx, payload.spaceId, { parents: [current.id], type: 'update', content: planned.content });
  const blobs: RevisionGit['blobs'] = {};
  for (const [id, path] of planned.imported.paths) {
    const file = fetched.tree.get(path);
    const kept = planned.content.pages.some((p) => p.id === id) || planned.content.files.some((f) => f.id === id) || planned.content.reusableContents.some((r) => r.id === id);
    if (file && kept) blobs[id] = { oid: file.oid, path };
  }
  const git: RevisionGit = {
    commit: {
      oid: fetched.commit,
      message: fetched.message,
      createdByGitBook: false,
      ref: payload.ref,
      ...(payload.commitURL && { url: `${payload.commitURL}${fetched.commit}` }),
    },
    blobs,
  };
  await tx.db.update(contentRevisions).set({ git }).where(eq(contentRevisions.id, revision.id));
  await saveImportedFiles(tx, payload.spaceId, planned, op.limits.maxAssetBytes);
  if (!payload.standalone) {
    await tx.db.update(spaces).set({ revisionId: revision.id, updatedAt: tx.now() }).where(eq(spaces.id, payload.spaceId));
    await publish(tx, 'space content updated', { spaceId: payload.spaceId, revisionId: revision.id, previousRevisionId: current.id });
  }
  const outcome: Outcome = {
    state: 'success',
    result: 'applied',
    commit: fetched.commit,
    revision: revision.id,
    timestamp: payload.timestamp,
    warnings: planned.imported.warnings,
    ...(!payload.standalone && { synced: { commit: fetched.commit, revision: revision.id }, divergent: planned.fromSpace ?? [] }),
  };
  await recordOutcome(tx.db, payload.spaceId, op.job.job.id, outcome, tx.now());
  return outcome;
}

/**
 * The files the import read, pointed at their blobs (server/blobs/; stored as they were read, read-docs.ts):
 * new files inserted, changed ones (same id, other bytes) pointed at their new blob. In the job's
 * transaction, so a failed import leaves no file rows behind.
 */
export async function saveImportedFiles(tx: Ctx, spaceId: string, planned: Planned, maxAssetBytes: number): Promise<void> {
  const now = tx.now();
  for (const file of planned.content.files) {
    if (!planned.imported.fileBytes.has(file.id)) continue;
    const path = planned.imported.paths.get(file.id);
    const asset = path === undefined ? undefined : planned.assets.get(path);
    const blob = asset?.sha256 ? { sha256: asset.sha256, size: asset.size } : await putBlobBytes(tx.db, planned.imported.fileBytes.get(file.id)!, now, maxAssetBytes);
    await tx.db
      .insert(contentFiles)
      .values({ spaceId, fileId: file.id, name: file.name, contentType: file.contentType, size: blob.size, sha256: blob.sha256, createdAt: now })
      .onConflictDoUpdate({
        target: [contentFiles.spaceId, contentFiles.fileId],
        set: { name: file.name, contentType: file.contentType, size: blob.size, sha256: blob.sha256 },
      });
  }
}
