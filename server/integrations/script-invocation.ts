// Runs an integration's published script for one request (an event delivery or a request to a public
// endpoint): reads the script, its secrets and the configurations of the installation concerned, builds
// what the script is given, and hands the request to the sandboxed runtime (server/runtime/). A `v2`
// script gets an IntegrationEnvironment in GitBook's dispatch protocol (script-environment.ts,
// dispatch-protocol.ts); a `v1` script gets the `env` below as the second argument of its fetch.
//
// `env` of a `v1` script:
//   secrets          the integration's secrets, by name (also what the publisher gave in `secrets`)
//   installationId   the installation concerned, when any
//   configuration    that installation's configuration ({} when none)
//   spaceId / siteId and spaceConfiguration / siteConfiguration, when the request concerns one
//   integration      { name, version }
//   apiEndpoint      where to call this API back (`<PUBLIC_URL>/v1`)
//   apiTokens        { installation }: a token of the installation concerned (createIntegrationInstallationToken),
//                    when there is one; a script calls the API with it within the integration's scopes
//   signingSecrets   { siteInstallation }: the site's visitor key, as in a `v2` environment (below), when given
//
// Both forms carry the site's visitor key (`signingSecrets.siteInstallation`) only to the integration that signs
// the site's visitors in: a request about its installation on a site whose publishing auth has
// `backend: integration`, by an integration with the `site:visitor:auth` scope (visitor-auth.ts).
import { tableRow, type Db } from '../db/client.js';
import { integrationInstallations, integrationScripts, integrationSiteInstallations, integrations, integrationSpaceInstallations, organizations } from '../db/schema/index.js';
import { columnsAs, runSql, sqlText } from '../db/sql-text.js';
import { visitorKey } from '../sites/publishing-auth.js';
import { mintInstallationToken } from '../auth/installation-tokens.js';
import { scriptApiEndpoint, scriptUrls, sharedScriptRuntime, type ScriptRequest, type ScriptResponse } from '../runtime/script-runtime.js';
import type { IntegrationRow } from './integration-view.js';
import { integrationEnvironment, type IntegrationEnvironment } from './script-environment.js';
import { VISITOR_AUTH_SCOPE } from './visitor-auth.js';

export interface ScriptTarget {
  installationId?: string;
  spaceId?: string;
  siteId?: string;
}

/** What runs the script: the sandboxed runtime by default; tests may pass their own. */
export type ScriptRunner = (options: { key: string; script: string; request: ScriptRequest; env: Record<string, unknown> }) => Promise<ScriptResponse>;

export const sandboxRunner: ScriptRunner = (options) => sharedScriptRuntime().invoke(options);

/** Tokens handed to scripts, by installation, reused until REUSE_MARGIN_MS before they expire (a new one costs writes). */
const handedOut = new Map<string, { token: string; expiresAt: Date }>();
const REUSE_MARGIN_MS = 10 * 60 * 1000;

async function installationToken(db: Db, installationId: string): Promise<string | undefined> {
  const now = new Date();
  const known = handedOut.get(installationId);
  if (known && known.expiresAt.getTime() - now.getTime() > REUSE_MARGIN_MS) return known.token;
  const minted = await mintInstallationToken(db, installationId, now);
  if (!minted) return undefined;
  if (handedOut.size >= 10_000) handedOut.clear();
  handedOut.set(installationId, minted);
  return minted.token;
}

// What a request about `target` reads, in one statement (prepared once per database): the integration with
// its owner, its script, and the installation and its space or site installation named in the path (null
// when they do not exist). The public endpoint's requests once made three statements here besides the path
// check, and the database's thread was the bottleneck of the endpoint (bench/results/script-runtime.md).
// Nothing is kept between requests: a change (a new script, a configuration, an uninstall) applies to the
// next one, in every process.
//
// Plain SQL run straight on the driver (server/db/sql-text.ts), not Drizzle's prepared query: on PGlite that
// one was parsed and planned at each request (the planner reading the size of each of its seven tables),
// which kept the database thread busy all the time under load; this one is PREPAREd once and only executed.
function targetRow(db: Db, name: string, target: ScriptTarget) {
  return runSql(
    db,
    sqlText`SELECT ${columnsAs(integrations, 'i', 'i_')}, ${columnsAs(organizations, 'o', 'o_')},
      sc.integration_name AS sc_integration_name, sc.runtime AS sc_runtime, sc.script AS sc_script, sc.secrets AS sc_secrets,
      ${columnsAs(integrationInstallations, 'inst', 'inst_')},
      ${columnsAs(integrationSpaceInstallations, 'spi', 'spi_')},
      ${columnsAs(integrationSiteInstallations, 'sti', 'sti_')},
      st.visitor_auth_backend AS site_backend, st.visitor_auth_key AS site_key,
      -- Only a v2 script's environment shows the installation's space count (spacesCount() of
      -- target-installations.store.ts): not counted for the others.
      (CASE WHEN sc.runtime = 'v2' AND inst.id IS NOT NULL THEN
        (CASE WHEN inst.space_selection = 'all'
          THEN (SELECT count(*) FROM spaces AS s WHERE s.organization_id = inst.organization_id AND s.deleted_at IS NULL)
          ELSE (SELECT count(*) FROM integration_space_installations AS isi WHERE isi.installation_id = inst.id) END)
        ELSE 0 END) AS spaces
    FROM integrations i
    JOIN organizations o ON o.id = i.organization_id
    LEFT JOIN integration_scripts sc ON sc.integration_name = i.name
    LEFT JOIN integration_installations inst ON inst.id = ${target.installationId ?? null}::text AND inst.integration_name = i.name
    LEFT JOIN integration_space_installations spi ON spi.installation_id = inst.id AND spi.space_id = ${target.spaceId ?? null}::text
    LEFT JOIN integration_site_installations sti ON sti.installation_id = inst.id AND sti.site_id = ${target.siteId ?? null}::text
    LEFT JOIN sites st ON st.id = sti.site_id
    WHERE i.name = ${name}::text`,
  );
}

/** The row of targetRow, read back into each table's row (null for a table the left joins did not find). */
function targetOf(raw: Record<string, unknown>) {
  const present = (prefix: string, key: string) => raw[`${prefix}${key}`] != null;
  return {
    integration: tableRow(integrations, raw, 'i_'),
    owner: tableRow(organizations, raw, 'o_'),
    runtime: present('sc_', 'integration_name') ? (raw.sc_runtime as string) : null,
    script: present('sc_', 'integration_name') ? (raw.sc_script as string) : null,
    secrets: present('sc_', 'integration_name') ? tableRow(integrationScripts, raw, 'sc_').secrets : null,
    installation: present('inst_', 'id') ? tableRow(integrationInstallations, raw, 'inst_') : null,
    spaces: Number(raw.spaces ?? 0),
    spaceInstallation: present('spi_', 'id') ? tableRow(integrationSpaceInstallations, raw, 'spi_') : null,
    siteInstallation: present('sti_', 'id') ? tableRow(integrationSiteInstallations, raw, 'sti_') : null,
    siteAuth: present('site_', 'backend') ? { backend: raw.site_backend as string, key: (raw.site_key as string | null) ?? null } : null,
  };
}

/** How a script is called: GitBook's dispatch protocol (`v2`) or the plain Workers form (`v1`). */
export type ScriptProtocol = 'v1' | 'v2';

export interface LoadedScript {
  integration: IntegrationRow;
  script: string;
  protocol: ScriptProtocol;
  secrets: Record<string, string>;
  /** The `v1` script's env (the second argument of its fetch). */
  env: Record<string, unknown>;
  /** The `v2` script's IntegrationEnvironment (sent in the `environment` form field). */
  environment?: IntegrationEnvironment;
}

/**
 * The integration, whether the target in the path exists (its installation, and its installation on the
 * space or site named), the organization of that installation, and the script with its env (undefined
 * when the integration has no script). Undefined when the integration does not exist.
 */
export async function loadScriptTarget(db: Db, name: string, target: ScriptTarget) {
  const [raw] = await targetRow(db, name, target);
  if (!raw) return undefined;
  const row = targetOf(raw);
  const installed = !target.installationId || row.installation !== null;
  const exists = installed && (!target.spaceId || row.spaceInstallation !== null) && (!target.siteId || row.siteInstallation !== null);
  // The integration's own endpoint (no installation) belongs to its owner: organizationId null.
  const organizationId = target.installationId ? (row.installation?.organizationId ?? null) : null;
  if (row.script === null) return { integration: row.integration, installation: row.installation, exists, organizationId, loaded: undefined };
  const secrets = row.secrets ?? {};
  const token = row.installation !== null && target.installationId ? await installationToken(db, target.installationId) : undefined;
  const protocol: ScriptProtocol = row.runtime === 'v2' ? 'v2' : 'v1';
  const signsVisitors = row.siteInstallation !== null && row.siteAuth?.backend === 'integration' && row.integration.scopes.includes(VISITOR_AUTH_SCOPE);
  const siteVisitorKey = signsVisitors ? await visitorKey({ db }, { id: row.siteInstallation!.siteId, visitorAuthKey: row.siteAuth!.key }) : undefined;
  const loaded: LoadedScript = { integration: row.integration, script: row.script, protocol, secrets, env: {} };
  if (protocol === 'v2') {
    loaded.environment = integrationEnvironment(scriptUrls(), {
      integration: row.integration,
      owner: row.owner,
      secrets,
      installation: row.installation,
      spaces: row.spaces,
      spaceInstallation: row.spaceInstallation,
      siteInstallation: row.siteInstallation,
      token,
      siteVisitorKey,
    });
  } else {
    loaded.env = v1Env(name, row.integration.version, secrets, target, row, token);
    if (siteVisitorKey) loaded.env.signingSecrets = { siteInstallation: siteVisitorKey };
  }
  return { integration: row.integration, installation: row.installation, exists, organizationId, loaded };
}

/** The env of a `v1` script (see the top of this file). */
function v1Env(
  name: string,
  version: number,
  secrets: Record<string, string>,
  target: ScriptTarget,
  row: { installation: { configuration: Record<string, unknown> } | null; spaceInstallation: { configuration: Record<string, unknown> } | null; siteInstallation: { configuration: Record<string, unknown> } | null },
  token: string | undefined,
): Record<string, unknown> {
  const env: Record<string, unknown> = { secrets, integration: { name, version }, configuration: {}, apiEndpoint: scriptApiEndpoint(), apiTokens: {} };
  if (!target.installationId) return env;
  env.installationId = target.installationId;
  env.configuration = row.installation?.configuration ?? {};
  if (token) env.apiTokens = { installation: token };
  if (target.spaceId) {
    env.spaceId = target.spaceId;
    env.spaceConfiguration = row.spaceInstallation?.configuration ?? {};
  }
  if (target.siteId) {
    env.siteId = target.siteId;
    env.siteConfiguration = row.siteInstallation?.configuration ?? {};
  }
  return env;
}

/** The env a script gets for a request about `target`. */
export async function scriptEnv(db: Db, name: string, target: ScriptTarget) {
  return (await loadScriptTarget(db, name, target))?.loaded;
}
