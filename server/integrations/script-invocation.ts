// Runs an integration's published script for one request (an event delivery or a request to a public
// endpoint): reads the script, its secrets and the configurations of the installation concerned, builds
// the script's `env`, and hands the request to the sandboxed runtime (server/runtime/).
//
// `env` (the second argument of the script's fetch):
//   secrets          the integration's secrets, by name (also what the publisher gave in `secrets`)
//   installationId   the installation concerned, when any
//   configuration    that installation's configuration ({} when none)
//   spaceId / siteId and spaceConfiguration / siteConfiguration, when the request concerns one
//   integration      { name, version }
//   apiEndpoint      where to call this API back (`<PUBLIC_URL>/v1`)
//   apiTokens        { installation }: a token of the installation concerned (createIntegrationInstallationToken),
//                    when there is one; a script calls the API with it within the integration's scopes
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { integrationInstallations, integrationScripts, integrationSiteInstallations, integrations, integrationSpaceInstallations } from '../db/schema/index.js';
import { mintInstallationToken } from '../auth/installation-tokens.js';
import { scriptApiEndpoint, sharedScriptRuntime, type ScriptRequest, type ScriptResponse } from '../runtime/script-runtime.js';

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

// What a request about `target` reads, in one statement (prepared once per database): the integration,
// its script, and the installation and its space or site installation named in the path (null when they
// do not exist). The public endpoint's requests once made three statements here besides the path check,
// and the database's thread was the bottleneck of the endpoint (bench/results/script-runtime.md). Nothing
// is kept between requests: a change (a new script, a configuration, an uninstall) applies to the next one,
// in every process.
function targetStatement(db: Db) {
  const inst = integrationInstallations;
  const space = integrationSpaceInstallations;
  const site = integrationSiteInstallations;
  return db
    .select({
      // What the endpoint and the env use of the integration: the row's lists and blocks stay unread.
      integration: {
        organizationId: integrations.organizationId,
        version: integrations.version,
        contentSecurityPolicy: integrations.contentSecurityPolicy,
        devTunnelUrl: integrations.devTunnelUrl,
        devAll: integrations.devAll,
      },
      script: integrationScripts.script,
      secrets: integrationScripts.secrets,
      installationOrganizationId: inst.organizationId,
      configuration: inst.configuration,
      spaceConfiguration: space.configuration,
      siteConfiguration: site.configuration,
    })
    .from(integrations)
    .leftJoin(integrationScripts, eq(integrationScripts.integrationName, integrations.name))
    .leftJoin(inst, and(eq(inst.id, sql.placeholder('installationId')), eq(inst.integrationName, integrations.name)))
    .leftJoin(space, and(eq(space.installationId, inst.id), eq(space.spaceId, sql.placeholder('spaceId'))))
    .leftJoin(site, and(eq(site.installationId, inst.id), eq(site.siteId, sql.placeholder('siteId'))))
    .where(eq(integrations.name, sql.placeholder('name')))
    .prepare('script_target');
}
const statements = new WeakMap<Db, ReturnType<typeof targetStatement>>();

/**
 * The integration, whether the target in the path exists (its installation, and its installation on the
 * space or site named), the organization of that installation, and the script with its env (undefined
 * when the integration has no script). Undefined when the integration does not exist.
 */
export async function loadScriptTarget(db: Db, name: string, target: ScriptTarget) {
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = targetStatement(db)));
  const [row] = await statement.execute({ name, installationId: target.installationId ?? null, spaceId: target.spaceId ?? null, siteId: target.siteId ?? null });
  if (!row) return undefined;
  const installed = !target.installationId || row.installationOrganizationId !== null;
  const exists = installed && (!target.spaceId || row.spaceConfiguration !== null) && (!target.siteId || row.siteConfiguration !== null);
  // The integration's own endpoint (no installation) belongs to its owner: organizationId null.
  const organizationId = target.installationId ? row.installationOrganizationId : null;
  if (row.script === null) return { integration: row.integration, exists, organizationId, loaded: undefined };
  const env: Record<string, unknown> = {
    secrets: row.secrets,
    integration: { name, version: row.integration.version },
    configuration: {},
    apiEndpoint: scriptApiEndpoint(),
    apiTokens: {},
  };
  if (target.installationId) {
    env.installationId = target.installationId;
    env.configuration = row.configuration ?? {};
    const token = row.installationOrganizationId !== null && (await installationToken(db, target.installationId));
    if (token) env.apiTokens = { installation: token };
    if (target.spaceId) {
      env.spaceId = target.spaceId;
      env.spaceConfiguration = row.spaceConfiguration ?? {};
    }
    if (target.siteId) {
      env.siteId = target.siteId;
      env.siteConfiguration = row.siteConfiguration ?? {};
    }
  }
  return { integration: row.integration, exists, organizationId, loaded: { integration: row.integration, script: row.script, env } };
}

/** The env a script gets for a request about `target`. */
export async function scriptEnv(db: Db, name: string, target: ScriptTarget) {
  return (await loadScriptTarget(db, name, target))?.loaded;
}
