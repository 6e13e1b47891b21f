// The reads of a published site a renderer makes beyond the content reads (contract/headless-reads.ts).
import type { headlessReadOperations } from '../../contract/headless-reads.js';
import type { AppHandlers } from '../handler-types.js';
import { pageMetaLinks } from './meta-links.js';
import { searchSite } from './site-content-search.js';

export const headlessReadHandlers = {
  async listRevisionPageMetaLinks({ grant, params }, ctx) {
    return { status: 200, body: await pageMetaLinks(ctx, grant, params.revisionId, params.pageId) };
  },
  async searchSiteContent({ grant, params, body, query }, ctx) {
    return { status: 200, body: await searchSite(ctx, grant.organization.id, params.siteId, body, query) };
  },
} satisfies Pick<AppHandlers, keyof typeof headlessReadOperations>;
