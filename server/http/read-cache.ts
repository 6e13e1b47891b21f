// The answers of the API's most frequent reads, held per process and given again with no statement while
// the database's writes are heard (issue 52: a read costs less than a plain server's two statements).
// Which reads: CACHED_READS below, each an answer made of the database alone (what it reads, the caller
// and the request's path and query), with no signed link, clock or job in it. An answer is held under its
// caller's user, the URL it was asked at and where the API is served (a mount's URLs differ), and only a
// 200 to a user's own token: a site, installation or integration token is checked per request.
//
// Never stale: every write to a table an answer is read from tells `api_written` (migration 0057), and
// any notice, or the listener lost or back, moves ServedChanges.writeVersion. An answer read while it
// did not move is kept with it and given only while it has not moved since, once every write committed
// before its reader came is heard (catchUp: on PostgreSQL, one question on the listening connection shared
// by the readers who come meanwhile). So a reader never misses a write whose answer came before it, made in
// this process or another (test/read-cache.test.ts runs two processes on one database).
import { LRUCache } from 'lru-cache';
import type { OperationId } from '../../generated/router.js';
import type { Db } from '../db/client.js';
import { servedChangesOf, type ServedChanges } from '../db/served-changes.js';

/**
 * The reads whose answers are held. Each answers from its tables, the caller and the request's path and
 * query alone (a list's cursor is its last row's keys, server/db/cursor.ts): the workspace's structure as a
 * client walks it, from the caller's user and organizations down to spaces, teams and members.
 */
export const CACHED_READS: ReadonlySet<OperationId> = new Set<OperationId>([
  'getAuthenticatedUser',
  'listOrganizationsForAuthenticatedUser',
  'getOrganizationById',
  'listMembersInOrganizationById',
  'getMemberInOrganizationById',
  'listTeamsInOrganizationById',
  'getTeamInOrganizationById',
  'listCollectionsInOrganizationById',
  'getCollectionById',
  'listSpacesInCollectionById',
  'listSpacesInOrganizationById',
  'getSpaceById',
  'getSiteById',
]);

/** What is held of an answer: enough to write it again as it was written (sendText). */
export interface HeldAnswer {
  status: number;
  headers: [string, string][];
  type: string;
  text: string;
}

interface Held {
  answer: HeldAnswer;
  /** ServedChanges.writeVersion when it was read. */
  version: number;
}

/** Held answers take at most this many bytes of text (about twice in memory, as JavaScript strings). */
const MAX_TEXT = 32 * 1024 * 1024;

export class ReadCache {
  private readonly held = new LRUCache<string, Held>({ maxSize: MAX_TEXT, sizeCalculation: (h) => Math.max(1, h.answer.text.length) });

  constructor(private readonly changes: ServedChanges) {}

  /** The key of a user's read at `url` of the API served at `apiBase`. */
  static keyOf(userId: string, apiBase: string, url: string): string {
    return `${userId} ${apiBase} ${url}`;
  }

  /** The answer held under `key`, when nothing was written since it was read (every write committed so far heard). */
  async get(key: string): Promise<HeldAnswer | undefined> {
    const held = this.held.get(key);
    if (!held || held.version !== this.changes.writeVersion || !(await this.changes.caughtUp())) return undefined;
    return held.version === this.changes.writeVersion ? held.answer : undefined;
  }

  /** What to give `keep` with an answer read from now on. */
  version(): number {
    return this.changes.writeVersion;
  }

  /** Keeps `answer`, read after `version()` answered `version`, unless anything was written since. */
  keep(key: string, answer: HeldAnswer, version: number): void {
    if (this.changes.listening && this.changes.writeVersion === version) this.held.set(key, { answer, version });
  }
}

const caches = new WeakMap<Db, ReadCache>();

/** The answers held for reads of `db`, shared by the apps serving it; none when its writes cannot be heard. */
export function readCacheOf(db: Db): ReadCache | undefined {
  const known = caches.get(db);
  if (known) return known;
  const changes = servedChangesOf(db);
  if (!changes) return undefined;
  const cache = new ReadCache(changes);
  caches.set(db, cache);
  return cache;
}
