// Two server processes on one PostgreSQL database, each holding the published site in memory
// (server/published/served-sites.ts): a merge in one is shown by the other at its next read, with no wait,
// and so is a change of the site's settings made straight in the database. PostgreSQL only.
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { queryRows } from '../server/db/client.js';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { call, killChild, startChildServer, type ChildServer } from './support/child-server.js';

const adminUrl = process.env.DATABASE_URL;

/** The page at `url` (a URL of process `from`), read from `server`. */
async function readOn(server: ChildServer, url: string): Promise<string> {
  const u = new URL(url);
  const res = await fetch(`${server.url}${u.pathname}`, { redirect: 'manual' });
  expect(res.status, url).toBe(200);
  return res.text();
}

describe.skipIf(!adminUrl)('two processes on one PostgreSQL', () => {
  let scratch: ScratchDatabase | undefined;
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await killChild(server);
    await scratch?.dispose();
  });

  it('show a merge made in the other at the next read, and a change made in the database', { timeout: 120_000 }, async () => {
    scratch = await createScratchDatabase(adminUrl!, { prefix: 'dwapi_reader_cache', template: inject('postgresTemplate'), poolSize: 2 });
    const env = { DATABASE_URL: scratch.url };
    // Started together: the database's start-up lock lets one migrate while the other waits.
    servers.push(...(await Promise.all([startChildServer(env), startChildServer(env)])));
    const [a, b] = servers;

    const org = (await call(a.url, 'GET', '/orgs')).body.items[0].id as string;
    const space = await call(a.url, 'POST', `/orgs/${org}/spaces`, { title: 'Guides' });
    expect(space.status).toBe(201);
    const merge = async (changes: object[]) => {
      const cr = await call(a.url, 'POST', `/spaces/${space.body.id}/change-requests`, { subject: 'Edit' });
      expect(cr.status).toBe(201);
      const wrote = await call(a.url, 'POST', `/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, { changes });
      expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
      const merged = await call(a.url, 'POST', `/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`);
      expect(merged.status).toBe(200);
    };
    await merge([{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Version 0.' } }]);
    const site = await call(a.url, 'POST', `/orgs/${org}/sites`, { title: 'Shared docs', spaces: [space.body.id] });
    expect(site.status).toBe(201);
    const published = await call(a.url, 'POST', `/orgs/${org}/sites/${site.body.id}/publish`);
    expect(published.status).toBe(200);
    const page = `${published.body.urls.published}/intro`;
    const pages = await call(a.url, 'GET', `/spaces/${space.body.id}/content/pages`);
    expect(pages.status).toBe(200);
    const pageId = pages.body.pages[0].id as string;

    // B reads the page (and holds the site) before each merge in A, and reads it again once A answered.
    for (let version = 1; version <= 3; version++) {
      expect(await readOn(b, page)).toContain(`Version ${version - 1}.`);
      expect(await readOn(b, page)).toContain(`Version ${version - 1}.`);
      await merge([{ operation: 'update_page', page: pageId, document: { markdown: `Version ${version}.` } }]);
      const after = await readOn(b, page);
      expect(after).toContain(`Version ${version}.`);
      expect(after).not.toContain(`Version ${version - 1}.`);
    }

    // A setting changed straight in the database (as a tool would): both processes take the site down.
    expect(await readOn(a, page)).toContain('Version 3.');
    await queryRows(scratch.database.db, sql`UPDATE sites SET published = false WHERE id = ${site.body.id}`);
    for (const server of [b, a]) expect((await fetch(`${server.url}${new URL(page).pathname}`)).status).toBe(404);
  });
});
