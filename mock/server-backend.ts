// The real server behind the stateful and hybrid mocks: the app on the demo database (demo-database.ts),
// on an internal port, with its job runner. modes.ts imports this file only when a mode needs it, so the
// Prism modes never load the server, and Prism is already starting while the server loads.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createApp } from '../server/app.js';
import type { AppHandlers } from '../server/handler-types.js';
import { startJobs } from '../server/jobs/start.js';
import { openDemoDatabase } from './demo-database.js';

export interface ServerBackendOptions {
  /** The mock's own base (without /v1): the URL the server's links and docs use. */
  publicUrl: string;
  /** The value of the demo owner's token; default random. */
  token?: string;
  handlers?: AppHandlers;
  /** The server's log (warnings and errors; the front logs the requests). */
  logger?: Logger;
}

export interface RunningServerBackend {
  url: string;
  token: string;
  organizationId: string;
  fromCache: boolean;
  stop(): Promise<void>;
}

export async function startServerBackend({ publicUrl, token, handlers, logger = pino({ level: 'warn' }) }: ServerBackendOptions): Promise<RunningServerBackend> {
  const demo = await openDemoDatabase(token);
  const app = createApp({ db: demo.database.db, logger, publicUrl, handlers });
  const server: http.Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const jobs = await startJobs(demo.database.db, logger.child({ component: 'jobs' }));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: demo.token,
    organizationId: demo.organizationId,
    fromCache: demo.fromCache,
    stop: async () => {
      await jobs.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await demo.database.close();
    },
  };
}
