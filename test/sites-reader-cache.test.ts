// The sites a process holds for its readers (server/published/served-sites.ts) are found again with no
// statement while it hears the database's notices (server/db/served-changes.ts, migration 0054), and are
// never served once they may be stale: after a merge, after a change made straight in the database, and
// while the listener is lost (on PostgreSQL its connection is ended by the server; PGlite's cannot be lost,
// so there it is told so). test/sites-reader-cache-processes.test.ts does the same across two processes.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { queryRows } from '../server/db/client.js';
import { countingStatements } from '../server/db/query-count.js';
import { servedChangesOf, type ServedChanges } from '../server/db/served-changes.js';
import { sites } from '../server/db/schema/index.js';
import { findSiteByPath } from '../server/published/site-data.js';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { mergeChanges, newSite } from './sites-support.js';

const h = useHarness();
const onPostgres = Boolean(process.env.DATABASE_URL);

async function publishedSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: 'Old text.' }]);
  const site = await newSite(admin, { title: 'Held docs', spaces: [space] });
  const url: string = (await publish(admin, site.id)).urls.published;
  // The published URL ends in /<organization>/<site>: the keys a reader's request finds the site by.
  const [orgKey, siteKey] = new URL(url).pathname.split('/').slice(-2).map(decodeURIComponent);
  const find = () =>
    countingStatements(async (tally) => {
      const found = await findSiteByPath(h.current.db, orgKey, siteKey);
      return { found, statements: tally.statements };
    });
  // Held again by a read made once the last change's notice is in: a read racing the notice is not kept.
  const heldAgain = () => vi.waitFor(async () => expect((await find()).statements).toBe(0), { timeout: 10_000, interval: 20 });
  return { space, site, url, find, heldAgain };
}

async function heard(): Promise<ServedChanges> {
  const changes = servedChangesOf(h.current.db)!;
  await vi.waitFor(() => expect(changes.listening).toBe(true), { timeout: 10_000, interval: 20 });
  return changes;
}

async function pageText(url: string): Promise<string> {
  const res = await open(h.current, url);
  expect(res.status).toBe(200);
  return res.text;
}

describe('the sites a process holds for its readers', () => {
  it('finds a site again with no statement, and reads it anew after a merge or a change made straight in the database', async () => {
    const admin = await h.current.newAdmin();
    const { space, site, url, find, heldAgain } = await publishedSite(admin);
    await heard();
    const first = await find();
    expect(first.found?.site.id).toBe(site.id);
    await heldAgain();
    const again = await find();
    expect(again.statements).toBe(0);
    expect(again.found?.site.id).toBe(site.id);
    expect(await pageText(`${url}/intro`)).toContain('Old text.');
    expect(await pageText(`${url}/intro`)).toContain('Old text.');

    const pages = await admin.api.get(`/spaces/${space}/content/pages`);
    expect(pages.status).toBe(200);
    await mergeChanges(admin, space, [{ operation: 'update_page', page: pages.body.pages[0].id, document: { markdown: 'New text.' } }]);
    const merged = await pageText(`${url}/intro`);
    expect(merged).toContain('New text.');
    expect(merged).not.toContain('Old text.');
    await heldAgain();

    // Straight in the database, through the server's own pool: the next read waits until its notice is heard.
    // The notice also sends this process's page builder (page-prebuild.ts) to build the intro page again, and
    // its own read of the site, made after the notice, may be the one held by the time this read comes: so
    // this read makes its one statement or none, and either way finds the new title.
    await h.current.db.update(sites).set({ title: 'Renamed in the database' }).where(eq(sites.id, site.id));
    const renamed = await find();
    expect([0, 1]).toContain(renamed.statements);
    expect(renamed.found?.site.title).toBe('Renamed in the database');
    await heldAgain();
    expect((await find()).found?.site.title).toBe('Renamed in the database');
    expect(await pageText(`${url}/intro`)).toContain('Renamed in the database');
    await h.current.db.update(sites).set({ published: false }).where(eq(sites.id, site.id));
    expect((await open(h.current, `${url}/intro`)).status).toBe(404);
  });

  it('serves nothing it held while its listener is lost, and holds sites again once it is back', async () => {
    const admin = await h.current.newAdmin();
    const { site, url, find, heldAgain } = await publishedSite(admin);
    const changes = await heard();
    await heldAgain();

    if (onPostgres) {
      // The server ends the listening connection, as a restart or a failover would.
      const ended = await queryRows<{ ended: boolean }>(
        h.current.db,
        sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'site_served listener'`,
      );
      expect(ended.map((r) => r.ended)).toContain(true);
      await vi.waitFor(() => expect(changes.listening).toBe(false), { timeout: 10_000, interval: 10 });
    } else {
      changes.down();
    }
    await h.current.db.update(sites).set({ title: 'Changed while not heard' }).where(eq(sites.id, site.id));
    for (let i = 0; i < 2; i++) {
      const read = await find();
      expect(read.statements).toBe(1);
      expect(read.found?.site.title).toBe('Changed while not heard');
    }
    expect(await pageText(`${url}/intro`)).toContain('Changed while not heard');

    if (!onPostgres) changes.up();
    await heard();
    await h.current.db.update(sites).set({ title: 'Changed once heard again' }).where(eq(sites.id, site.id));
    expect((await find()).found?.site.title).toBe('Changed once heard again');
    await heldAgain();
    expect(await pageText(`${url}/intro`)).toContain('Changed once heard again');
  });

  it('forgets every site when a site is created, as a published URL may then find another one', async () => {
    const admin = await h.current.newAdmin();
    const { find, heldAgain } = await publishedSite(admin);
    await heard();
    await heldAgain();
    await newSite(admin, { title: 'Another site' });
    expect((await find()).statements).toBe(1);
    await heldAgain();
  });
});
