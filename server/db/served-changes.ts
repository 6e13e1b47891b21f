// What this process is told of changes to what the published sites serve: the notices of the channel
// `site_served` (migration 0054), which the database sends, after the commit, for every new `served_stamp`
// of a site, whoever wrote it (this process, another one, a tool). While they are heard, a process may
// answer a site's readers from what it holds without asking the database whether it changed
// (server/published/served-sites.ts): a notice makes it forget the site. The same listener hears
// `api_written` (migration 0057), told of every write to the tables API reads answer from: the answers
// held for them (server/http/read-cache.ts) stand while nothing is told.
//
// Listening starts at the first use of a database (servedChangesOf), on PostgreSQL on a connection of its
// own (served-changes-pg.ts), on PGlite from PGlite itself (its only session notifies itself, and the
// notice comes before the writing statement's answer). A listener that is lost forgets everything and
// counts as not listening until it is back, so that nothing held while notices could be missed is served.
import type { Db } from './client.js';

export const SERVED_CHANNEL = 'site_served';

/**
 * The channel of every write to the tables API answers are read from (migration 0057): its notices carry no
 * payload, and tell the answers held for readers (server/http/read-cache.ts) that anything may have changed.
 */
export const WRITTEN_CHANNEL = 'api_written';

/** A notice's payload for "any site" (migration 0054). */
const ANY_SITE = '*';

/** How a storage listens for a database. */
export interface Listening {
  /** Starts listening, telling `changes`; gives how to stop. */
  start: (changes: ServedChanges) => () => Promise<void>;
  /** How long a proof that the listener is alive lasts (ms); none: it needs no proof (PGlite). */
  proofLasts?: number;
  /**
   * Nothing when every change committed before the call is heard already (PGlite: its notices come before
   * the writing statement's answer); else resolves once it is (PostgreSQL: a question on the listening
   * connection, asked after the call, is answered after the notices of what committed before; see
   * served-changes-pg.ts).
   */
  catchUp?: () => Promise<void> | undefined;
}

export class ServedChanges {
  private readonly hearers = new Set<(siteId: string | undefined) => void>();
  private readonly settlers = new Set<() => Promise<void> | undefined>();
  private heard = false;
  private told = 0;
  private written = 0;
  /** When the listener last proved to be alive (ms). */
  private aliveAt = 0;

  constructor(private readonly listeningWith: Omit<Listening, 'start'> = {}) {}

  /** Whether a change committed now will be told: the listener is up (and answered lately, on PostgreSQL). */
  get listening(): boolean {
    if (!this.heard) return false;
    const lasts = this.listeningWith.proofLasts;
    return lasts === undefined || Date.now() - this.aliveAt < lasts;
  }

  /**
   * Counts every notice, loss and return of the listener: what was read from the database while it did not
   * move was read with nothing told since (a change committed after the read is told after it).
   */
  get version(): number {
    return this.told;
  }

  /**
   * Counts every notice of either channel, and every loss and return of the listener: an answer read while
   * it did not move read the database as it still is (a write committed after the read is told after it).
   */
  get writeVersion(): number {
    return this.told + this.written;
  }

  /** Nothing when every change committed so far is heard; else resolves once it is (Listening.catchUp). */
  catchUp(): Promise<void> | undefined {
    return this.listeningWith.catchUp?.();
  }

  /**
   * Whether what was held from the database may be given now: the listener is up, and every change committed
   * before the call is heard (catchUp). What was told meanwhile has made its hearers forget, or moved the versions.
   */
  async caughtUp(): Promise<boolean> {
    if (!this.listening) return false;
    const behind = this.catchUp();
    if (behind) await behind;
    return this.listening;
  }

  /** Calls `hear` with the id of each site told changed, `undefined` when any may have. */
  subscribe(hear: (siteId: string | undefined) => void): () => void {
    this.hearers.add(hear);
    return () => this.hearers.delete(hear);
  }

  /**
   * Adds what a write waits for before it is answered (the published pages built for the sites it changed:
   * server/published/page-prebuild.ts); `settle` gives nothing when there is nothing to wait for.
   */
  settleWith(settle: () => Promise<void> | undefined): () => void {
    this.settlers.add(settle);
    return () => this.settlers.delete(settle);
  }

  /** Nothing when no settler has work; else resolves once each has settled (each bounds its own wait). */
  settled(): Promise<void> | undefined {
    const waits = [...this.settlers].map((settle) => settle()).filter((wait) => wait !== undefined);
    return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
  }

  /** A notice's payload. */
  tell(payload: string): void {
    this.forget(payload === ANY_SITE ? undefined : payload);
  }

  /** A notice of the WRITTEN_CHANNEL: some table changed. */
  tellWritten(): void {
    this.written++;
  }

  /** The listener is up, listening: what was held before is forgotten, as changes may have been missed. */
  up(): void {
    this.heard = true;
    this.aliveAt = Date.now();
    this.forget(undefined);
  }

  /** The listener answered: it is alive. */
  alive(): void {
    this.aliveAt = Date.now();
  }

  /** The listener is lost: nothing held is served until it is back. */
  down(): void {
    this.heard = false;
    this.forget(undefined);
  }

  private forget(siteId: string | undefined): void {
    this.told++;
    for (const hear of this.hearers) hear(siteId);
  }
}

const starters = new WeakMap<Db, Listening>();
const started = new WeakMap<Db, { changes: ServedChanges; stop: () => Promise<void> }>();

/** Called by createDb (client.ts): how `db`'s storage listens. */
export function listensWith(db: Db, listening: Listening): void {
  starters.set(db, listening);
}

/** The changes told for `db`, listening from the first call; none for a database opened otherwise. */
export function servedChangesOf(db: Db): ServedChanges | undefined {
  const known = started.get(db);
  if (known) return known.changes;
  const starter = starters.get(db);
  if (!starter) return undefined;
  const changes = new ServedChanges(starter);
  started.set(db, { changes, stop: starter.start(changes) });
  return changes;
}

/** Stops listening for `db` (its storage closes). */
export async function stopListening(db: Db): Promise<void> {
  const known = started.get(db);
  starters.delete(db);
  if (!known) return;
  started.delete(db);
  known.changes.down();
  await known.stop();
}
