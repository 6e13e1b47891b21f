// Visitor authentication through an integration (a site's publishing auth with `backend: integration`):
// which integration signs the visitors of a site in, and where a visitor is sent to start. The integration is
// the one with the `site:visitor:auth` scope installed on the site itself (a site installation: it carries the
// configuration such integrations read, and is what the script's environment names) that has a script; with
// several, the first installed. The round trip
// (docs/integrations-runtime.md, "Visitor authentication"):
//   1. the site sends a reader without a valid token to VISITOR_AUTH_PATH of that installation with
//      `location` (where they were going, below the site's URL);
//   2. that URL delivers `fetch_visitor_authentication` to the script (visitor-auth.route.ts) and answers
//      with what it answers: a redirect to its identity provider;
//   3. the provider sends the reader back to the site installation's public endpoint, where the script signs
//      a visitor token with `environment.signingSecrets.siteInstallation` (the site's visitor key) and
//      redirects to the site with `?jwt_token=`, which the site accepts as any visitor token
//      (server/published/visitor.ts).
import { directQuery, type Db } from '../db/client.js';
import type { Urls } from '../urls.js';

/** The scope an integration needs to sign a site's visitors in. */
export const VISITOR_AUTH_SCOPE = 'site:visitor:auth';

export const VISITOR_AUTH_PATH = '/integrations/:name/installations/:installationId/sites/:siteId/visitor-auth';

export interface VisitorAuthIntegration {
  name: string;
  installationId: string;
}

/**
 * The SQL selecting the name and installation id of the integration that signs in the visitors of site
 * `siteId` (an SQL expression: a parameter, or a column of an enclosing query): an active installation on the
 * site, of an integration with the scope and a script; the first installed.
 */
export function visitorAuthIntegrationSql(siteId: string, columns = 'i.name, inst.id AS installation_id'): string {
  return `SELECT ${columns}
  FROM integration_site_installations si
  JOIN integration_installations inst ON inst.id = si.installation_id
  JOIN integrations i ON i.name = inst.integration_name
  WHERE si.site_id = ${siteId} AND si.status = 'active' AND inst.status = 'active' AND '${VISITOR_AUTH_SCOPE}' = ANY(i.scopes)
    AND EXISTS (SELECT 1 FROM integration_scripts sc WHERE sc.integration_name = i.name)
  ORDER BY inst.id LIMIT 1`;
}

/** The integration that signs the visitors of site `siteId` in, if one is installed. */
export async function visitorAuthIntegration(db: Db, siteId: string): Promise<VisitorAuthIntegration | undefined> {
  const [row] = await directQuery(db, 'site_visitor_auth_integration', visitorAuthIntegrationSql('$1'), [siteId]);
  return row ? { name: row.name as string, installationId: row.installation_id as string } : undefined;
}

/**
 * The URL a visitor of site `siteId` is sent to, to be signed in by `integration` (`location`: where they
 * were going, a path below the site's URL starting with `/`) or signed out (`action: 'logout'`).
 */
export function visitorAuthUrl(urls: Urls, integration: VisitorAuthIntegration, siteId: string, options: { location?: string; action?: 'logout' }): string {
  const path = VISITOR_AUTH_PATH.replace(':name', encodeURIComponent(integration.name))
    .replace(':installationId', encodeURIComponent(integration.installationId))
    .replace(':siteId', encodeURIComponent(siteId));
  const query = new URLSearchParams();
  if (options.location !== undefined) query.set('location', options.location);
  if (options.action) query.set('action', options.action);
  const search = query.toString();
  return urls.root(search ? `${path}?${search}` : path);
}
