// The thread of pack-thread.ts: runs the job it is posted (pack-thread-jobs: a fetch and index, a push),
// one answer per job, in the order they end. From the TypeScript sources (development, tests) it loads
// them as the server does, through tsx; built, the module is JavaScript beside this file.
import { parentPort, workerData } from 'node:worker_threads';

if (workerData.module.endsWith('.ts')) (await import('tsx/esm/api')).register();
const { jobs } = await import(workerData.module);

parentPort.on('message', async ({ id, name, job }) => {
  try {
    parentPort.postMessage({ id, result: await jobs[name](job) });
  } catch (err) {
    parentPort.postMessage({ id, error: { kind: err?.constructor?.name ?? 'Error', message: err instanceof Error ? err.message : String(err) } });
  }
});
