// The operations of headless rendering: URL resolution, and the lookup of a site redirect by its source
// (which needs the site's URLs and structure, as the published site applies it).
import type { siteRedirectOperations } from '../../contract/site-redirects.js';
import type { urlOperations } from '../../contract/urls.js';
import type { AppHandlers } from '../handler-types.js';
import { redirectBySource } from './redirect-lookup.js';
import { lookUpUrl } from './url-lookup.js';

type Ops = keyof typeof urlOperations | Extract<keyof typeof siteRedirectOperations, 'getSiteRedirectBySource'>;

export const headlessHandlers = {
  async getPublishedContentByUrl({ query }, ctx) {
    return { status: 200, body: await lookUpUrl(ctx, { url: query.url, field: 'query.url', redirectOnError: query.redirectOnError, jwtToken: query.visitorAuthToken }) };
  },
  async resolvePublishedContentByUrl({ body }, ctx) {
    const { url, redirectOnError, visitor } = body;
    return { status: 200, body: await lookUpUrl(ctx, { url, field: 'body.url', redirectOnError, jwtToken: visitor?.jwtToken, unsignedClaims: visitor?.unsignedClaims }) };
  },
  async getSiteRedirectBySource({ grant, params, query }, ctx) {
    return { status: 200, body: await redirectBySource(ctx, grant, params.siteId, query.source, query.shareKey) };
  },
} satisfies Pick<AppHandlers, Ops>;
