// The requests of Git Sync: an import or export is checked, its credentials split off the URL and sealed
// into the job's payload, the job queued and the space's sync (spaces.git_sync) configured with the
// repository and the operation `running`, in one transaction. The job (sync.job.ts) does the rest.
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ExportToGitRepository, ImportGitRepository } from '../../contract/git-sync.js';
import type { SpaceGrant } from '../auth/access.js';
import { refuseLocked } from '../content/locked.js';
import type { Ctx } from '../context.js';
import { spaces } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { sealCredentials, splitCredentials } from './credentials.js';
import { asRecord, providerOf, toGitSyncState, withOperation, type GitSyncOperation, type GitSyncRecord, type GitSyncState } from './sync-record.js';
import { gitSyncJob, type GitSyncPayload } from './sync.job.js';

type ImportBody = z.output<typeof ImportGitRepository>;
type ExportBody = z.output<typeof ExportToGitRepository>;

/** Queues an import or export of the space; returns the operation's id. 409 when the space is locked. */
export async function requestGitOperation(ctx: Ctx, grant: SpaceGrant, direction: 'import' | 'export', body: ImportBody | ExportBody): Promise<string> {
  refuseLocked(grant.row);
  const { url, credentials } = splitCredentials(body.url);
  const now = ctx.now();
  const projectDirectory = body.repoProjectDirectory?.replace(/\/+$/, '') || undefined;
  const payload: GitSyncPayload = {
    spaceId: grant.row.id,
    direction,
    url,
    ref: body.ref,
    ...(projectDirectory && { projectDirectory }),
    ...(body.repoCommitURL && { commitURL: body.repoCommitURL }),
    timestamp: (body.timestamp ? new Date(body.timestamp) : now).toISOString(),
    force: body.force ?? false,
    standalone: body.standalone ?? false,
    ...('commitMessage' in body && { commitMessage: body.commitMessage }),
    requestedBy: ctx.caller.userId,
    ...(credentials && { credentials: sealCredentials(credentials) }),
  };
  return ctx.transaction(async (tx) => {
    const [row] = await tx.db.select({ gitSync: spaces.gitSync }).from(spaces).where(eq(spaces.id, grant.row.id)).for('update');
    const jobId = await enqueueJob(tx.db, gitSyncJob(payload), now);
    if (!jobId) throw new Error('The Git Sync job was not queued');
    const previous = asRecord(row?.gitSync);
    const operation: GitSyncOperation = { id: jobId, state: 'running', direction, startedAt: now.toISOString() };
    // Records written before the history was kept start it with their latest operation.
    const history = previous?.history ?? (previous?.operation ? [previous.operation] : undefined);
    const record: GitSyncRecord = {
      ...previous,
      installationId: previous?.installationId ?? newId('gsy', now.getTime()),
      provider: providerOf(url, body.gitInfo?.provider),
      repository: { url, ref: body.ref, ...(projectDirectory && { projectDirectory }), ...(body.repoCommitURL && { commitURL: body.repoCommitURL }) },
      treeURL: body.repoTreeURL ?? body.gitInfo?.url ?? previous?.treeURL,
      operation,
      history: withOperation(history, operation),
      updatedAt: now.toISOString(),
    };
    if (!record.treeURL) delete record.treeURL;
    await tx.db.update(spaces).set({ gitSync: record }).where(eq(spaces.id, grant.row.id));
    return jobId;
  });
}

/** The space's Git Sync; 404 when none was ever requested. */
export function gitSyncInfo(grant: SpaceGrant): GitSyncState {
  const record = asRecord(grant.row.gitSync);
  if (!record) throw new NotFound(`Space ${grant.row.id} has no Git Sync: no import or export was requested on it`);
  return toGitSyncState(record);
}
