// The runner of a server process: every registered handler, and the startup jobs enqueued first.
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { expireOrphanedClaims } from './claims.js';
import { enqueueJob } from './queue.js';
import { PRUNE_FINISHED_JOBS, pruneFinishedJobs, pruneFinishedJobsJob } from './prune.job.js';
import { gitSyncHandler, GIT_SYNC } from '../git-sync/sync.job.js';
import type { RepositoryLimits } from '../git-sync/work-repository.js';
import { jobHandlers, startupJobs } from './registry.js';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './runner.js';
import { subscribePlatformAreas } from '../subscribers.js';
import { autovacuumDoesIt, vacuumTables, vacuumTablesJob, VACUUM_TABLES } from '../operating/vacuum.job.js';

export interface StartJobsOptions extends Partial<JobRunnerOptions> {
  /**
   * True when this process is known to be the only one on the database (embedded storage under its
   * DATA_DIR lock): jobs left `running` by a crashed predecessor are taken over at once instead of when
   * their lease expires. On PostgreSQL other processes may be running them, so their leases stand.
   */
  soleProcess?: boolean;
  /** Days finished jobs are kept before the prune deletes them (JOB_RETENTION_DAYS); default 7. */
  retentionDays?: number;
  /** How large a repository Git Sync takes (GIT_SYNC_*); default the handler's own. */
  gitSyncLimits?: RepositoryLimits;
  /** True on storage without an autovacuum of its own (PGlite): the vacuum job keeps its tables (operating/vacuum.job.ts). */
  vacuum?: boolean;
}

/** Enqueues the startup jobs (no-ops when pending), then starts a runner with every registered handler. */
export async function startJobs(db: Db, logger: Logger, { soleProcess = false, retentionDays = 7, gitSyncLimits, vacuum = false, ...options }: StartJobsOptions = {}): Promise<JobRunner> {
  subscribePlatformAreas(); // the jobs' writes (a Git Sync, a translation) publish domain events too
  const now = new Date();
  if (soleProcess) {
    const orphans = await expireOrphanedClaims(db, now);
    if (orphans > 0) logger.warn({ jobs: orphans }, 'taking over jobs a previous process left running');
  }
  // The first vacuum round waits a minute, as the search sweep does: a starting server answers its first requests first.
  const vacuumJobs = vacuum ? [vacuumTablesJob(new Date(now.getTime() + 60_000))] : [];
  for (const job of [...startupJobs(now), pruneFinishedJobsJob(now), ...vacuumJobs]) await enqueueJob(db, job, now);
  const handlers = {
    ...jobHandlers,
    [PRUNE_FINISHED_JOBS]: pruneFinishedJobs(retentionDays),
    ...(gitSyncLimits && { [GIT_SYNC]: gitSyncHandler(gitSyncLimits) }),
    [VACUUM_TABLES]: vacuum ? vacuumTables : autovacuumDoesIt,
  };
  const runner = createJobRunner({ db, logger, handlers, ...options });
  runner.start();
  return runner;
}
