// The four mock modes behind `npm run mock -- --mode …`, all served under /v1 with CORS by the front
// (front.ts), which logs every request:
//   examples  Prism, answering each operation with its documented example;
//   dynamic   Prism generating answers from the schemas (varied, still valid);
//   stateful  the real server on an in-memory database holding the demo workspace;
//   hybrid    the real server, and Prism for every operation the server answers 501 (not implemented yet).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createApp } from '../server/app.js';
import type { AppHandlers } from '../server/handlers.js';
import { startJobs } from '../server/jobs/start.js';
import { openDemoDatabase } from './demo-database.js';
import { frontApp } from './front.js';
import { freePort, startPrism, type RunningPrism } from './prism.js';

export const MOCK_MODES = ['examples', 'dynamic', 'stateful', 'hybrid'] as const;
export type MockMode = (typeof MOCK_MODES)[number];

export interface MockOptions {
  /** Port of the front (0: any free port). */
  port?: number;
  host?: string;
  /** Where the request lines go; default stdout. */
  log?: (line: string) => void;
  /** Stateful and hybrid: the value of the owner's token (`BOOTSTRAP_TOKEN`); default random. */
  token?: string;
  /** Stateful and hybrid: the server's handlers (a test swaps one for a 501 stub). */
  handlers?: AppHandlers;
  /** The server's log (warnings and errors; the front logs the requests). */
  logger?: Logger;
}

export interface RunningMock {
  mode: MockMode;
  /** Base URL of the API, ending in /v1, as for the real server. */
  baseUrl: string;
  /** Stateful and hybrid: a token of the demo organization's owner, and that organization. */
  token?: string;
  organizationId?: string;
  /** Stateful and hybrid: whether the seeded database came from the cache (see demo-database.ts). */
  seededFromCache?: boolean;
  stop(): Promise<void>;
}

/** Starts the mock in `mode` and resolves once it answers. */
export async function startMockMode(mode: MockMode, options: MockOptions = {}): Promise<RunningMock> {
  const { port = 0, host = '127.0.0.1', log, logger = pino({ level: 'warn' }) } = options;
  // The front listens first (its port is the public URL the server needs); a request that arrives while
  // the backends start waits for them rather than going unanswered.
  let handle: http.RequestListener | undefined;
  const waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  const front = http.createServer((req, res) => (handle ? handle(req, res) : waiting.push([req, res])));
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, resolve);
  });
  const publicUrl = `http://${host === '0.0.0.0' ? 'localhost' : host}:${(front.address() as AddressInfo).port}`;
  const stops: (() => Promise<void>)[] = [() => new Promise((resolve) => front.close(() => resolve()))];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const usesPrism = mode !== 'stateful';
    const usesServer = mode === 'stateful' || mode === 'hybrid';
    // Prism and the database start side by side: the slower of the two sets the start-up time.
    const [prism, server] = await Promise.all([
      usesPrism ? startPrismOnFreePort(host, mode === 'dynamic') : undefined,
      usesServer ? startServer(publicUrl, logger, options) : undefined,
    ]);
    if (prism) stops.push(prism.stop);
    if (server) stops.push(server.stop);
    handle = frontApp({ publicUrl, log, prism: prism && new URL(prism.url), server: server && new URL(server.url) });
    for (const [req, res] of waiting.splice(0)) handle(req, res);
    return { mode, baseUrl: `${publicUrl}/v1`, token: server?.token, organizationId: server?.organizationId, seededFromCache: server?.fromCache, stop };
  } catch (err) {
    for (const [, res] of waiting.splice(0)) res.writeHead(503).end();
    await stop();
    throw err;
  }
}

async function startPrismOnFreePort(host: string, dynamic: boolean): Promise<RunningPrism> {
  return startPrism(await freePort(host), host, { dynamic });
}

/** The real server on the demo database, on an internal port, with its job runner. */
async function startServer(publicUrl: string, logger: Logger, options: MockOptions) {
  const demo = await openDemoDatabase(options.token);
  const app = createApp({ db: demo.database.db, logger, publicUrl, handlers: options.handlers });
  const server = app.listen(0, '127.0.0.1');
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
