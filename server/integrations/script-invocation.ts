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
import { and, eq } from 'drizzle-orm';
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

/** The env a script gets for a request about `target`. */
export async function scriptEnv(db: Db, name: string, target: ScriptTarget) {
  const [found] = await db
    .select({ integration: integrations, script: integrationScripts })
    .from(integrations)
    .innerJoin(integrationScripts, eq(integrationScripts.integrationName, integrations.name))
    .where(eq(integrations.name, name));
  if (!found) return undefined;
  const env: Record<string, unknown> = {
    secrets: found.script.secrets,
    integration: { name, version: found.integration.version },
    configuration: {},
    apiEndpoint: scriptApiEndpoint(),
    apiTokens: {},
  };
  if (target.installationId) {
    const [installation] = await db
      .select({ configuration: integrationInstallations.configuration })
      .from(integrationInstallations)
      .where(and(eq(integrationInstallations.id, target.installationId), eq(integrationInstallations.integrationName, name)));
    env.installationId = target.installationId;
    env.configuration = installation?.configuration ?? {};
    const token = installation && (await installationToken(db, target.installationId));
    if (token) env.apiTokens = { installation: token };
    if (target.spaceId) {
      const t = integrationSpaceInstallations;
      const [row] = await db.select({ configuration: t.configuration }).from(t).where(and(eq(t.installationId, target.installationId), eq(t.spaceId, target.spaceId)));
      env.spaceId = target.spaceId;
      env.spaceConfiguration = row?.configuration ?? {};
    }
    if (target.siteId) {
      const t = integrationSiteInstallations;
      const [row] = await db.select({ configuration: t.configuration }).from(t).where(and(eq(t.installationId, target.installationId), eq(t.siteId, target.siteId)));
      env.siteId = target.siteId;
      env.siteConfiguration = row?.configuration ?? {};
    }
  }
  return { integration: found.integration, script: found.script.script, env };
}
