// The runner of a server process: every registered handler, and the startup jobs enqueued first.
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { enqueueJob } from './queue.js';
import { jobHandlers, startupJobs } from './registry.js';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './runner.js';

/** Enqueues the startup jobs (no-ops when pending), then starts a runner with every registered handler. */
export async function startJobs(db: Db, logger: Logger, options: Partial<JobRunnerOptions> = {}): Promise<JobRunner> {
  const now = new Date();
  for (const job of startupJobs(now)) await enqueueJob(db, job, now);
  const runner = createJobRunner({ db, logger, handlers: jobHandlers, ...options });
  runner.start();
  return runner;
}
