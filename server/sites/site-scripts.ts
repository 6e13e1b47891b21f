// The browser scripts a published site loads: one per integration installed on the site (an installation
// on the site itself, or an organization installation whose `site_selection` is `all`) that has a script
// and the `site:script:inject` scope. Each is served by the integration's `fetch_published_script`
// (server/integrations/published-script.route.ts) with the site installation's configuration; `cookies`
// says whether it may set cookies (`site:script:cookies`); the integration's content security policy is
// merged into the page's (mergeContentSecurityPolicy). Read by the published profile and by the published
// site's pages. The integrations area owns the tables read here; if they change, this is the one place to adapt.
import type { AttachedRead } from '../db/attached-select.js';
import { directQuery, type Db } from '../db/client.js';
import type { Urls } from '../urls.js';
import { cspHeader, publishedScriptPath } from '../integrations/integration-view.js';

export interface SiteScript {
  script: string;
  contentSecurityPolicy?: string;
  cookies: boolean;
}

/**
 * The SQL of the scripts of site `siteId` (an SQL expression: a parameter, or a column of an enclosing query)
 * as one JSON array of `[integration name, installation id, content security policy, cookies, site id]`, in
 * the order of installation, or null when there are none. The published site reads it in the same statement
 * as the site.
 */
export function siteScriptsJsonSql(siteId: string): string {
  return `(SELECT json_agg(json_build_array(i.name, inst.id, i.content_security_policy, 'site:script:cookies' = ANY(i.scopes), s.id) ORDER BY inst.id)
        FROM integration_installations inst
        JOIN integrations i ON i.name = inst.integration_name
        JOIN sites s ON s.id = ${siteId} AND s.organization_id = inst.organization_id
        WHERE inst.status = 'active' AND 'site:script:inject' = ANY(i.scopes)
          AND EXISTS (SELECT 1 FROM integration_scripts sc WHERE sc.integration_name = i.name)
          AND (inst.site_selection = 'all' OR EXISTS (SELECT 1 FROM integration_site_installations si
                 WHERE si.installation_id = inst.id AND si.site_id = s.id AND si.status = 'active')))`;
}

/** The scripts of what siteScriptsJsonSql answered: each served by the integration's published-script endpoint for the site. */
export function siteScriptsOf(json: unknown, urls: Urls): SiteScript[] {
  const rows = (Array.isArray(json) ? json : []) as [string, string, unknown, boolean, string][];
  return rows.map(([integrationName, installationId, contentSecurityPolicy, cookies, siteId]) => {
    const policy = cspHeader(contentSecurityPolicy);
    return {
      script: urls.root(publishedScriptPath(integrationName, installationId, siteId)),
      ...(policy && { contentSecurityPolicy: policy }),
      cookies: cookies === true,
    };
  });
}

// The directives a site script's policy may add sources to: where things load from. The others (base-uri,
// form-action, frame-ancestors, sandbox, reporting…) stay the page's own.
const FETCH_DIRECTIVE = /^(script|style|img|font|connect|media|object|frame|child|worker|manifest|prefetch)-src(-elem|-attr)?$/;

/** `base` (a Content-Security-Policy value) with the sources of `extra` policies added to its fetch directives. */
export function mergeContentSecurityPolicy(base: string, extra: (string | undefined)[]): string {
  const parse = (policy: string) =>
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/).filter(Boolean))
      .filter((parts) => parts.length > 0)
      .map(([name, ...sources]) => [name.toLowerCase(), sources] as const);
  const merged = new Map(parse(base).map(([name, sources]) => [name, [...sources]]));
  for (const policy of extra) {
    if (!policy) continue;
    for (const [name, sources] of parse(policy)) {
      if (!FETCH_DIRECTIVE.test(name)) continue;
      const own = merged.get(name) ?? [];
      // 'none' gives way to what the integration names; '*' already allows it all.
      const kept = own.filter((s) => s !== "'none'");
      if (kept.includes('*')) continue;
      for (const source of sources) if (source !== "'none'" && !kept.includes(source)) kept.push(source);
      merged.set(name, kept.length > 0 ? kept : ["'none'"]);
    }
  }
  return [...merged].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/** The scripts of the integrations installed on site `siteId`, in the order of installation. */
export async function siteScripts(db: Db, siteId: string, urls: Urls): Promise<SiteScript[]> {
  const [row] = await directQuery(db, 'site_scripts', `SELECT ${siteScriptsJsonSql('$1')} AS scripts`, [siteId]);
  return siteScriptsOf(row?.scripts, urls);
}

/** The scripts of site `siteId` as a read attached to a grant's statement (attached-read.ts): its column `site_scripts`. */
export function siteScriptsRead(siteId: string): AttachedRead {
  return { name: 'site_scripts', sql: (first) => `SELECT ${siteScriptsJsonSql(`$${first}`)} AS site_scripts`, params: [siteId] };
}

/** The scripts of site `siteId`: from the grant's statement (`attached`, its row) when siteScriptsRead came with it, else read now. */
export async function grantedSiteScripts(db: Db, attached: Record<string, unknown> | undefined, siteId: string, urls: Urls): Promise<SiteScript[]> {
  if (attached && 'site_scripts' in attached) return siteScriptsOf(attached.site_scripts, urls);
  return siteScripts(db, siteId, urls);
}
