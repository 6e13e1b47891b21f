// The job of one Git Sync operation. It runs once (a failure is reported, not retried: the client asks
// again), skips an operation whose timestamp is older than the last one applied, and records its outcome
// in the space's sync (outcome.ts): success (applied, unchanged, skipped) or failure with the reason and,
// for changes on both sides, the pages in conflict. A failure also fails the job's row with the reason
// (a space deleted before or while the operation ran included), so no operation stays `running`. Nothing is written to the space before the network
// work is done, so a failed fetch or push leaves the space as it was.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs, spaces } from '../db/schema/index.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobContext, JobHandler } from '../jobs/runner.js';
import { RepositoryFormatError, formatLimits } from './format/index.js';
import { basicAuthorization, openCredentials, type Sealed } from './credentials.js';
import { exportSpace } from './export.js';
import { importRepository } from './import.js';
import { publish } from '../events/domain-events.js';
import { lockRecord, recordOutcome, type Outcome } from './outcome.js';
import type { Remote, RepositoryLimits } from './work-repository.js';

export const GIT_SYNC = 'git-sync';

export interface GitSyncPayload {
  spaceId: string;
  direction: 'import' | 'export';
  /** Without credentials. */
  url: string;
  ref: string;
  projectDirectory?: string;
  commitURL?: string;
  /** ISO time the operations are ordered by. */
  timestamp: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
  requestedBy: string;
  /** The URL's credentials, sealed (credentials.ts); removed from the row when the job ends. */
  credentials?: Sealed;
}

/** The job of one operation. */
export function gitSyncJob(payload: GitSyncPayload): EnqueueInput {
  return { kind: GIT_SYNC, payload, maxAttempts: 1 };
}

/**
 * Sized for real docs repositories of several hundred MB (GIF screenshots, PDFs): the pack goes to disk and
 * the assets to the file store as they arrive, so memory does not grow with them (docs/git-sync-operations.md).
 * The server takes them from GIT_SYNC_* (server/config.ts, the same defaults).
 */
export const defaultRepositoryLimits: RepositoryLimits = {
  timeoutMs: 600_000,
  maxPackBytes: 1024 * 1024 * 1024,
  maxFiles: formatLimits.maxFiles,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxAssetBytes: formatLimits.maxAssetBytes,
};

/** An operation that could not be done, with the reason the outcome gives (and the pages in conflict). */
export class OperationRefused extends Error {
  constructor(
    message: string,
    readonly conflicts?: Outcome['conflicts'],
  ) {
    super(message);
  }
}

/** Fails the job's row with the operation's reason, once its outcome is recorded in the sync. */
export class OperationFailed extends Error {}

export interface OperationContext {
  db: Db;
  job: JobContext;
  payload: GitSyncPayload;
  remote: Remote;
  limits: RepositoryLimits;
}

function remoteOf(payload: GitSyncPayload): Remote {
  if (!payload.credentials) return { url: payload.url, headers: {} };
  return { url: payload.url, headers: { authorization: basicAuthorization(openCredentials(payload.credentials)) } };
}

/** Why it failed, for the outcome: the error's message, which never holds credentials (URLs are kept without them). */
function reasonOf(err: unknown): string {
  if (err instanceof RepositoryFormatError) return `The repository is not in GitBook's format: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

async function finish(job: JobContext, payload: GitSyncPayload, outcome: Outcome): Promise<void> {
  await job.db.transaction(async (txn) => {
    await recordOutcome(txn as unknown as Db, payload.spaceId, job.job.id, outcome, job.now());
  });
}

/** Removes the sealed credentials from the job's row: they live only as long as the operation. */
async function forgetCredentials(job: JobContext): Promise<void> {
  await job.db.update(jobs).set({ payload: sql`${jobs.payload} - 'credentials'` }).where(eq(jobs.id, job.job.id));
}

/** The handler; `limits` bound what a repository may be (tests make them small). */
export function gitSyncHandler(limits: RepositoryLimits = defaultRepositoryLimits): JobHandler {
  const handler: JobHandler = async (raw, job) => {
    try {
      await run(raw as GitSyncPayload, job);
    } finally {
      await forgetCredentials(job);
    }
  };
  const run = async (payload: GitSyncPayload, job: JobContext) => {
    const [space] = await job.db.select({ deletedAt: spaces.deletedAt, revisionId: spaces.revisionId }).from(spaces).where(eq(spaces.id, payload.spaceId));
    if (!space || space.deletedAt) {
      const reason = space ? 'The space was deleted before the operation ran' : 'The space no longer exists';
      await finish(job, payload, { state: 'failure', error: reason });
      throw new OperationFailed(reason);
    }
    const record = await lockRecord(job.db, payload.spaceId);
    if (record?.timestamp && payload.timestamp < record.timestamp) {
      job.log.info({ spaceId: payload.spaceId, direction: payload.direction }, 'git sync operation skipped: older than the last one applied');
      await finish(job, payload, { state: 'success', result: 'skipped' });
      return;
    }
    // The space's integrations are told the operation starts from its revision and the sync's commit (none
    // yet before the first), and, once it ended, where it left them (domain events that integrations hear).
    const from = { revisionId: space.revisionId ?? '', commitId: record?.commit ?? '' };
    await publish(job, 'space git sync started', { spaceId: payload.spaceId, ...from });
    const completed = (outcome: Outcome) =>
      publish(job, 'space git sync completed', {
        spaceId: payload.spaceId,
        state: outcome.state,
        revisionId: outcome.revision ?? from.revisionId,
        commitId: outcome.commit ?? from.commitId,
      });
    let outcome: Outcome;
    try {
      const context: OperationContext = { db: job.db, job, payload, remote: remoteOf(payload), limits };
      outcome = payload.direction === 'import' ? await importRepository(context) : await exportSpace(context);
    } catch (err) {
      const reason = reasonOf(err);
      job.log.warn({ spaceId: payload.spaceId, direction: payload.direction, reason, stack: err instanceof Error ? err.stack : undefined }, 'git sync operation failed');
      const failed: Outcome = { state: 'failure', error: reason, ...(err instanceof OperationRefused && err.conflicts && { conflicts: err.conflicts }) };
      await finish(job, payload, failed);
      await completed(failed);
      throw new OperationFailed(reason);
    }
    await completed(outcome);
    if (outcome.state === 'failure') throw new OperationFailed(outcome.error ?? 'The operation failed');
    job.log.info({ spaceId: payload.spaceId, direction: payload.direction, result: outcome.result, commit: outcome.commit }, 'git sync operation done');
  };
  return Object.assign(handler, {
    onExhausted: async (raw: unknown, job: JobContext) => {
      await forgetCredentials(job);
      await finish(job, raw as GitSyncPayload, { state: 'failure', error: 'The operation was interrupted: the server process running it stopped' });
    },
  });
}
