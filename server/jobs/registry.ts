// Every job kind the runner knows, by area. An area adds its handlers here, and the jobs that must
// always be pending (periodic ones) to startupJobs.
import { deliverIntegrationEvent, DELIVER_INTEGRATION_EVENT } from '../integrations/delivery.job.js';
import { purgeDeletedSpaces, purgeDeletedSpacesJob, PURGE_DELETED_SPACES } from '../spaces/purge.job.js';
import { processOpenAPISpecHandler, PROCESS_OPENAPI_SPEC } from '../openapi/process.job.js';
import { runTranslationHandler, RUN_TRANSLATION } from '../translations/run.job.js';
import { clusterConversations, CLUSTER_CONVERSATIONS } from '../conversations/cluster.job.js';
import { indexSpaceSearch, INDEX_SPACE, sweepSearchIndexes, sweepSearchIndexesJob, SWEEP_SEARCH_INDEXES } from '../search/index.job.js';
import { gitSyncHandler, GIT_SYNC } from '../git-sync/sync.job.js';
import { collectBlobsHandler, collectBlobsJob, COLLECT_BLOBS } from '../blobs/collect.job.js';
import type { EnqueueInput } from './queue.js';
import type { JobHandlers } from './runner.js';

export const jobHandlers: JobHandlers = {
  [PURGE_DELETED_SPACES]: purgeDeletedSpaces,
  [PROCESS_OPENAPI_SPEC]: processOpenAPISpecHandler(),
  [RUN_TRANSLATION]: runTranslationHandler(),
  [CLUSTER_CONVERSATIONS]: clusterConversations,
  [DELIVER_INTEGRATION_EVENT]: deliverIntegrationEvent,
  [INDEX_SPACE]: indexSpaceSearch,
  [SWEEP_SEARCH_INDEXES]: sweepSearchIndexes,
  [GIT_SYNC]: gitSyncHandler(),
  [COLLECT_BLOBS]: collectBlobsHandler,
};

/** The jobs each server start makes sure are pending; their uniqueKey makes that a no-op when they are. */
export function startupJobs(now: Date): EnqueueInput[] {
  // The sweep and the blob collection wait a minute: a starting server answers its first requests first.
  return [purgeDeletedSpacesJob(now), sweepSearchIndexesJob(new Date(now.getTime() + 60_000)), collectBlobsJob(new Date(now.getTime() + 60_000))];
}
