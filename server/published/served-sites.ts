// The sites this process found for its readers (site-data.ts findSite), by the key they were found under,
// kept per database and answered again with no statement while the database's changes are heard
// (server/db/served-changes.ts): a notice of a site forgets it, a notice of any site, or the listener lost
// or back, forgets them all. Everything served from a site (its structure, the page cache, the live
// redirects) is kept under its stamp, so a site forgotten here is read anew, stamp and all, by the next
// reader, and nothing cached under the old stamp is served again.
//
// A site read while a notice arrived is not kept: the statement may have read it before the change the
// notice tells, and nothing would tell that change again. A held site is served once every change committed
// before its reader came is heard (ServedChanges.catchUp), so a reader never misses a write whose answer
// came before it, in this process or another.
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { servedChangesOf, type ServedChanges } from '../db/served-changes.js';
import type { FoundSite } from './site-data.js';

class HeldSites {
  private readonly sites = new LRUCache<string, FoundSite>({ max: 1000 });

  constructor(private readonly changes: ServedChanges) {
    changes.subscribe((siteId) => {
      if (siteId === undefined) return this.sites.clear();
      const keys = [...this.sites.entries()].filter(([, found]) => found.site.id === siteId).map(([key]) => key);
      for (const key of keys) this.sites.delete(key);
    });
  }

  /** The site held under `key`, when every change committed so far is heard. */
  async get(key: string): Promise<FoundSite | undefined> {
    if (!this.sites.has(key) || !(await this.changes.caughtUp())) return undefined;
    return this.sites.get(key);
  }

  /** What to give `keep` with a site read from now on. */
  version(): number {
    return this.changes.version;
  }

  /** Keeps `found`, read after `version()` answered `told`, unless something was told since. */
  keep(key: string, found: FoundSite, told: number): void {
    if (this.changes.listening && this.changes.version === told) this.sites.set(key, found);
  }
}

const held = new WeakMap<Db, HeldSites>();

/** The sites held for `db`; none when its changes cannot be heard (a database opened otherwise than by createDb). */
export function heldSitesOf(db: Db): HeldSites | undefined {
  const known = held.get(db);
  if (known) return known;
  const changes = servedChangesOf(db);
  if (!changes) return undefined;
  const sites = new HeldSites(changes);
  held.set(db, sites);
  return sites;
}
