// Visitor authentication through an integration (a site's publishing auth with `backend: integration`):
// which integration signs the visitors of a site in, and where a visitor is sent to start. The integration is
// the one with the `site:visitor:auth` scope and a script that is installed on the site: on the site itself
// (an active site installation, whose configuration such integrations read) or on every site of the site's
// organization (`site_selection: all`, without an installation of its own there: the script's environment
// then shows a site installation with the installation's configuration, script-invocation.ts); with several,
// the first installed. The round trip
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
 * `siteId` (an SQL expression: a parameter, or a column of an enclosing query): an active installation of an
 * integration with the scope and a script, active on the site or covering every site of its organization
 * (unless its installation on the site was deactivated); the first installed.
 */
export function visitorAuthIntegrationSql(siteId: string, columns = 'i.name, inst.id AS installation_id'): string {
  return `SELECT ${columns}
  FROM integration_installations inst
  JOIN integrations i ON i.name = inst.integration_name
  JOIN sites s ON s.id = ${siteId} AND s.organization_id = inst.organization_id
  WHERE inst.status = 'active' AND '${VISITOR_AUTH_SCOPE}' = ANY(i.scopes)
    AND EXISTS (SELECT 1 FROM integration_scripts sc WHERE sc.integration_name = i.name)
    AND (EXISTS (SELECT 1 FROM integration_site_installations si WHERE si.installation_id = inst.id AND si.site_id = s.id AND si.status = 'active')
      OR (inst.site_selection = 'all' AND NOT EXISTS (SELECT 1 FROM integration_site_installations si WHERE si.installation_id = inst.id AND si.site_id = s.id)))
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
