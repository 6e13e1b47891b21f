// Every job kind the runner knows, by area. An area adds its handlers here, and the jobs that must
// always be pending (periodic ones) to startupJobs.
import { purgeDeletedSpaces, purgeDeletedSpacesJob, PURGE_DELETED_SPACES } from '../spaces/purge.job.js';
import type { EnqueueInput } from './queue.js';
import type { JobHandlers } from './runner.js';

export const jobHandlers: JobHandlers = {
  [PURGE_DELETED_SPACES]: purgeDeletedSpaces,
};

/** The jobs each server start makes sure are pending; their uniqueKey makes that a no-op when they are. */
export function startupJobs(now: Date): EnqueueInput[] {
  return [purgeDeletedSpacesJob(now)];
}
