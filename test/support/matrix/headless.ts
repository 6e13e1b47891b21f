// Matrix fixtures of headless rendering: a published site with a page (whose URL the URL resolution answers
// for any caller), and site redirects, each made fresh in the site chosen for the call.
import type { MatrixFixtures, MatrixWorld } from './types.js';

const external = { kind: 'external', url: 'https://example.com/moved' };
let counter = 0;
const freshSource = () => `/matrix-${Date.now().toString(36)}-${++counter}`;

// One published site with a page per world (the matrix and the fuzz test each have theirs).
const published = new WeakMap<MatrixWorld['admin'], Promise<string>>();

/** The URL of a published site's page (made once per world). */
function publishedPageUrl({ admin }: MatrixWorld): Promise<string> {
  let url = published.get(admin);
  if (!url) {
    url = (async () => {
      const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Matrix headless' })).body.id;
      const cr = (await admin.api.post(`/spaces/${space}/change-requests`)).body.id;
      await admin.api.post(`/spaces/${space}/change-requests/${cr}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Welcome.' } }],
      });
      await admin.api.post(`/spaces/${space}/change-requests/${cr}/merge`);
      const site = (await admin.api.post(`/orgs/${admin.organizationId}/sites`, { title: 'Matrix headless', spaces: [space] })).body;
      const publishedSite = (await admin.api.post(`/orgs/${admin.organizationId}/sites/${site.id}/publish`)).body;
      return `${publishedSite.urls.published}/welcome`;
    })();
    published.set(admin, url);
  }
  return url;
}

async function newRedirect(world: MatrixWorld, path: Record<string, string>): Promise<{ id: string; source: string }> {
  const source = freshSource();
  const res = await world.admin.api.post(`/orgs/${world.admin.organizationId}/sites/${path.siteId}/redirects`, { source, destination: external });
  return { id: res.body.id, source };
}

/** A merged page that says "Welcome" in the first space the site `siteId` shows: what its search finds. */
async function siteSaysWelcome({ admin }: MatrixWorld, siteId: string): Promise<void> {
  const siteSpaces = await admin.api.get(`/orgs/${admin.organizationId}/sites/${siteId}/site-spaces`);
  const space = siteSpaces.body.items[0].space.id as string;
  const cr = (await admin.api.post(`/spaces/${space}/change-requests`)).body.id;
  await admin.api.post(`/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Welcome to the site.' } }],
  });
  await admin.api.post(`/spaces/${space}/change-requests/${cr}/merge`);
}

export const headlessFixtures: MatrixFixtures = {
  params: {
    siteRedirectId: async (world, path) => (await newRedirect(world, path)).id,
  },
  queries: {
    getPublishedContentByUrl: async (world) => ({ url: await publishedPageUrl(world) }),
    getSiteRedirectBySource: async (world, path) => ({ source: (await newRedirect(world, path)).source }),
  },
  bodies: {
    resolvePublishedContentByUrl: async (world) => ({ url: await publishedPageUrl(world) }),
    createSiteRedirect: () => ({ source: freshSource(), destination: external }),
    bulkUpsertSiteRedirects: () => ({ redirects: [{ source: freshSource(), destination: external }] }),
    // A POST list: no list fill runs for it (only GETs get one), so its body recipe makes what it finds.
    searchSiteContent: async (world, path) => {
      await siteSaysWelcome(world, path.siteId);
      return { query: 'welcome', scope: { mode: 'all' } };
    },
  },
};
