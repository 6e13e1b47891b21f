// The thread of pack-thread.ts: runs fetchAndIndex (pack-fetch-index) for each job it is posted, one
// answer per job, in the order they end. From the TypeScript sources (development, tests) it loads them
// as the server does, through tsx; built, the module is JavaScript beside this file.
import { parentPort, workerData } from 'node:worker_threads';

if (workerData.module.endsWith('.ts')) (await import('tsx/esm/api')).register();
const { fetchAndIndex } = await import(workerData.module);

parentPort.on('message', async ({ id, job }) => {
  try {
    parentPort.postMessage({ id, index: await fetchAndIndex(job) });
  } catch (err) {
    parentPort.postMessage({ id, error: { kind: err?.constructor?.name ?? 'Error', message: err instanceof Error ? err.message : String(err) } });
  }
});
