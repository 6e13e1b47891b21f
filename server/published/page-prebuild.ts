// Pages built again as soon as their site changes, before their next reader comes (docs/sites.md, "Pages
// built at the change"). A change of what a site serves (a merge, a Git Sync import, a revert, a
// customization…) gives the site a new stamp, so every answer in the page cache is of the old one: without
// this, the first reader of each page after a merge waited for the site, the new revision's page tree and
// the page's render (~3–4× an API read).
//
// Which pages: the last PAGES_PER_SITE this process served for the site (each with its place and visitor's
// claims), most recent first. They are the pages readers are reading; a merge of 500 pages costs no more
// than a merge of one, and a page no one read is rendered by its first reader, as before.
// When: at the `site_served` notice of the change (server/db/served-changes.ts), in every process that
// served the site, whoever wrote, in the background. The write that made the change (its request, in this
// process) is answered once each changed site's most recently read page is built or WRITE_WAITS_MS have
// passed, whichever is first (server/http/operations.ts): its next reader finds that page built, and no write
// waits more than that for pages. The site's other pages follow OTHERS_AFTER_MS later, one at a time, each
// after any first page of a newer change, so that they do not hold up the readers the write's answer sends.
// Never stale: an answer is kept under the stamp its build read the site with (page-cache.ts), so it is only
// served to a reader who found that stamp; a build whose site was changed again before it ended is not kept
// (a newer notice started the next one). Readers who come while it is being made wait for it rather than
// making it again.
import { LRUCache } from 'lru-cache';
import type { Visitor } from '../conditions/evaluate.js';
import type { Db } from '../db/client.js';
import { uncounted } from '../db/query-count.js';
import { servedChangesOf, type ServedChanges } from '../db/served-changes.js';
import { answerKey, prebuildAnswer, type Answer } from './page-cache.js';
import type { FoundSite } from './site-data.js';

/** A page served to a reader with a 200: where and to whom, how its site is found again and its page made. */
export interface ServedPlace {
  find: () => Promise<FoundSite | undefined>;
  /** Makes the answer of this place on the site as `found` has it, as the app that served it does (published.routes.ts pageAnswer). */
  build: (found: FoundSite) => Promise<Answer>;
  origin: string;
  base: string;
  segments: string[];
  visitor: Visitor;
}

/** How many of a site's last served pages are built again at each change. */
export const PAGES_PER_SITE = 8;
/** How long a write's answer waits at most for the pages its change makes built again (ms). */
export const WRITE_WAITS_MS = 50;
/** How long after its first page a change's other pages wait before they are built (ms): see `heard`. */
export const OTHERS_AFTER_MS = 20;

interface SiteServed {
  /** Its last served pages by place (without the stamp), least recent first. */
  places: Map<string, ServedPlace>;
  /** Notices heard of it: a build of an earlier one is superseded. */
  told: number;
}

export class Prebuilder {
  private readonly sites = new LRUCache<string, SiteServed>({ max: 1000 });
  /** Notices of any site (and the listener lost or back): a build from before one is superseded. */
  private epoch = 0;
  /** The build of each change's first page (its site's most recently read), one after the other. */
  private firsts: Promise<void> = Promise.resolve();
  /** The builds of the changes' other pages, one after the other, each after the firsts queued before it. */
  private rest: Promise<void> = Promise.resolve();
  /** For each change heard whose build of its site's most recently read page is in flight: that build's end. */
  private readonly firstBuilt = new Set<Promise<void>>();

  constructor(private readonly changes: ServedChanges) {
    changes.subscribe((siteId) => this.heard(siteId));
    changes.settleWith(() => this.settle());
  }

  /** Notes that `place` was served a 200 of site `siteId`; `placeKey` names it (its page cache key without the stamp). */
  served(siteId: string, placeKey: string, place: ServedPlace): void {
    let site = this.sites.get(siteId);
    if (!site) this.sites.set(siteId, (site = { places: new Map(), told: 0 }));
    site.places.delete(placeKey);
    site.places.set(placeKey, place);
    if (site.places.size > PAGES_PER_SITE) site.places.delete(site.places.keys().next().value!);
  }

  private heard(siteId: string | undefined): void {
    if (siteId === undefined) return void this.epoch++;
    const site = this.sites.get(siteId);
    if (!site) return;
    const told = ++site.told;
    const epoch = this.epoch;
    const current = () => this.epoch === epoch && site.told === told && this.sites.peek(siteId) === site;
    const places = [...site.places.values()].reverse();
    let firstDone!: () => void;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    this.firstBuilt.add(first);
    // After the notice's other hearers (the held site forgotten), outside any request's statement count.
    const others = this.firsts
      .then(() => uncounted(() => this.buildFirst(siteId, places, current)))
      // A build that fails is the reader's to make again, who gets the error as before.
      .catch((): ServedPlace[] => [])
      .finally(() => {
        firstDone();
        this.firstBuilt.delete(first);
      });
    this.firsts = others.then(() => undefined);
    this.rest = Promise.all([this.rest, others])
      .then(async ([, remaining]) => {
        if (remaining.length === 0) return;
        // The readers the write's answer sends (its client's next view) come first: a build is CPU on this
        // thread, and one started just before them made them wait for it (the first view after a merge on
        // PostgreSQL took 3x an API read while the site's next page was being built).
        await new Promise((resolve) => setTimeout(resolve, OTHERS_AFTER_MS));
        await uncounted(() => this.buildOthers(siteId, remaining, current));
      })
      .catch(() => undefined);
  }

  /** Builds the first of `places` that can be (most recently read first); gives the places after it. */
  private async buildFirst(siteId: string, places: ServedPlace[], current: () => boolean): Promise<ServedPlace[]> {
    for (const [i, place] of places.entries()) {
      if (!current()) return [];
      if (await this.build(siteId, place, current)) return places.slice(i + 1);
    }
    return [];
  }

  /** Builds `places` in order, each after the first pages of changes heard meanwhile and the I/O waiting. */
  private async buildOthers(siteId: string, places: ServedPlace[], current: () => boolean): Promise<void> {
    for (const place of places) {
      await this.firsts;
      await new Promise((resolve) => setImmediate(resolve));
      if (!current()) return;
      await this.build(siteId, place, current);
    }
  }

  /** Builds the answer of `place` into the page cache under the stamp its site has now; false when there is none to build. */
  private async build(siteId: string, place: ServedPlace, current: () => boolean): Promise<boolean> {
    const found = await place.find();
    // An unpublished site's pages are refused to every reader (published.routes.ts admit): nothing to build.
    if (!found || found.site.id !== siteId || !found.site.published || !current()) return false;
    await prebuildAnswer(answerKey({ stamp: found.stamp, ...place }), () => place.build(found), current);
    return true;
  }

  /**
   * What a write waits for: of each site its notices told changed (heard once caught up), the page read most
   * recently, built; WRITE_WAITS_MS at most. The site's other pages are built after the answer: a write
   * waits for about one render per site it changed, not one per page its readers read.
   */
  private settle(): Promise<void> | undefined {
    if (this.sites.size === 0) return undefined;
    const behind = this.changes.catchUp();
    if (!behind && this.firstBuilt.size === 0) return undefined;
    return (async () => {
      if (behind) await behind;
      if (this.firstBuilt.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, WRITE_WAITS_MS)));
      await Promise.race([Promise.all([...this.firstBuilt]), waited]);
      clearTimeout(timer);
    })();
  }
}

const prebuilders = new WeakMap<Db, Prebuilder>();

/** The builder of `db`'s sites' pages; none when its changes cannot be heard. */
export function prebuilderOf(db: Db): Prebuilder | undefined {
  const known = prebuilders.get(db);
  if (known) return known;
  const changes = servedChangesOf(db);
  if (!changes) return undefined;
  const prebuilder = new Prebuilder(changes);
  prebuilders.set(db, prebuilder);
  return prebuilder;
}
