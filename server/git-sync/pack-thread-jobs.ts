// The jobs the Git pack thread (pack-thread.ts) runs, by name: a fetch and its index pass
// (pack-fetch-index.ts), a push's pack written and sent (pack-push-job.ts).
import { fetchAndIndex } from './pack-fetch-index.js';
import { pushJob } from './pack-push-job.js';

export const jobs = { fetchAndIndex, pushJob };

export type JobName = keyof typeof jobs;
