// Reads the configuration, opens and migrates the database, bootstraps a fresh one, starts the job
// runner, and listens.
import { mkdirSync } from 'node:fs';
import { pino } from 'pino';
import { createApp } from './app.js';
import { bootstrapIfEmpty } from './auth/bootstrap.js';
import { loadConfig } from './config.js';
import { createDb } from './db/client.js';
import { startJobs } from './jobs/start.js';

const config = loadConfig();
// Log lines are buffered and written in batches (sonic-boom, asynchronous): one write per line would be a
// system call per request on the hot path. The buffer is flushed on shutdown; a crash may lose its last lines.
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false, minLength: 4096 }));
// …and at least every second, so a quiet server's lines are not held back.
setInterval(() => logger.flush(), 1000).unref();

if (config.storage.kind === 'pglite') mkdirSync(config.storage.dataDir, { recursive: true });
const database = createDb(
  config.storage.kind === 'postgres'
    ? { ...config.storage, onConnectionError: (err) => logger.warn({ err }, 'PostgreSQL connection lost') }
    : config.storage,
);
await database.migrate();

const fresh = await bootstrapIfEmpty(database.db, config.bootstrapToken);
if (fresh) {
  // Printed once, like self-hosted tools print their first admin credential: it is not stored in clear.
  console.log(
    [
      '',
      'A fresh database was set up with one organization and one admin user.',
      `  organization: ${fresh.organizationId}`,
      `  user:         ${fresh.userId}`,
      `  token:        ${fresh.token}`,
      'Keep the token: it is shown only this once. Try:',
      `  curl -H "Authorization: Bearer ${fresh.token}" ${config.publicUrl}/v1/user`,
      '',
    ].join('\n'),
  );
}

const jobs = await startJobs(database.db, logger.child({ component: 'jobs' }));

const app = createApp({ db: database.db, logger, publicUrl: config.publicUrl });
const server = app.listen(config.port, config.host, () => {
  logger.info({ url: config.publicUrl, storage: config.storage.kind }, 'listening');
});

// Jobs first (they finish what they hold), then requests in flight, then the database both use.
// A second signal does not wait.
let closing = false;
async function shutdown() {
  await jobs.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
  logger.flush();
}
function onSignal() {
  if (closing) process.exit(1);
  closing = true;
  shutdown().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    },
  );
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
