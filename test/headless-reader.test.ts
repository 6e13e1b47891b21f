// A site token reads what URL resolution would show its reader: a page hidden by its condition (or under a
// page hidden by one) is not found through every read of the token, and read when the token's claims meet it.
import { describe, expect, it } from 'vitest';
import { apiClient } from './support/api.js';
import { useHarness, type Account } from './support/harness.js';
import { publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

type Page = { id: string; title: string; path: string; documentId?: string; pages?: Page[] };
const flat = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);

async function betaSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [{ title: 'Setup', markdown: 'Setup text.' }]);
  await mergeChanges(admin, space, [
    {
      operation: 'insert_files',
      files: [
        { name: 'codes.txt', ref: 'codes', contentType: 'text/plain', base64: Buffer.from('launch codes').toString('base64') },
        { name: 'shared.txt', ref: 'shared', contentType: 'text/plain', base64: Buffer.from('shared').toString('base64') },
        { name: 'loose.txt', contentType: 'text/plain', base64: Buffer.from('loose').toString('base64') },
      ],
    },
    { operation: 'insert_page', ref: 'beta', title: 'Beta', document: { markdown: 'Beta launch [codes](codes) and [shared](shared).' }, condition: 'visitor.claims.isBetaUser' },
    { operation: 'insert_page', into: 'beta', title: 'Inside', document: { markdown: 'Inside the beta.' } },
    { operation: 'insert_page', title: 'Public', document: { markdown: 'Also [shared](shared).' } },
  ]);
  const site = await newSite(admin, { title: 'Docs', spaces: [space] });
  await enableAdaptiveContent(admin, site.id);
  const url: string = (await publish(admin, site.id)).urls.published;
  const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
  const pages = flat((await admin.api.get(`/spaces/${space}/content/pages`)).body.pages);
  const revision: string = (await admin.api.get(`/spaces/${space}/content`)).body.id;
  return { space, url, key, pages, revision, byTitle: (t: string) => pages.find((p) => p.title === t)! };
}

describe('a site token applies page conditions', () => {
  it('answers 404 for a page the reader may not see, through every read; the same reads answer for a reader who may', async () => {
    const admin = await h.current.newAdmin();
    const { space, url, key, revision, byTitle } = await betaSite(admin);
    const beta = byTitle('Beta');
    const inside = byTitle('Inside');
    expect(beta.documentId && inside.documentId).toBeTruthy();

    const anonymous = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(anonymous.status).toBe(200);
    const betaToken = await signVisitorToken({ isBetaUser: true }, key);
    const asBeta = await admin.api.get('/urls/published', { url: `${url}/guides/beta`, visitorAuthToken: betaToken });
    expect(asBeta.status).toBe(200);

    const reads = (page: Page) => [
      `/spaces/${space}/content/page/${page.id}`,
      `/spaces/${space}/content/path/${encodeURIComponent(page.path)}`,
      `/spaces/${space}/revisions/${revision}/page/${page.id}/document`,
      `/spaces/${space}/revisions/${revision}/path/${encodeURIComponent(page.path)}`,
      `/spaces/${space}/documents/${page.documentId}`,
    ];
    const reader = apiClient(h.current.app, anonymous.body.apiToken);
    const betaReader = apiClient(h.current.app, asBeta.body.apiToken);
    for (const page of [beta, inside]) {
      for (const path of reads(page)) {
        expect((await reader.get(path)).status, path).toBe(404);
        const read = await betaReader.get(path);
        expect(read.status, path).toBe(200);
      }
    }
    // The page trees leave them out for the one reader and hold them for the other.
    for (const path of [`/spaces/${space}/revisions/${revision}/pages`, `/spaces/${space}/content/pages`]) {
      const tree = await reader.get(path);
      expect(tree.status).toBe(200);
      expect(flat(tree.body.pages).map((p) => p.title).sort()).toEqual(['Public', 'Setup']);
      const full = await betaReader.get(path);
      expect(full.status).toBe(200);
      expect(flat(full.body.pages).map((p) => p.title).sort()).toEqual(['Beta', 'Inside', 'Public', 'Setup']);
    }
    const current = await reader.get(`/spaces/${space}/content`);
    expect(current.status).toBe(200);
    expect(flat(current.body.pages).map((p) => p.title).sort()).toEqual(['Public', 'Setup']);
    // A file only the hidden page refers to goes with it; one a readable page refers to, or none does, stays.
    const files = (await admin.api.get(`/spaces/${space}/content/files`)).body.items as { id: string; name: string }[];
    const codes = files.find((f) => f.name === 'codes.txt')!;
    const names = async (client: typeof reader) => {
      const listed = await client.get(`/spaces/${space}/content/files`);
      expect(listed.status).toBe(200);
      return (listed.body.items as { name: string }[]).map((f) => f.name).sort();
    };
    expect(await names(reader)).toEqual(['loose.txt', 'shared.txt']);
    expect(await names(betaReader)).toEqual(['codes.txt', 'loose.txt', 'shared.txt']);
    for (const path of [`/spaces/${space}/content/files/${codes.id}`, `/spaces/${space}/revisions/${revision}/files/${codes.id}`]) {
      expect((await reader.get(path)).status, path).toBe(404);
      expect((await betaReader.get(path)).status, path).toBe(200);
    }
    // A page the reader may see still reads, in both formats.
    const setup = byTitle('Setup');
    expect((await reader.get(`/spaces/${space}/revisions/${revision}/path/${encodeURIComponent(setup.path)}`, { format: 'markdown' })).status).toBe(200);
    expect((await reader.get(`/spaces/${space}/documents/${setup.documentId}`)).status).toBe(200);
    // The space's members still read everything.
    expect((await admin.api.get(`/spaces/${space}/revisions/${revision}/page/${beta.id}/document`)).status).toBe(200);
  });

  it('reads a page whose condition reads an unsigned claim given at resolution', async () => {
    const admin = await h.current.newAdmin();
    const { space, url, byTitle } = await betaSite(admin);
    await mergeChanges(admin, space, [{ operation: 'insert_page', title: 'Dark', document: { markdown: 'Dark.' }, condition: 'visitor.claims.unsigned.prefersDark' }]);
    const dark = flat((await admin.api.get(`/spaces/${space}/content/pages`)).body.pages).find((p) => p.title === 'Dark')!;
    const plain = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    const withClaim = await admin.api.post('/urls/published', { url: `${url}/guides/setup`, visitor: { unsignedClaims: { prefersDark: true } } });
    expect(plain.status).toBe(200);
    expect(withClaim.status).toBe(200);
    expect((await apiClient(h.current.app, plain.body.apiToken).get(`/spaces/${space}/content/page/${dark.id}`)).status).toBe(404);
    expect((await apiClient(h.current.app, withClaim.body.apiToken).get(`/spaces/${space}/content/page/${dark.id}`)).status).toBe(200);
    expect(byTitle('Setup')).toBeTruthy();
  });
});
