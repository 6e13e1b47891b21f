// A page's display condition, set through the API (updateChangeRequestContent), read back on the page, and
// evaluated by the published site against each reader's claims: the page, its subpages, the sidebar,
// previous/next links, the site search and the sitemap all follow it.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { hrefs, open, publish, spaceWithPages } from './published-support.js';
import { draftChanges, enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

type ListedPage = { id: string; title: string; condition?: string; pages?: ListedPage[] };
async function listed(admin: Account, spaceId: string): Promise<ListedPage[]> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/pages`);
  expect(res.status).toBe(200);
  const all: ListedPage[] = [];
  const visit = (pages: ListedPage[]) => pages.forEach((p) => (all.push(p), visit(p.pages ?? [])));
  visit(res.body.pages);
  return all;
}

/** A public site with adaptive content over a space with pages Intro, Beta (conditional, with a subpage) and Outro. */
async function adaptiveSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: 'For everyone.' }]);
  await mergeChanges(admin, space, [
    { operation: 'insert_page', ref: 'beta', title: 'Beta', document: { markdown: 'Beta launch codes.' }, condition: 'visitor.claims.isBetaUser' },
    { operation: 'insert_page', into: 'beta', title: 'Beta details', document: { markdown: 'Beta details text.' } },
    { operation: 'insert_page', title: 'Outro', document: { markdown: 'Goodbye.' } },
  ]);
  const site = await newSite(admin, { title: 'Adaptive', spaces: [space] });
  await enableAdaptiveContent(admin, site.id);
  const url: string = (await publish(admin, site.id)).urls.published;
  const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
  const entry = await open(h.current, `${url}/guides/intro?jwt_token=${await signVisitorToken({ isBetaUser: true }, key)}`);
  expect(entry.status).toBe(302);
  return { space, site, url, beta: entry.headers['set-cookie'] as unknown as string[] };
}

describe('page conditions', () => {
  it('are set through updateChangeRequestContent, read back on the page (change request and space), and removed with ""', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: 'Hello.' }]);
    const { id, content } = await draftChanges(admin, space, [{ operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta.' }, condition: 'visitor.claims.isBetaUser' }]);
    expect(content.status).toBe(200);
    const inRequest = await admin.api.get(`/spaces/${space}/change-requests/${id}/content/pages`);
    expect(inRequest.status).toBe(200);
    expect(inRequest.body.pages.find((p: ListedPage) => p.title === 'Beta').condition).toBe('visitor.claims.isBetaUser');
    expect((await admin.api.post(`/spaces/${space}/change-requests/${id}/merge`)).status).toBe(200);
    const beta = (await listed(admin, space)).find((p) => p.title === 'Beta')!;
    expect(beta.condition).toBe('visitor.claims.isBetaUser');
    expect((await listed(admin, space)).find((p) => p.title === 'Intro')!.condition).toBeUndefined();
    const one = await admin.api.get(`/spaces/${space}/content/page/${beta.id}`);
    expect(one.status).toBe(200);
    expect(one.body.condition).toBe('visitor.claims.isBetaUser');

    await mergeChanges(admin, space, [{ operation: 'update_page', page: beta.id, condition: '' }]);
    const removed = await admin.api.get(`/spaces/${space}/content/page/${beta.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.condition).toBeUndefined();
  });

  it('refuses a condition longer than 1024 characters or not a string, naming the field', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: 'Hello.' }]);
    for (const condition of ['x'.repeat(1025), true]) {
      const { content } = await draftChanges(admin, space, [{ operation: 'insert_page', title: 'Beta', condition }]);
      expect(content.status).toBe(400);
      expect(content.body.error.message).toContain('condition');
    }
  });

  it('hide the page and its subpages from readers whose claims do not meet them: page, sidebar, next link, search and sitemap', async () => {
    const admin = await h.current.newAdmin();
    const { url, beta } = await adaptiveSite(admin);
    const base = `${new URL(url).pathname}/guides`;

    const anonymous = await open(h.current, `${url}/guides/intro`);
    expect(anonymous.status).toBe(200);
    expect(hrefs(anonymous.text)).not.toContain(`${base}/beta`);
    expect(hrefs(anonymous.text)).not.toContain(`${base}/beta/beta-details`);
    expect(anonymous.text).toMatch(/rel="next">→ Outro/);
    for (const page of ['beta', 'beta/beta-details']) {
      const refused = await open(h.current, `${url}/guides/${page}`);
      expect(refused.status).toBe(404);
      expect(refused.text).not.toContain('Beta');
    }
    const anonymousSearch = await open(h.current, `${url}/~search?q=launch`);
    expect(anonymousSearch.status).toBe(200);
    expect(anonymousSearch.text).not.toContain('Beta');
    const sitemap = await open(h.current, `${url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).toContain(`${base}/intro</loc>`);
    expect(sitemap.text).not.toContain('/beta');

    const reader = await open(h.current, `${url}/guides/intro`, beta);
    expect(reader.status).toBe(200);
    expect(hrefs(reader.text)).toEqual(expect.arrayContaining([`${base}/beta`, `${base}/beta/beta-details`]));
    expect(reader.text).toMatch(/rel="next">→ Beta/);
    expect((await open(h.current, `${url}/guides/beta`, beta)).text).toContain('Beta launch codes.');
    expect((await open(h.current, `${url}/guides/beta/beta-details`, beta)).text).toContain('Beta details text.');
    const readerSearch = await open(h.current, `${url}/~search?q=launch`, beta);
    expect(readerSearch.status).toBe(200);
    expect(hrefs(readerSearch.text).some((href) => href.startsWith(`${base}/beta`))).toBe(true);
  });

  it('follow a condition changed by a merge, on unsigned claims too; a condition that does not parse is refused and changes nothing', async () => {
    const admin = await h.current.newAdmin();
    const { space, url, beta } = await adaptiveSite(admin);
    const pageId = (await listed(admin, space)).find((p) => p.title === 'Beta')!.id;
    await mergeChanges(admin, space, [{ operation: 'update_page', page: pageId, condition: 'visitor.claims.unsigned.prefersDark' }]);
    expect((await open(h.current, `${url}/guides/beta`, beta)).status).toBe(404); // the signed claim no longer opens it
    const dark = await open(h.current, `${url}/guides/intro?visitor.prefersDark=true`);
    expect(dark.status).toBe(302);
    const darkPage = await open(h.current, `${url}/guides/beta`, dark.headers['set-cookie'] as unknown as string[]);
    expect(darkPage.status).toBe(200);
    expect(darkPage.text).toContain('Beta launch codes.');

    const refused = await draftChanges(admin, space, [{ operation: 'update_page', page: pageId, condition: 'require("fs")' }]);
    expect(refused.content.status).toBe(400);
    expect(refused.content.body.error.message).toContain('body.changes[0].condition: at character 8: function calls are not in the grammar');
    expect((await open(h.current, `${url}/guides/beta`, dark.headers['set-cookie'] as unknown as string[])).status).toBe(200);
    expect((await open(h.current, `${url}/guides/beta`, beta)).status).toBe(404);
  });
});
