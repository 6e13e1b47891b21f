// `npm run admin -- <command> [options]`: creates users, organizations, memberships and tokens in the
// configured storage (DATA_DIR or DATABASE_URL, as for `npm start`).
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { roles } from '../contract/common.js';
import { addMember, createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { loadConfig, type FileStoreSettings } from '../server/config.js';
import { moveBlobs } from '../server/blobs/move.js';
import { blobStoreFrom, configureBlobStore } from '../server/blobs/store.js';
import type { Db } from '../server/db/client.js';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDb } from '../server/db/client.js';
import { copyToPostgres } from '../server/operating/copy-to-postgres.js';
import { lockStorage } from '../server/storage-lock.js';

const usage = `Usage: npm run admin -- <command> [options]
  create-user  --email <email> --name <display name> [--photo-url <https URL>]
                                                          prints the new user id (the photo is the user's photoURL)
  create-org   --title <title> --owner <user id>         prints the new organization id (owner becomes admin)
  add-member   --org <org id> --user <user id> --role <${roles.join('|')}|guest>
  create-token --user <user id> [--label <label>]        prints the new token (shown only once)
  copy-to-postgres --database-url <postgres://…>          copies everything in DATA_DIR into that empty PostgreSQL
                                                          database (migrated first); the server must be stopped
  move-files --to <database|folder|s3>                    moves every file's bytes to that backend (FILES_* and S3_*
                                                          settings as for the server), each hash checked; resumable;
                                                          on PostgreSQL while the server runs (on DATA_DIR, stop it)`;

const options = {
  email: { type: 'string' },
  name: { type: 'string' },
  'photo-url': { type: 'string' },
  title: { type: 'string' },
  owner: { type: 'string' },
  org: { type: 'string' },
  user: { type: 'string' },
  role: { type: 'string' },
  label: { type: 'string' },
  'database-url': { type: 'string' },
  to: { type: 'string' },
} as const;

const schemas = {
  'create-user': z.object({ email: z.email(), name: z.string().min(1), 'photo-url': z.url({ protocol: /^https?$/ }).max(2048).optional() }),
  'create-org': z.object({ title: z.string().min(2).max(255), owner: z.string().min(1) }),
  'add-member': z.object({ org: z.string().min(1), user: z.string().min(1), role: z.enum([...roles, 'guest']) }),
  'create-token': z.object({ user: z.string().min(1), label: z.string().min(1).max(50).default('cli') }),
  'move-files': z.object({ to: z.enum(['database', 'folder', 's3']) }),
  'copy-to-postgres': z.object({ 'database-url': z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL') }),
};

async function main() {
  const { positionals, values } = parseArgs({ options, allowPositionals: true });
  const command = positionals[0] as keyof typeof schemas;
  if (!(command in schemas)) {
    console.error(usage);
    process.exit(2);
  }
  const parsed = schemas[command].safeParse(values);
  if (!parsed.success) {
    console.error(`${command}: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}\n\n${usage}`);
    process.exit(2);
  }
  const { storage, files } = loadConfig();
  if (command === 'copy-to-postgres') return copyDataDir(storage, (parsed.data as Record<string, string>)['database-url']);
  // The server's DATA_DIR lock: the CLI must not open an embedded folder a running server holds (errors name the holder).
  const lock = storage.kind === 'pglite' ? await lockStorage(storage.dataDir, (err) => { throw err; }) : undefined;
  const database = createDb(storage);
  await database.migrate();
  const db = database.db;
  try {
    const a = parsed.data as Record<string, string>;
    if (command === 'create-user') console.log((await createUser(db, { email: a.email, displayName: a.name, photoUrl: a['photo-url'] })).id);
    if (command === 'create-org') console.log((await createOrganization(db, { title: a.title, ownerId: a.owner })).id);
    if (command === 'add-member') await addMember(db, a.org, a.user, a.role === 'guest' ? null : (a.role as (typeof roles)[number]));
    if (command === 'create-token') console.log(await issueToken(db, a.user, a.label));
    if (command === 'move-files') await moveFiles(db, files, a.to as 'database' | 'folder' | 's3');
  } finally {
    await database.close();
    await lock?.release();
  }
}

/** Moves every blob to `to`, printing progress; exits 1 when some could not be moved (run it again). */
async function moveFiles(db: Db, files: FileStoreSettings, to: 'database' | 'folder' | 's3') {
  configureBlobStore(blobStoreFrom({ ...files, backend: to }));
  const report = await moveBlobs(db, to, (done) => {
    if (done % 100 === 0) console.log(`  ${done} moved`);
  });
  console.log(`Moved ${report.moved} files (${report.bytes} bytes) to ${to}, every hash checked.`);
  for (const f of report.failed) console.error(`  not moved: ${f.sha256}: ${f.reason}`);
  if (report.failed.length > 0) {
    console.error(`${report.failed.length} files were not moved; run move-files again once the cause is fixed.`);
    process.exitCode = 1;
  } else {
    console.log(`Set FILES_BACKEND=${to} so new files go there too.`);
  }
}

/**
 * Copies the embedded DATA_DIR into an empty PostgreSQL database, under the DATA_DIR lock (so no server is
 * writing to it), after migrating both to this build's version.
 */
async function copyDataDir(storage: ReturnType<typeof loadConfig>['storage'], databaseUrl: string) {
  if (storage.kind !== 'pglite') throw new Error('copy-to-postgres reads the embedded DATA_DIR: unset DATABASE_URL');
  if (!existsSync(storage.dataDir)) throw new Error(`DATA_DIR ${storage.dataDir} does not exist: nothing to copy`);
  const lock = await lockStorage(storage.dataDir, (err) => {
    throw err;
  });
  // PGlite on this thread: the copy reads it through a cursor.
  const pglite = new PGlite({ dataDir: storage.dataDir });
  const source = createDb({ kind: 'pglite', pglite });
  const target = createDb({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    await source.migrate();
    await target.migrate();
    console.log(`Copying ${storage.dataDir} into ${new URL(databaseUrl).pathname.slice(1) || 'the database'}:`);
    const result = await copyToPostgres(pglite, pool, (line) => console.log(`  ${line}`));
    const rows = result.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(`Copied ${rows} rows of ${result.tables.length} tables (migration ${result.migration.slice(0, 12)}). Start the server with DATABASE_URL set to this database.`);
  } finally {
    await pool.end();
    await target.close();
    await source.close();
    await lock.release();
  }
}

main().catch((err: Error) => {
  console.error(`error: ${err.message}`);
  process.exit(1);
});
