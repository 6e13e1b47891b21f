// The browser scripts a published site loads: one per integration installed on the site (an installation
// on the site itself, or an organization installation whose `site_selection` is `all`) that has a script.
// Read by the published profile and by the published site's pages. The integrations area owns the tables
// read here; if they change, this is the one function to adapt.
import { directQuery, type Db } from '../db/client.js';
import type { Urls } from '../urls.js';
import { cspHeader, installationEndpointPath } from '../integrations/integration-view.js';

export interface SiteScript {
  script: string;
  contentSecurityPolicy?: string;
  cookies: boolean;
}

/**
 * The SQL of the scripts of site `siteId` (an SQL expression: a parameter, or a column of an enclosing query)
 * as one JSON array of `[integration name, installation id, content security policy]`, in the order of
 * installation, or null when there are none. The published site reads it in the same statement as the site.
 */
export function siteScriptsJsonSql(siteId: string): string {
  return `(SELECT json_agg(json_build_array(i.name, inst.id, i.content_security_policy) ORDER BY inst.id)
        FROM integration_installations inst
        JOIN integrations i ON i.name = inst.integration_name
        JOIN sites s ON s.id = ${siteId} AND s.organization_id = inst.organization_id
        WHERE inst.status = 'active'
          AND EXISTS (SELECT 1 FROM integration_scripts sc WHERE sc.integration_name = i.name)
          AND (inst.site_selection = 'all' OR EXISTS (SELECT 1 FROM integration_site_installations si
                 WHERE si.installation_id = inst.id AND si.site_id = s.id AND si.status = 'active')))`;
}

/** The scripts of what siteScriptsJsonSql answered: each served by the installation's public endpoint, with the integration's content security policy. */
export function siteScriptsOf(json: unknown, urls: Urls): SiteScript[] {
  const rows = (Array.isArray(json) ? json : []) as [string, string, unknown][];
  return rows.map(([integrationName, installationId, contentSecurityPolicy]) => {
    const policy = cspHeader(contentSecurityPolicy);
    return {
      script: urls.root(installationEndpointPath(integrationName, installationId)),
      ...(policy && { contentSecurityPolicy: policy }),
      cookies: false,
    };
  });
}

/** The scripts of the integrations installed on site `siteId`, in the order of installation. */
export async function siteScripts(db: Db, siteId: string, urls: Urls): Promise<SiteScript[]> {
  const [row] = await directQuery(db, 'site_scripts', `SELECT ${siteScriptsJsonSql('$1')} AS scripts`, [siteId]);
  return siteScriptsOf(row?.scripts, urls);
}
