// Pages built again when their site changes, before their next reader comes (server/published/page-prebuild.ts,
// docs/sites.md "Pages built at the change"): after a merge, the page a reader read last is in the page cache
// under the site's new stamp without any reader asking; a reader who comes while it is being built waits for
// that build; a build whose site changed again before it ended is not kept. Both storages for the merge; the
// builder's order and supersession with a ServedChanges told by hand.
import { describe, expect, it, vi } from 'vitest';
import { ServedChanges, servedChangesOf } from '../server/db/served-changes.js';
import { answerKey, cachedAnswer, pageCacheInspection, prebuildAnswer, type Answer } from '../server/published/page-cache.js';
import { OTHERS_AFTER_MS, Prebuilder, type ServedPlace } from '../server/published/page-prebuild.js';
import { findSiteByPath, type FoundSite } from '../server/published/site-data.js';
import { useHarness } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { mergeChanges, newSite } from './sites-support.js';

const h = useHarness();

/** A promise and what settles it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const page = (text: string): Answer => ({ status: 200, html: `<p>${text}</p>`, indexable: true });

describe('pages built when their site changes', () => {
  it('after a merge, the page read last is kept for the new revision before any reader asks, and the next reader makes nothing', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [
      { title: 'Intro', markdown: 'Old text.' },
      { title: 'Other', markdown: 'Other text.' },
    ]);
    const site = await newSite(admin, { title: 'Built docs', spaces: [space] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const changes = servedChangesOf(h.current.db)!;
    await vi.waitFor(() => expect(changes.listening).toBe(true), { timeout: 10_000, interval: 20 });
    const [orgKey, siteKey] = new URL(url).pathname.split('/').slice(-2).map(decodeURIComponent);
    // The page cache's key of `<url>/<segment>` for an anonymous reader, as of the site's stamp now.
    const keyNow = async (segment: string) => {
      const found = await findSiteByPath(h.current.db, orgKey, siteKey);
      return answerKey({ stamp: found!.stamp, origin: new URL(url).origin, base: new URL(url).pathname, segments: [segment], visitor: { claims: {} } });
    };

    const read = await open(h.current, `${url}/intro`);
    expect(read.status).toBe(200);
    expect(read.text).toContain('Old text.');
    expect(pageCacheInspection.has(await keyNow('intro'))).toBe(true); // the key is the one the reader's answer is kept under

    const pages = await admin.api.get(`/spaces/${space}/content/pages`);
    expect(pages.status).toBe(200);
    const intro = pages.body.pages.find((p: { title: string }) => p.title === 'Intro');
    await mergeChanges(admin, space, [{ operation: 'update_page', page: intro.id, document: { markdown: 'New text.' } }]);
    const newKey = await keyNow('intro');
    // Built by the merge's notice, with no reader: the merge waits for it (50 ms at most), so under load it may end just after.
    await vi.waitFor(() => expect(pageCacheInspection.has(newKey)).toBe(true), { timeout: 10_000, interval: 10 });

    const made = pageCacheInspection.madeForReaders();
    const after = await open(h.current, `${url}/intro`);
    expect(after.status).toBe(200);
    expect(after.text).toContain('New text.');
    expect(after.text).not.toContain('Old text.');
    expect(pageCacheInspection.madeForReaders()).toBe(made);
    // A page no reader read before the merge is not built: its first reader makes it.
    const other = await open(h.current, `${url}/other`);
    expect(other.status).toBe(200);
    expect(other.text).toContain('Other text.');
    expect(pageCacheInspection.madeForReaders()).toBe(made + 1);
  });

  it('a reader who comes while a page is being built waits for that build instead of making it again', async () => {
    const key = `prebuild-test-${Math.random()}`;
    const building = deferred<Answer>();
    const built = prebuildAnswer(key, () => building.promise, () => true);
    expect(built).toBeDefined();
    const readerMake = vi.fn(async () => page('made by the reader'));
    const reader = cachedAnswer(key, readerMake);
    building.resolve(page('built at the change'));
    expect(await reader).toEqual(page('built at the change'));
    expect(readerMake).not.toHaveBeenCalled();
    expect(pageCacheInspection.has(key)).toBe(true);
    // Kept or being made: not built again.
    expect(prebuildAnswer(key, async () => page('again'), () => true)).toBeUndefined();
  });

  it('a build of a site changed again before it ended is not kept; the next change builds the newer page', async () => {
    const changes = new ServedChanges();
    const builds: { stamp: string; done: ReturnType<typeof deferred<Answer>> }[] = [];
    const prebuilder = new Prebuilder(changes);
    let stamp = `stamp-${Math.random()}`;
    const siteId = `site-${Math.random()}`;
    const place: ServedPlace = {
      find: async () => ({ site: { id: siteId, published: true }, stamp }) as unknown as FoundSite,
      build: (found) => {
        const done = deferred<Answer>();
        builds.push({ stamp: found.stamp, done });
        return done.promise;
      },
      origin: 'https://docs.example',
      base: '/org/site',
      segments: ['intro'],
      visitor: { claims: {} },
    };
    const keyOf = (s: string) => answerKey({ stamp: s, ...place });
    prebuilder.served(siteId, 'intro', place);

    const first = stamp;
    changes.tell(siteId);
    await vi.waitFor(() => expect(builds).toHaveLength(1));
    expect(builds[0]!.stamp).toBe(first);
    // A reader who found the first stamp waits for its build and gets it, whatever happens next.
    const reader = cachedAnswer(keyOf(first), async () => page('made by the reader'));
    stamp = `stamp-${Math.random()}`;
    changes.tell(siteId); // changed again while the first build runs
    builds[0]!.done.resolve(page('first'));
    expect(await reader).toEqual(page('first'));
    expect(pageCacheInspection.has(keyOf(first))).toBe(false);

    await vi.waitFor(() => expect(builds).toHaveLength(2));
    expect(builds[1]!.stamp).toBe(stamp);
    const settled = changes.settled();
    expect(settled).toBeDefined(); // a write now waits for the build in flight
    builds[1]!.done.resolve(page('second'));
    await settled;
    expect(pageCacheInspection.has(keyOf(stamp))).toBe(true);
    expect(changes.settled()).toBeUndefined(); // nothing left to wait for
  });

  it("a write waits for the site's most recently read page, not for the others, which are built after it", async () => {
    const changes = new ServedChanges();
    const prebuilder = new Prebuilder(changes);
    const siteId = `site-${Math.random()}`;
    const stamp = `stamp-${Math.random()}`;
    const builds = new Map<string, ReturnType<typeof deferred<Answer>>>();
    const placeOf = (slug: string): ServedPlace => ({
      find: async () => ({ site: { id: siteId, published: true }, stamp }) as unknown as FoundSite,
      build: () => {
        const done = deferred<Answer>();
        builds.set(slug, done);
        return done.promise;
      },
      origin: 'https://docs.example',
      base: '/org/site',
      segments: [slug],
      visitor: { claims: {} },
    });
    prebuilder.served(siteId, 'older', placeOf('older'));
    prebuilder.served(siteId, 'latest', placeOf('latest'));
    changes.tell(siteId);
    await vi.waitFor(() => expect([...builds.keys()]).toEqual(['latest']));
    const settled = changes.settled();
    expect(settled).toBeDefined();
    let answered = false;
    void settled!.then(() => (answered = true));
    builds.get('latest')!.resolve(page('latest'));
    // Answered once the latest is built, while the older page is still being built.
    await vi.waitFor(() => expect(answered).toBe(true));
    await vi.waitFor(() => expect([...builds.keys()]).toEqual(['latest', 'older']));
    expect(changes.settled()).toBeUndefined();
    builds.get('older')!.resolve(page('older'));
    await vi.waitFor(() => expect(pageCacheInspection.has(answerKey({ stamp, ...placeOf('older') }))).toBe(true));
  });

  it("each change's first page is built before any change's other pages, which wait a moment for the readers the write sends", async () => {
    const changes = new ServedChanges();
    const prebuilder = new Prebuilder(changes);
    const order: string[] = [];
    const placeOf = (siteId: string, slug: string): ServedPlace => ({
      find: async () => ({ site: { id: siteId, published: true }, stamp: `stamp-${siteId}` }) as unknown as FoundSite,
      build: async () => {
        order.push(`${siteId}/${slug}`);
        return page(slug);
      },
      origin: 'https://docs.example',
      base: `/org/${siteId}`,
      segments: [slug],
      visitor: { claims: {} },
    });
    const [a, b] = [`a-${Math.random()}`, `b-${Math.random()}`];
    for (const site of [a, b]) {
      prebuilder.served(site, 'older', placeOf(site, 'older'));
      prebuilder.served(site, 'latest', placeOf(site, 'latest'));
    }
    changes.tell(a);
    changes.tell(b);
    const start = performance.now();
    await changes.settled();
    expect(order).toEqual([`${a}/latest`, `${b}/latest`]);
    await vi.waitFor(() => expect(order).toHaveLength(4));
    expect(performance.now() - start).toBeGreaterThanOrEqual(OTHERS_AFTER_MS - 5);
    expect(order.slice(2)).toEqual([`${a}/older`, `${b}/older`]);
  });

  it('a write waits for the builds of its change 50 ms at most', async () => {
    const changes = new ServedChanges();
    const never = new Promise<Answer>(() => undefined);
    const prebuilder = new Prebuilder(changes);
    const siteId = `site-${Math.random()}`;
    const place: ServedPlace = {
      find: async () => ({ site: { id: siteId, published: true }, stamp: `stamp-${Math.random()}` }) as unknown as FoundSite,
      build: () => never,
      origin: 'https://docs.example',
      base: '/org/site',
      segments: ['slow'],
      visitor: { claims: {} },
    };
    prebuilder.served(siteId, 'slow', place);
    changes.tell(siteId);
    const start = performance.now();
    await changes.settled();
    const waited = performance.now() - start;
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(5_000);
  });
});
