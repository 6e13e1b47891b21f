// Writing an operation's outcome into the space's sync (spaces.git_sync), in the transaction given: the
// sync's base (commit, revision) and timestamp move when the operation applied; the operation's entry in
// the history takes its outcome whenever it ends, while `operation` changes only while it is still this
// operation (a later request's `running` is not overwritten by an earlier job).
import { eq } from 'drizzle-orm';
import { GIT_SYNC_WARNINGS } from '../../contract/git-sync-schemas.js';
import type { Db } from '../db/client.js';
import { spaces } from '../db/schema/index.js';
import { asRecord, withOperation, type GitSyncOperation, type GitSyncRecord } from './sync-record.js';

export interface Outcome {
  state: GitSyncOperation['state'];
  result?: GitSyncOperation['result'];
  error?: string;
  conflicts?: GitSyncOperation['conflicts'];
  /** What was read or written that names nothing (bounded by `boundedWarnings`). */
  warnings?: string[];
  commit?: string;
  revision?: string;
  /** The new base of the sync: the commit and revision both sides now hold (not for standalone operations). */
  synced?: { commit: string; revision: string };
  /** With `synced`: the pages whose content at the new base is not what their file in the commit says (an import's merge). */
  divergent?: string[];
  /** The operation's timestamp, recorded as the last applied one. */
  timestamp?: string;
}

/** At most GIT_SYNC_WARNINGS warnings, the last saying how many more there were. */
export function boundedWarnings(warnings: string[]): string[] {
  if (warnings.length <= GIT_SYNC_WARNINGS) return warnings;
  return [...warnings.slice(0, GIT_SYNC_WARNINGS - 1), `… and ${warnings.length - GIT_SYNC_WARNINGS + 1} more warnings`];
}

/** The sync record of the space, locked for update in `db`'s transaction; undefined when the space has none (or is gone). */
export async function lockRecord(db: Db, spaceId: string): Promise<GitSyncRecord | undefined> {
  const [row] = await db.select({ gitSync: spaces.gitSync }).from(spaces).where(eq(spaces.id, spaceId)).for('update');
  return asRecord(row?.gitSync);
}

/** Records the outcome of operation `operationId` (call inside a transaction). */
export async function recordOutcome(db: Db, spaceId: string, operationId: string, outcome: Outcome, now: Date): Promise<void> {
  const record = await lockRecord(db, spaceId);
  if (!record) return;
  const next: GitSyncRecord = { ...record, updatedAt: now.toISOString() };
  if (outcome.synced) {
    next.commit = outcome.synced.commit;
    next.revision = outcome.synced.revision;
    if (outcome.divergent && outcome.divergent.length > 0) next.divergent = outcome.divergent;
    else delete next.divergent;
  }
  if (outcome.timestamp && (!record.timestamp || outcome.timestamp > record.timestamp)) next.timestamp = outcome.timestamp;
  const requested = record.history?.find((o) => o.id === operationId) ?? (record.operation?.id === operationId ? record.operation : undefined);
  if (requested) {
    const ended: GitSyncOperation = {
      id: operationId,
      direction: requested.direction,
      startedAt: requested.startedAt,
      state: outcome.state,
      endedAt: now.toISOString(),
      ...(outcome.result && { result: outcome.result }),
      ...(outcome.error && { error: outcome.error }),
      ...(outcome.conflicts && { conflicts: outcome.conflicts }),
      ...(outcome.warnings && outcome.warnings.length > 0 && { warnings: boundedWarnings(outcome.warnings) }),
      ...(outcome.commit && { commit: outcome.commit }),
      ...(outcome.revision && { revision: outcome.revision }),
    };
    if (record.operation?.id === operationId) next.operation = ended;
    // An operation older than the history's bound has left it: its outcome is `operation`'s only.
    if (record.history?.some((o) => o.id === operationId)) next.history = withOperation(record.history, ended);
  }
  await db.update(spaces).set({ gitSync: next }).where(eq(spaces.id, spaceId));
}
