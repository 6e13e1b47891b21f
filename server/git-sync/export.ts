// An export: the space's current content written in GitBook's format (format/) as one commit on top of
// the branch's head, keeping the repository's other files, and pushed. The commit's author is the creator
// of the change request whose merge made the revision (else the caller). Nothing is written to the space
// until the push succeeded; then the revision records the commit (`git`, createdByGitBook) and where its
// pages and files are. When the branch moved since the last sync, the export fails naming the pages
// changed on both sides, unless `force`.
import { and, eq, inArray } from 'drizzle-orm';
import { loadRevision, type RevisionGit, type StoredRevision } from '../content/revisions.store.js';
import { changeRequests, contentFiles, contentRevisions, spaces, users } from '../db/schema/index.js';
import type { Db } from '../db/client.js';
import { writeRepository } from './format/index.js';
import { conflictsOf, idsChangedInRepository, pagesChangedInSpace } from './changes.js';
import { lockRecord, recordOutcome, type Outcome } from './outcome.js';
import { OperationRefused, type OperationContext } from './sync.job.js';
import type { CommitAuthor, TreeFile } from './work-repository.js';
import { withWorkRepository } from './work-repository.js';

/** The bytes of the files of the content, by file id. */
async function fileBytesOf(db: Db, spaceId: string, current: StoredRevision): Promise<Map<string, Uint8Array>> {
  const ids = current.content.files.map((f) => f.id);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ fileId: contentFiles.fileId, bytes: contentFiles.bytes })
    .from(contentFiles)
    .where(and(eq(contentFiles.spaceId, spaceId), inArray(contentFiles.fileId, ids)));
  return new Map(rows.map((r) => [r.fileId, new Uint8Array(r.bytes as Buffer)]));
}

/** Who the commit is by: the creator of the change request merged into this revision, else the caller. */
async function authorOf(db: Db, spaceId: string, revisionId: string, callerId: string): Promise<CommitAuthor> {
  const [merged] = await db
    .select({ name: users.displayName, email: users.email })
    .from(changeRequests)
    .innerJoin(users, eq(users.id, changeRequests.createdBy))
    .where(and(eq(changeRequests.spaceId, spaceId), eq(changeRequests.revisionMerged, revisionId)));
  if (merged) return merged;
  const [caller] = await db.select({ name: users.displayName, email: users.email }).from(users).where(eq(users.id, callerId));
  return caller ?? { name: 'GitBook', email: 'git-sync@localhost' };
}

/** The tree of the new commit: the head's files, without those the docs had at the last sync, with the written ones. */
async function nextTree(
  head: Map<string, TreeFile>,
  previousPaths: Map<string, string> | undefined,
  written: Map<string, Uint8Array>,
  writeBlob: (bytes: Uint8Array) => Promise<string>,
): Promise<Map<string, TreeFile>> {
  const tree = new Map(head);
  for (const path of previousPaths?.values() ?? []) tree.delete(path);
  for (const [path, bytes] of written) tree.set(path, { oid: await writeBlob(bytes), mode: '100644' });
  return tree;
}

/** Runs the export; returns the outcome it recorded. */
export async function exportSpace(op: OperationContext): Promise<Outcome> {
  const { payload, db } = op;
  const [space] = await db.select().from(spaces).where(eq(spaces.id, payload.spaceId));
  if (!space || space.deletedAt) throw new OperationRefused('The space was deleted');
  const record = await lockRecord(db, payload.spaceId);
  const current = await loadRevision(db, space.revisionId, space.createdAt);
  const base = record?.revision ? (record.revision === current.id ? current : await loadRevision(db, record.revision, space.createdAt)) : undefined;
  const fileBytes = await fileBytesOf(db, payload.spaceId, current);
  const author = await authorOf(db, payload.spaceId, current.id, payload.requestedBy);
  const previousGit = current.git ?? base?.git;
  const previousPaths = previousGit && new Map(Object.entries(previousGit.blobs).map(([id, b]) => [id, b.path]));
  const message = payload.commitMessage ?? `Update from GitBook (${space.title})`;

  const pushed = await withWorkRepository(op.remote, op.limits, async (repo) => {
    const head = await repo.remoteHead(payload.ref);
    let headFiles = new Map<string, TreeFile>();
    let headTree: string | undefined;
    if (head) {
      await repo.fetch(payload.ref);
      headFiles = await repo.listFiles(head);
      headTree = await repo.treeOf(head);
    }
    if (head && record?.commit && head !== record.commit && !payload.force && !payload.standalone) {
      const inRepository = idsChangedInRepository(base?.git, headFiles);
      const conflicts = conflictsOf(current.content, pagesChangedInSpace(base?.content, current.content), inRepository ?? new Set(), previousGit);
      throw new OperationRefused(
        `The branch ${payload.ref} moved since the last sync (it is at ${head}, the sync at ${record.commit})` +
          (conflicts.length > 0 ? `, and these pages changed on both sides: ${conflicts.map((c) => c.path).join(', ')}` : '') +
          '. Import it first, or export with force to overwrite it',
        conflicts,
      );
    }
    const written = writeRepository(current.content, fileBytes, { projectDirectory: payload.projectDirectory, previousPaths });
    const tree = await nextTree(headFiles, previousPaths, written.files, (bytes) => repo.writeBlob(bytes));
    const treeOid = await repo.writeTree(tree);
    const blobs: RevisionGit['blobs'] = {};
    for (const [id, path] of written.paths) {
      const file = tree.get(path);
      if (file) blobs[id] = { oid: file.oid, path };
    }
    if (head && treeOid === headTree) return { commit: head, blobs, changed: false, message: await repo.commitMessage(head) };
    const commit = await repo.writeCommit(treeOid, head, message, author, op.job.now());
    await repo.push(commit, payload.ref);
    return { commit, blobs, changed: true, message };
  });

  const outcome: Outcome = {
    state: 'success',
    result: pushed.changed ? 'applied' : 'unchanged',
    commit: pushed.commit,
    timestamp: payload.timestamp,
    ...(!payload.standalone && { synced: { commit: pushed.commit, revision: current.id } }),
  };
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    if (!payload.standalone) {
      const git: RevisionGit = {
        commit: {
          oid: pushed.commit,
          message: pushed.message,
          createdByGitBook: pushed.changed || current.git?.commit?.createdByGitBook === true,
          ref: payload.ref,
          ...(payload.commitURL && { url: `${payload.commitURL}${pushed.commit}` }),
        },
        blobs: pushed.blobs,
      };
      // The revision exported may be the space's first, which has no row until something is written.
      const [row] = await tx.select({ id: contentRevisions.id }).from(contentRevisions).where(eq(contentRevisions.id, current.id));
      if (row) await tx.update(contentRevisions).set({ git }).where(eq(contentRevisions.id, current.id));
    }
    await recordOutcome(tx, payload.spaceId, op.job.job.id, outcome, op.job.now());
  });
  return outcome;
}
