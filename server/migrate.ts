// `npm run migrate`: applies the pending migrations and exits, for deployments that migrate before
// starting (or replacing) the servers. Under the same start-up lock as a server's own start (a PostgreSQL
// advisory lock; DATA_DIR's lock on embedded storage), so it is safe beside running processes.
import { mkdirSync } from 'node:fs';
import { loadConfig } from './config.js';
import { createDb } from './db/client.js';
import { runDataMigrations } from './data-migrations/index.js';
import { lockStorage, StorageLocked, type StorageLock } from './storage-lock.js';

const config = loadConfig();
let storageLock: StorageLock | undefined;
if (config.storage.kind === 'pglite') {
  mkdirSync(config.storage.dataDir, { recursive: true });
  try {
    storageLock = await lockStorage(config.storage.dataDir, (err) => {
      console.error(`Lost the DATA_DIR lock while migrating: ${err.message}`);
      process.exit(1);
    });
  } catch (err) {
    if (!(err instanceof StorageLocked)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
const database = createDb(config.storage);
try {
  let dataMigrated: Record<string, number> = {};
  const { applied, waited } = await database.migrate({
    onWait: () => console.log('Waiting for another process to finish migrating the database…'),
    // The data migrations (server/data-migrations/) under the same lock, resuming one a stopped run left.
    afterwards: async () => (dataMigrated = await runDataMigrations(database.db)),
  });
  console.log(applied === 0 ? `The database is up to date${waited ? ' (another process migrated it)' : ''}.` : `Applied ${applied} migration${applied === 1 ? '' : 's'}.`);
  for (const [name, rows] of Object.entries(dataMigrated)) console.log(`Data migration ${name}: ${rows} row${rows === 1 ? '' : 's'} rewritten.`);
} finally {
  await database.close();
  await storageLock?.release();
}
