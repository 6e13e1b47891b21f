// The browser scripts a published site loads: one per integration installed on the site (an installation
// on the site itself, or an organization installation whose `site_selection` is `all`) that has a script.
// Read by the published profile and by the published site's pages. The integrations area owns the tables
// read here; if they change, this is the one function to adapt.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import type { Urls } from '../urls.js';
import { installationEndpointPath } from '../integrations/integration-view.js';

export interface SiteScript {
  script: string;
  contentSecurityPolicy?: string;
  cookies: boolean;
}

/** A content security policy stored as `{ directive: sources }`, as the header writes it. */
function policyText(policy: unknown): string | undefined {
  if (typeof policy === 'string') return policy || undefined;
  if (!policy || typeof policy !== 'object') return undefined;
  const parts = Object.entries(policy as Record<string, unknown>)
    .filter(([, value]) => typeof value === 'string')
    .map(([directive, value]) => `${directive} ${value as string}`);
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * The scripts of the integrations installed on site `siteId`, in the order of installation: each served by
 * the installation's public endpoint, with the integration's content security policy.
 */
export async function siteScripts(db: Db, siteId: string, urls: Urls): Promise<SiteScript[]> {
  const rows = await queryRows<{ integration_name: string; installation_id: string; content_security_policy: unknown }>(
    db,
    sql`SELECT i.name AS integration_name, inst.id AS installation_id, i.content_security_policy
        FROM integration_installations inst
        JOIN integrations i ON i.name = inst.integration_name
        JOIN sites s ON s.id = ${siteId} AND s.organization_id = inst.organization_id
        WHERE inst.status = 'active'
          AND EXISTS (SELECT 1 FROM integration_scripts sc WHERE sc.integration_name = i.name)
          AND (inst.site_selection = 'all' OR EXISTS (SELECT 1 FROM integration_site_installations si
                 WHERE si.installation_id = inst.id AND si.site_id = s.id AND si.status = 'active'))
        ORDER BY inst.id`,
  );
  return rows.map((row) => {
    const policy = policyText(row.content_security_policy);
    return {
      script: urls.root(installationEndpointPath(row.integration_name, row.installation_id)),
      ...(policy && { contentSecurityPolicy: policy }),
      cookies: false,
    };
  });
}
