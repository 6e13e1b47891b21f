// An export: the space's current content written in GitBook's format (format/) as one commit on top of
// the branch's head, keeping the repository's other files, and pushed. The commit's author is the creator
// of the change request whose merge made the revision (else the caller). Nothing is written to the space
// until the push succeeded; then the revision records the commit (`git`, createdByGitBook) and where its
// pages and files are. When the branch moved since the last sync, the repository's changes are merged
// with the space's (three-way against the last sync, as an import merges: import.ts `plan`): the commit
// holds both, and so does the space (a new revision); pages changed on both sides make the export fail
// naming them, unless `force`, which writes the space's content over the branch. A branch that does not
// exist starts from the commit of the last sync when the repository holds it; the files the export writes
// keep the branch's words wherever they say the same (branch-words.ts).
import { and, eq, inArray } from 'drizzle-orm';
import { stableJson } from '../content/block-keys.js';
import { mergeContent } from '../content/merge.js';
import type { RevisionContent } from '../content/revision-content.js';
import { insertRevision, loadRevision, type RevisionGit, type StoredRevision } from '../content/revisions.store.js';
import { blobs, changeRequests, contentFiles, contentRevisions, spaces, users } from '../db/schema/index.js';
import type { Db } from '../db/client.js';
import { Conflict as MergeConflict } from '../errors.js';
import { publish } from '../events/domain-events.js';
import { CONFIG_FILE, joinPath, readConfig, writeRepository } from './format/index.js';
import { inBranchWords } from './branch-words.js';
import { conflictsOf, pagesChangedInSpace } from './changes.js';
import { assetsToWrite, placeholdersOf, type SpaceBlob } from './files.js';
import { jobCtx, plan, saveImportedFiles, type Planned } from './import.js';
import { readDocs } from './read-docs.js';
import { lockRecord, recordOutcome, type Outcome } from './outcome.js';
import { OperationRefused, type OperationContext } from './sync.job.js';
import type { CommitAuthor, TreeFile } from './work-repository.js';
import { withWorkRepository } from './work-repository.js';

/** The blobs of `content`'s files (file id → blob): the space's, and the repository's for files a merge took from it (stored as read). */
async function fileBlobsOf(db: Db, spaceId: string, content: RevisionContent, current: RevisionContent, merged?: Planned): Promise<Map<string, SpaceBlob>> {
  const before = new Map(current.files.map((f) => [f.id, stableJson(f)]));
  const out = new Map<string, SpaceBlob>();
  for (const f of merged ? content.files : []) {
    const asset = merged!.assets.get(merged!.imported.paths.get(f.id) ?? '');
    if (merged!.imported.fileBytes.has(f.id) && before.get(f.id) !== stableJson(f) && asset?.sha256) out.set(f.id, { sha256: asset.sha256, size: asset.size, gitOid: asset.oid });
  }
  const ids = content.files.map((f) => f.id).filter((id) => !out.has(id));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ fileId: contentFiles.fileId, sha256: contentFiles.sha256, size: contentFiles.size, gitOid: blobs.gitOid })
    .from(contentFiles)
    .leftJoin(blobs, eq(blobs.sha256, contentFiles.sha256))
    .where(and(eq(contentFiles.spaceId, spaceId), inArray(contentFiles.fileId, ids)));
  for (const r of rows) out.set(r.fileId, { sha256: r.sha256, size: r.size, gitOid: r.gitOid });
  return out;
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

/**
 * The tree of the new commit: the head's files, without those the docs had (at the last sync, or in the
 * head read), with the written ones: text written as loose objects, assets named by their Git id, which
 * is hashed from the file store's stream (files.ts).
 */
async function nextTree(
  head: Map<string, TreeFile>,
  previousPaths: Iterable<string>,
  written: Map<string, Uint8Array>,
  assets: Map<string, string>,
  writeBlob: (bytes: Uint8Array) => Promise<string>,
): Promise<Map<string, TreeFile>> {
  const tree = new Map(head);
  for (const path of previousPaths) tree.delete(path);
  for (const [path, bytes] of written) tree.set(path, { oid: assets.get(path) ?? (await writeBlob(bytes)), mode: '100644' });
  return tree;
}

/**
 * The paths whose file the branch keeps as it is: those of pages and reusable contents the space left
 * exactly as they were at the sync (their place among siblings aside: SUMMARY.md says it), where the
 * branch's file at that path is the one the sync recorded, or, in a merge, the one the merge read for them
 * (then it is the repository's change); never those of `divergent` pages (an import's merge took the
 * space's content for them). A file someone wrote by hand in Git is not rewritten in this server's
 * Markdown style by an export that did not change its page.
 */
function keptPaths(base: StoredRevision | undefined, current: RevisionContent, written: Map<string, string>, head: Map<string, TreeFile>, merged: Planned | undefined, divergent: string[] = []): Set<string> {
  const kept = new Set<string>();
  if (!base) return kept;
  const print = (record: object) => stableJson({ ...record, position: undefined, updatedAt: undefined });
  const before = new Map([...base.content.pages, ...base.content.reusableContents].map((r) => [r.id, print(r)]));
  const unchanged = new Set([...current.pages.filter((p) => p.type === 'document'), ...current.reusableContents].filter((r) => before.get(r.id) === print(r)).map((r) => r.id));
  for (const id of divergent) unchanged.delete(id);
  for (const [id, path] of written) {
    if (!unchanged.has(id) || !head.has(path)) continue;
    const synced = base.git?.blobs[id];
    if (merged ? merged.imported.paths.get(id) === path : synced?.path === path && synced.oid === head.get(path)!.oid) kept.add(path);
  }
  return kept;
}

interface Pushed {
  commit: string;
  /** The writer's and, in a merge, the reader's warnings. */
  warnings: string[];
  blobs: RevisionGit['blobs'];
  changed: boolean;
  /** A new branch was made at the commit of the last sync (the space's files were that commit's). */
  branched?: boolean;
  message: string;
  /** The repository's changes merged into the space's content, when the branch had moved. */
  merged?: Planned;
}

/** Runs the export; returns the outcome it recorded. */
export async function exportSpace(op: OperationContext): Promise<Outcome> {
  const { payload, db } = op;
  const [space] = await db.select().from(spaces).where(eq(spaces.id, payload.spaceId));
  if (!space || space.deletedAt) throw new OperationRefused('The space was deleted');
  const record = await lockRecord(db, payload.spaceId);
  const current = await loadRevision(db, space.revisionId, space.createdAt);
  const base = record?.revision ? (record.revision === current.id ? current : await loadRevision(db, record.revision, space.createdAt)) : undefined;
  const author = await authorOf(db, payload.spaceId, current.id, payload.requestedBy);
  const previousGit = current.git ?? base?.git;
  const previousPaths = previousGit && new Map(Object.entries(previousGit.blobs).map(([id, b]) => [id, b.path]));
  const message = payload.commitMessage ?? `Update from GitBook (${space.title})`;

  const pushed = await withWorkRepository(op.remote, op.limits, async (repo): Promise<Pushed> => {
    const head = await repo.remoteHead(payload.ref);
    // The commit the new one goes on top of: the branch's head, or, for a branch the repository does not have,
    // the commit of the last sync when the repository has it (docs/git-sync-operations.md, "A new branch").
    let parent = head;
    const branchWarnings: string[] = [];
    if (!head && record?.commit) {
      if (await repo.fetchCommit(record.commit)) parent = record.commit;
      else branchWarnings.push(`${payload.ref}: the commit of the last sync (${record.commit}) is not in the repository, so the new branch holds every file as this server writes it`);
    }
    let headFiles = new Map<string, TreeFile>();
    let headTree: string | undefined;
    if (parent) {
      if (head) await repo.fetch(head);
      headFiles = await repo.listFiles(parent);
      headTree = await repo.treeOf(parent);
    }
    // Where the docs are: the branch's `.gitbook.yaml` (root, structure, redirects), written back as it is.
    const configPath = joinPath(payload.projectDirectory ?? '', CONFIG_FILE);
    const configEntry = headFiles.get(configPath);
    const config = readConfig(configEntry ? await repo.readFiles(new Map([[configPath, configEntry]]), '') : new Map(), payload.projectDirectory ?? '');
    let content = current.content;
    let merged: Planned | undefined;
    if (head && record?.commit && head !== record.commit && !payload.force && !payload.standalone) {
      // The branch moved: its changes since the sync are merged with the space's (plan refuses pages changed on both).
      const { files, assets } = await readDocs(db, repo, headFiles, payload.projectDirectory ?? '', op.job.now(), op.limits.maxAssetBytes);
      merged = plan(op, { commit: head, message: await repo.commitMessage(head), tree: headFiles, files, assets }, current, base, op.job.now(), record?.divergent);
      content = merged.content;
    }
    const fileBlobs = await fileBlobsOf(db, payload.spaceId, content, current.content, merged);
    const paths = new Map([...(previousPaths ?? []), ...(merged?.imported.paths ?? [])]);
    // The files' bytes stay in the file store: the writer lays them out, they are streamed into the commit.
    const written = writeRepository(content, placeholdersOf(fileBlobs), {
      projectDirectory: payload.projectDirectory,
      previousPaths: paths,
      structure: config.structure,
      redirects: config.redirects,
    });
    // It says what was written by: the branch's own file stays, comments and all.
    if (configEntry) written.files.delete(configPath);
    const kept = keptPaths(base, current.content, written.paths, headFiles, merged, record?.divergent);
    for (const path of kept) written.files.delete(path);
    if (parent) await inBranchWords(repo, written, headFiles, { content, configPath, projectDirectory: payload.projectDirectory ?? '', docsRoot: config.docsRoot, summaryPath: joinPath(config.docsRoot, config.structure.summary) });
    const replaced = [...(previousPaths?.values() ?? []), ...(merged?.imported.paths.values() ?? [])].filter((path) => !kept.has(path));
    const assets = await assetsToWrite(db, written.paths, fileBlobs);
    const tree = await nextTree(headFiles, replaced, written.files, assets.oids, (bytes) => repo.writeBlob(bytes));
    const treeOid = await repo.writeTree(tree);
    const blobs: RevisionGit['blobs'] = {};
    for (const [id, path] of written.paths) {
      const file = tree.get(path);
      if (file) blobs[id] = { oid: file.oid, path };
    }
    const warnings = [...branchWarnings, ...(merged?.imported.warnings ?? []), ...written.warnings.filter((w) => !merged?.imported.warnings.includes(w))];
    if (head && treeOid === headTree) return { commit: head, blobs, changed: false, message: await repo.commitMessage(head), merged, warnings };
    if (parent && treeOid === headTree) {
      // A new branch of exactly what the last sync holds: the branch is made at that commit, with no commit of its own.
      await repo.pushExisting(parent, payload.ref);
      return { commit: parent, blobs, changed: false, branched: true, message: await repo.commitMessage(parent), merged, warnings };
    }
    const commit = await repo.writeCommit(treeOid, parent, message, author, op.job.now());
    await repo.push(commit, payload.ref, head, assets.sources);
    return { commit, blobs, changed: true, message, merged, warnings };
  });

  return jobCtx(op).transaction(async (tx) => {
    const [locked] = await tx.db.select().from(spaces).where(eq(spaces.id, payload.spaceId)).for('update');
    if (!locked || locked.deletedAt) {
      const outcome: Outcome = { state: 'failure', error: `The space was deleted while the export ran${pushed.changed ? ` (the commit ${pushed.commit} was pushed to ${payload.ref})` : ''}`, commit: pushed.commit };
      await recordOutcome(tx.db, payload.spaceId, op.job.job.id, outcome, tx.now());
      return outcome;
    }
    const git: RevisionGit = {
      commit: {
        oid: pushed.commit,
        message: pushed.message,
        createdByGitBook: pushed.changed || (pushed.branched ? base?.git?.commit?.createdByGitBook === true : current.git?.commit?.createdByGitBook === true),
        ref: payload.ref,
        ...(payload.commitURL && { url: `${payload.commitURL}${pushed.commit}` }),
      },
      blobs: pushed.blobs,
    };
    let synced = current.id;
    let revision: string | undefined;
    if (pushed.merged) {
      // The content of the commit is a revision of its own (the sync's new base); the space takes it, or,
      // when it changed while the export ran, that content merged with what it holds now.
      let latest: StoredRevision | undefined;
      let content: RevisionContent | undefined;
      if (locked.revisionId !== current.id) {
        latest = await loadRevision(tx.db, locked.revisionId, locked.createdAt);
        try {
          content = mergeContent(current.content, pushed.merged.content, latest.content);
        } catch (err) {
          if (!(err instanceof MergeConflict)) throw err;
          // The space's new edits meet the repository's: nothing is written to the space and the sync's base
          // stays where it was, so an import of the pushed commit judges these pages as conflicts again.
          const inSpace = pagesChangedInSpace(current.content, latest.content);
          const conflicts = conflictsOf(latest.content, inSpace, pagesChangedInSpace(current.content, pushed.merged.content), current.git ?? base?.git, pushed.merged.content);
          const outcome: Outcome = {
            state: 'failure',
            error:
              `The commit ${pushed.commit} was pushed to ${payload.ref}, but the space changed while the export ran on what the repository changed (${err.message}). ` +
              "Nothing was written to the space and the sync's base is unchanged: import (with force to take the repository's content) to bring the commit in",
            commit: pushed.commit,
            ...(conflicts.length > 0 && { conflicts }),
          };
          await recordOutcome(tx.db, payload.spaceId, op.job.job.id, outcome, tx.now());
          return outcome;
        }
      }
      const mergedRevision = await insertRevision(tx, payload.spaceId, { parents: [current.id], type: 'update', content: pushed.merged.content });
      await tx.db.update(contentRevisions).set({ git }).where(eq(contentRevisions.id, mergedRevision.id));
      await saveImportedFiles(tx, payload.spaceId, pushed.merged, op.limits.maxAssetBytes);
      synced = mergedRevision.id;
      revision = mergedRevision.id;
      if (latest && content) revision = (await insertRevision(tx, payload.spaceId, { parents: [latest.id, mergedRevision.id], type: 'merge', content })).id;
      await tx.db.update(spaces).set({ revisionId: revision, updatedAt: tx.now() }).where(eq(spaces.id, payload.spaceId));
      await publish(tx, 'space content updated', { spaceId: payload.spaceId, revisionId: revision, previousRevisionId: locked.revisionId });
    } else if (!payload.standalone) {
      // The revision exported may be the space's first, which has no row until something is written.
      const [row] = await tx.db.select({ id: contentRevisions.id }).from(contentRevisions).where(eq(contentRevisions.id, current.id));
      if (row) await tx.db.update(contentRevisions).set({ git }).where(eq(contentRevisions.id, current.id));
    }
    const outcome: Outcome = {
      state: 'success',
      result: pushed.changed || pushed.branched || pushed.merged ? 'applied' : 'unchanged',
      commit: pushed.commit,
      warnings: pushed.warnings,
      timestamp: payload.timestamp,
      ...(revision && { revision }),
      ...(!payload.standalone && { synced: { commit: pushed.commit, revision: synced } }),
    };
    await recordOutcome(tx.db, payload.spaceId, op.job.job.id, outcome, tx.now());
    return outcome;
  });
}
