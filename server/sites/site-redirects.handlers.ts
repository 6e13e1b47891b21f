import type { siteRedirectOperations } from '../../contract/site-redirects.js';
import type { AppHandlers } from '../handler-types.js';
import { bulkUpsertSiteRedirects, createSiteRedirect, deleteSiteRedirect, listSiteRedirects, updateSiteRedirect } from './site-redirects.store.js';

type Ops = Exclude<keyof typeof siteRedirectOperations, 'getSiteRedirectBySource'>;

export const siteRedirectHandlers = {
  async listSiteRedirects({ grant, params, query }, ctx) {
    return { status: 200, body: await listSiteRedirects(ctx, grant, params.siteId, query) };
  },
  async createSiteRedirect({ grant, params, body }, ctx) {
    return { status: 201, body: await createSiteRedirect(ctx, grant, params.siteId, body) };
  },
  async updateSiteRedirectById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateSiteRedirect(ctx, grant, params.siteId, params.siteRedirectId, body) };
  },
  async deleteSiteRedirectById({ grant, params }, ctx) {
    const deleted = await deleteSiteRedirect(ctx, grant, params.siteId, params.siteRedirectId);
    return { status: deleted ? 205 : 204 };
  },
  async bulkUpsertSiteRedirects({ grant, params, body }, ctx) {
    return { status: 200, body: await bulkUpsertSiteRedirects(ctx, grant, params.siteId, body) };
  },
} satisfies Pick<AppHandlers, Ops>;
