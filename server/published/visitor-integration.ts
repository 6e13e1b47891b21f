// A visitor of a site whose publishing auth has `backend: integration` is signed in and out by the integration
// installed on the site with `site:visitor:auth` (server/integrations/visitor-auth.ts): the site sends them to
// the integration's visitor-auth URL, which runs its fetch_visitor_authentication; the integration brings
// them back with `?jwt_token=`, which the site keeps like any visitor token (visitor.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.js';
import { redirect } from '../http/node-http.js';
import { visitorAuthIntegration, visitorAuthUrl } from '../integrations/visitor-auth.js';
import type { SiteRow } from '../sites/site-view.js';
import type { Urls } from '../urls.js';
import { TOKEN_PARAM } from './visitor.js';

/**
 * The part of `url` (a path and query from the root of the server) below the site's `base`, from `/`: the
 * `location` the integration brings the visitor back to (appended to the site's URL). A token in the query is
 * left out; `/` when `url` is not below `base` (spelt otherwise).
 */
export function belowSite(url: string, base: string): string {
  if (!url.startsWith(base)) return '/';
  let rest = url.slice(base.length);
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return '/';
  if (!rest.startsWith('/')) rest = `/${rest}`;
  const at = rest.indexOf('?');
  if (at < 0) return rest;
  const query = new URLSearchParams(rest.slice(at + 1));
  query.delete(TOKEN_PARAM);
  const search = query.toString();
  return `${rest.slice(0, at)}${search ? `?${search}` : ''}`;
}

/**
 * Sends the visitor to the site's integration to sign in (`location`: where to come back to) or out
 * (`action: logout`); `none` answers when no integration with `site:visitor:auth` is installed on the site.
 */
export async function integrationSignIn(
  options: { db: Db; urls: Urls },
  req: IncomingMessage,
  res: ServerResponse,
  site: SiteRow,
  target: { location?: string; action?: 'logout' },
  none: () => void,
): Promise<void> {
  const integration = await visitorAuthIntegration(options.db, site.id);
  if (!integration) return none();
  res.setHeader('Cache-Control', 'no-store');
  redirect(req, res, visitorAuthUrl(options.urls, integration, site.id, target));
}
