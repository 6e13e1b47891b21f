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
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { integrationInstallations, integrationScripts, integrationSiteInstallations, integrations, integrationSpaceInstallations, organizations, sites } from '../db/schema/index.js';
import { visitorKey } from '../sites/publishing-auth.js';
import { mintInstallationToken } from '../auth/installation-tokens.js';
import { scriptApiEndpoint, scriptUrls, sharedScriptRuntime, type ScriptRequest, type ScriptResponse } from '../runtime/script-runtime.js';
import type { IntegrationRow } from './integration-view.js';
import { integrationEnvironment, type IntegrationEnvironment } from './script-environment.js';
import { spacesCount } from './target-installations.store.js';
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
function targetStatement(db: Db) {
  const inst = integrationInstallations;
  const space = integrationSpaceInstallations;
  const site = integrationSiteInstallations;
  return db
    .select({
      integration: integrations,
      owner: organizations,
      runtime: integrationScripts.runtime,
      script: integrationScripts.script,
      secrets: integrationScripts.secrets,
      installation: inst,
      // Only a `v2` script's environment shows the installation's space count: not counted for the others.
      spaces: sql<number>`(CASE WHEN ${integrationScripts.runtime} = 'v2' AND ${inst.id} IS NOT NULL THEN ${spacesCount()} ELSE 0 END)`.mapWith(Number),
      spaceInstallation: space,
      siteInstallation: site,
      siteAuth: { backend: sites.visitorAuthBackend, key: sites.visitorAuthKey },
    })
    .from(integrations)
    .innerJoin(organizations, eq(organizations.id, integrations.organizationId))
    .leftJoin(integrationScripts, eq(integrationScripts.integrationName, integrations.name))
    .leftJoin(inst, and(eq(inst.id, sql.placeholder('installationId')), eq(inst.integrationName, integrations.name)))
    .leftJoin(space, and(eq(space.installationId, inst.id), eq(space.spaceId, sql.placeholder('spaceId'))))
    .leftJoin(site, and(eq(site.installationId, inst.id), eq(site.siteId, sql.placeholder('siteId'))))
    .leftJoin(sites, eq(sites.id, site.siteId))
    .where(eq(integrations.name, sql.placeholder('name')))
    .prepare('script_target');
}
const statements = new WeakMap<Db, ReturnType<typeof targetStatement>>();

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
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = targetStatement(db)));
  const [row] = await statement.execute({ name, installationId: target.installationId ?? null, spaceId: target.spaceId ?? null, siteId: target.siteId ?? null });
  if (!row) return undefined;
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
