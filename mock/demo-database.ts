// The stateful mock's storage: an in-memory PGlite holding the demo workspace, new at every start (a
// restart resets it). Migrating and seeding take several seconds on a small machine, so the seeded
// database is kept as a PGlite dump under node_modules/.cache and loaded from there (well under a
// second) while the code that made it is unchanged: the dump's name is a hash of server/, contract/
// (migrations included) and the PGlite version. The first start after a change builds it again.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { issueToken } from '../server/auth/bootstrap.js';
import { createDb, type Database } from '../server/db/client.js';
import { seedDemoWorkspace } from '../server/demo/seed.js';

const root = path.resolve(import.meta.dirname, '..');
const cacheDir = path.join(root, 'node_modules/.cache/docs-workspace-api');

export interface DemoDatabase {
  database: Database;
  organizationId: string;
  ownerId: string;
  /** A token of the demo owner, issued for this run (`tokenValue` when given). */
  token: string;
  /** Whether the seeded dump was loaded from the cache (false: built by this start). */
  fromCache: boolean;
}

/** Opens a fresh in-memory database holding the demo workspace and issues its owner a token. */
export async function openDemoDatabase(tokenValue?: string): Promise<DemoDatabase> {
  const file = path.join(cacheDir, `demo-${fingerprint()}.tar`);
  const fromCache = existsSync(file);
  const database = fromCache ? createDb({ kind: 'pglite', pglite: new PGlite({ loadDataDir: new Blob([readFileSync(file)]) }) }) : await buildDump(file);
  const demo = await seedDemoWorkspace(database.db, { ownerToken: false });
  const token = await issueToken(database.db, demo.ownerId, 'mock', tokenValue);
  return { database, organizationId: demo.organizationId, ownerId: demo.ownerId, token, fromCache };
}

async function buildDump(file: string): Promise<Database> {
  const pglite = new PGlite();
  const database = createDb({ kind: 'pglite', pglite });
  await database.migrate();
  await seedDemoWorkspace(database.db, { ownerToken: false });
  const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
  mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed: a mock starting beside this one never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, dump);
  renameSync(partial, file);
  return database;
}

/** A hash of everything the seeded database depends on. */
function fingerprint(): string {
  const hash = createHash('sha256');
  // The dump format belongs to the PGlite version (its package.json is not among its exports).
  hash.update(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
  for (const dir of ['server', 'contract']) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }).sort((a, b) => fullPath(a).localeCompare(fullPath(b)))) {
      if (!entry.isFile()) continue;
      hash.update(path.relative(root, fullPath(entry)));
      hash.update(readFileSync(fullPath(entry)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

function fullPath(entry: { parentPath: string; name: string }): string {
  return path.join(entry.parentPath, entry.name);
}
