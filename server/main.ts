// `npm start`: the standalone server, a caller of createDocsApi (server/index.ts) like any host app would
// be: starts the API (DATA_DIR, migrations, bootstrap, jobs), prints the first token of a fresh database,
// listens; on SIGTERM/SIGINT shuts down gracefully.
import { loadConfig } from './config.js';
import { markDraining } from './http/health.js';
import { createDocsApi } from './index.js';
import { createServerLogger } from './operating/logger.js';
import { StorageLocked } from './storage-lock.js';

const config = loadConfig();
// Pretty lines on a terminal, JSON lines (buffered, flushed every second and on exit) otherwise.
const { logger, flushSync: flushLogs } = createServerLogger(config.logLevel);
const docsApi = createDocsApi({
  config,
  logger,
  onStorageLost: (err) => {
    // Another process took the folder (this one was frozen past the stale threshold): writing on would corrupt it.
    logger.fatal({ err }, 'lost the DATA_DIR lock; stopping at once');
    flushLogs();
    process.exit(1);
  },
});

/** Stops the process at start with a message (no stack: the message says what to do). */
function refuseToStart(message: string): never {
  console.error(message);
  process.exit(1);
}

const started = await docsApi.start().catch((err: unknown) => {
  if (err instanceof StorageLocked) refuseToStart(err.message);
  throw err;
});
const fresh = started.bootstrap;
if (fresh) {
  // Printed once, like self-hosted tools print their first admin credential: it is not stored in clear.
  console.log(
    [
      '',
      'A fresh database was set up with one organization and one admin user.',
      `  organization: ${fresh.organizationId}`,
      `  user:         ${fresh.userId}`,
      // A token the operator chose is not echoed: it would only put a secret into the output they keep.
      ...(config.bootstrapToken
        ? ['  token:        the value of BOOTSTRAP_TOKEN', 'Try:', `  curl -H "Authorization: Bearer $BOOTSTRAP_TOKEN" ${config.publicUrl}/v1/user`]
        : [`  token:        ${fresh.token}`, 'Keep the token: it is shown only this once. Try:', `  curl -H "Authorization: Bearer ${fresh.token}" ${config.publicUrl}/v1/user`]),
      '',
    ].join('\n'),
  );
}

const server = started.app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ url: config.publicUrl, port, storage: config.storage.kind }, 'listening');
  logger.flush();
});
// Node's defaults let a request run 5 minutes; a slow client (or one sending headers a byte at a time)
// would hold a connection that long. keepAliveTimeout should exceed a load balancer's idle timeout.
server.requestTimeout = config.requestTimeoutMs;
server.headersTimeout = config.headersTimeoutMs;
server.keepAliveTimeout = config.keepAliveTimeoutMs;

/**
 * Readiness fails first (a load balancer stops sending), the listener closes (no new connections; idle
 * keep-alive ones are closed), requests in flight finish and the job runner finishes its current job,
 * both within SHUTDOWN_TIMEOUT_MS; then the connections left are cut, the database closed and the
 * DATA_DIR lock released. A second signal does not wait.
 */
async function shutdown(): Promise<void> {
  markDraining(started.app);
  logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
  const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
  // Connections that become idle after their last response are closed as they go.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), config.shutdownTimeoutMs)));
  const drained = Promise.race([requestsDone.then(() => 'done' as const), deadline]).then((outcome) => {
    clearTimeout(timer);
    clearInterval(idleSweep);
    if (outcome === 'late') {
      logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timeout: cutting the requests still in flight');
      server.closeAllConnections();
    }
  });
  // The jobs stop (within the same timeout) while the requests drain; the storage closes after both.
  await docsApi.stop({ until: drained });
  logger.info('stopped');
  flushLogs();
}

let closing = false;
function onSignal() {
  if (closing) process.exit(1);
  closing = true;
  shutdown().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      flushLogs();
      process.exit(1);
    },
  );
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
