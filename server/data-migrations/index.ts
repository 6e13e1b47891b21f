// The data migrations of this release, in the order they run (runner.ts; docs/operating.md, "Data
// migrations"). A name is never reused: a finished migration is recorded as such and never runs again.
import type { Db } from '../db/client.js';
import { gitbookDocumentsMigration } from './gitbook-documents.js';
import { runDataMigration, type DataMigration, type RunOptions } from './runner.js';

export const dataMigrations: DataMigration[] = [gitbookDocumentsMigration];

/** Runs every data migration not finished yet, to its end; the rows each changed. */
export async function runDataMigrations(db: Db, options: RunOptions = {}): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const migration of dataMigrations) {
    const result = await runDataMigration(db, migration, options);
    if (!result.alreadyDone) changed[migration.name] = result.changed;
  }
  return changed;
}
