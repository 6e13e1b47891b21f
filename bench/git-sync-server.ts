// The server side of bench/git-sync.ts's large repository, in a process of its own so that its memory is
// measured alone (the bench's Git server passes the pack through the bench's process): the API and a job
// runner polling every 100 ms, on PGlite over a data folder (or a scratch PostgreSQL database), files in a
// folder store, both in a temporary folder removed at the end.
// Prints one JSON line {base, token, orgId} once it listens; stops when its stdin closes.
//
//   npx tsx bench/git-sync-server.ts [pglite|postgres] [pg-url]
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { blobStoreFrom, configureBlobStore } from '../server/blobs/store.js';
import { createDb } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { gitSyncHandler, GIT_SYNC } from '../server/git-sync/sync.job.js';
import { createJobRunner } from '../server/jobs/runner.js';

const [kind = 'pglite', pgUrl = 'postgres://postgres@127.0.0.1:5432/test'] = process.argv.slice(2);
process.env.ALLOW_PRIVATE_FETCH = 'true';
const filesDir = mkdtempSync(path.join(tmpdir(), 'bench-git-files-'));

/** PGlite over a data folder, as a server with DATA_DIR runs it: in memory, every row written would be memory. */
function onDisk() {
  const database = createDb({ kind: 'pglite', dataDir: path.join(filesDir, 'pglite') });
  return { database, dispose: () => database.close() };
}

configureBlobStore(blobStoreFrom({ backend: 'folder', dir: path.join(filesDir, 'files'), maxBytes: 4 * 1024 * 1024, graceMs: 24 * 3_600_000 }));
const { database, dispose } = kind === 'pglite' ? onDisk() : await createScratchDatabase(pgUrl, { prefix: 'bench_git_size' });
await database.migrate();
const db = database.db;
const owner = await createUser(db, { email: 'owner@bench.example', displayName: 'Owner' });
const organization = await createOrganization(db, { title: 'Bench', ownerId: owner.id });
const token = await issueToken(db, owner.id, 'bench');
const app = createApp({ db, logger: pino({ level: 'silent' }), publicUrl: 'http://bench.example' });
const listening = app.listen(0, '127.0.0.1');
if (!listening.listening) await new Promise((resolve) => listening.once('listening', resolve));
const runner = createJobRunner({ db, logger: pino({ level: 'silent' }), handlers: { [GIT_SYNC]: gitSyncHandler() }, pollIntervalMs: 100 });
runner.start();
console.log(JSON.stringify({ base: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1`, token, orgId: organization.id }));
process.stdin.resume();
process.stdin.on('end', async () => {
  await runner.stop();
  listening.close();
  await dispose();
  rmSync(filesDir, { recursive: true, force: true });
  process.exit(0);
});
