// The four mock modes behind `npm run mock -- --mode …`, all served under /v1 with CORS by the front
// (front.ts), which logs every request:
//   examples  Prism, answering each operation with its documented example;
//   dynamic   Prism generating answers from the schemas (varied, still valid);
//   stateful  the real server on an in-memory database holding the demo workspace;
//   hybrid    the real server, and Prism for every operation the server answers 501 (not implemented yet).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { AppHandlers } from '../server/handler-types.js';
import { frontApp } from './front.js';
import { startPrismOnFreePort } from './prism.js';

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
  const { port = 0, host = '127.0.0.1', log } = options;
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
  const usesPrism = mode !== 'stateful';
  const usesServer = mode === 'stateful' || mode === 'hybrid';
  // Prism's process is spawned first, so that it starts on the other core while this one loads the
  // server's modules and its database: the slower of the two sets the start-up time.
  const prismStarting = usesPrism ? startPrismOnFreePort(host, { dynamic: mode === 'dynamic' }) : undefined;
  const serverStarting = usesServer
    ? import('./server-backend.js').then(({ startServerBackend }) =>
        startServerBackend({ publicUrl, token: options.token, handlers: options.handlers, logger: options.logger }),
      )
    : undefined;
  const [prism, server] = await Promise.allSettled([prismStarting, serverStarting]);
  // Whatever started is stopped with the mock, or at once if the other half failed.
  if (prism.status === 'fulfilled' && prism.value) stops.push(prism.value.stop);
  if (server.status === 'fulfilled' && server.value) stops.push(server.value.stop);
  const failure = [prism, server].find((half) => half.status === 'rejected');
  if (failure) {
    for (const [, res] of waiting.splice(0)) res.writeHead(503).end();
    await stop();
    throw failure.reason;
  }
  const prismUrl = prism.status === 'fulfilled' ? prism.value?.url : undefined;
  const backend = server.status === 'fulfilled' ? server.value : undefined;
  handle = frontApp({ publicUrl, log, prism: prismUrl ? new URL(prismUrl) : undefined, server: backend && new URL(backend.url) });
  for (const [req, res] of waiting.splice(0)) handle(req, res);
  return { mode, baseUrl: `${publicUrl}/v1`, token: backend?.token, organizationId: backend?.organizationId, seededFromCache: backend?.fromCache, stop };
}
