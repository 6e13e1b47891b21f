// The Git Sync of a space as stored in spaces.git_sync: the repository of the last operation (its URL
// without credentials), the commit and revision of the last sync (the base conflicts are judged from),
// the timestamp of the last operation applied, the latest operation with its outcome and the history of the
// last GIT_SYNC_HISTORY operations (each with its own outcome, newest first). Its API form is
// GitSyncState (getSpaceGitInfo, and `gitSync` on a Space).
import { GIT_SYNC_HISTORY } from '../../contract/git-sync-schemas.js';
import type { components } from '../../generated/types.js';

export type GitSyncState = components['schemas']['GitSyncState'];
export type GitSyncOperation = NonNullable<GitSyncState['operation']>;
export type GitSyncProvider = GitSyncState['provider'];

export interface GitSyncRecord {
  installationId: string;
  provider: GitSyncProvider;
  repository: { url: string; ref: string; projectDirectory?: string; commitURL?: string };
  treeURL?: string;
  /** The commit and revision of the last sync. */
  commit?: string;
  revision?: string;
  /**
   * Pages whose content at the sync is the space's while their file in the commit says otherwise (an
   * import merged them from the space): an export rewrites their files whatever it keeps of the others.
   */
  divergent?: string[];
  /** ISO time of the last operation applied. */
  timestamp?: string;
  operation?: GitSyncOperation;
  /** The last operations requested, newest first (records written before it was kept have none). */
  history?: GitSyncOperation[];
  updatedAt: string;
}

/** `github` for github.com, `gitlab` for gitlab.com or a host named gitlab…, `git` for any other server. */
export function providerOf(url: string, given?: 'github' | 'gitlab'): GitSyncProvider {
  if (given) return given;
  const host = new URL(url).hostname.toLowerCase();
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host === 'gitlab.com' || host.split('.')[0] === 'gitlab') return 'gitlab';
  return 'git';
}

/** The path of the repository URL without `.git` and the leading slash (`acme/docs`). */
export function repoNameOf(url: string): string {
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return path || new URL(url).hostname;
}

/** The stored record, or undefined for a space without a sync (a column read as JSON). */
export function asRecord(value: unknown): GitSyncRecord | undefined {
  return value && typeof value === 'object' ? (value as GitSyncRecord) : undefined;
}

/** The API form. */
export function toGitSyncState(record: GitSyncRecord): GitSyncState {
  return {
    installationId: record.installationId,
    // GitBook knows GitHub and GitLab only: another Git server shows as `github`, and `provider` says what it is.
    installationProvider: record.provider === 'gitlab' ? 'gitlab' : 'github',
    provider: record.provider,
    installationStatus: 'active',
    integration: record.provider,
    repoName: repoNameOf(record.repository.url),
    ...(record.treeURL && { url: record.treeURL }),
    repository: record.repository,
    ...(record.commit && { commit: record.commit }),
    ...(record.revision && { revision: record.revision }),
    ...(record.timestamp && { timestamp: record.timestamp }),
    ...(record.operation && { operation: record.operation }),
    ...((record.history ?? (record.operation ? [record.operation] : [])).length > 0 && { operations: record.history ?? [record.operation!] }),
    updatedAt: record.updatedAt,
  };
}

/** The history with `operation` first (a new one, or the new state of one already there), bounded. */
export function withOperation(history: GitSyncOperation[] | undefined, operation: GitSyncOperation): GitSyncOperation[] {
  const list = history ?? [];
  const at = list.findIndex((o) => o.id === operation.id);
  if (at >= 0) return list.map((o, i) => (i === at ? operation : o));
  return [operation, ...list].slice(0, GIT_SYNC_HISTORY);
}
