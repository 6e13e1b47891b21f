// Installation tokens: minted by createIntegrationInstallationToken (and for the `env` of a script run
// for an installation), valid for TOKEN_LIFETIME_MS, removed with their installation. A request with one
// is the installation's: its own user (made on its first token, named after the integration) for what it
// writes, and its integration's scopes and coverage for what it may do.
import { and, eq, gt, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../context.js';
import type { Db } from '../db/client.js';
import { integrationInstallations, integrationInstallationTokens, integrations, integrationSiteInstallations, integrationSpaceInstallations } from '../db/schema/index.js';
import { andWhen, rawSql, runSql, sqlText, textValue, type SqlFragment, type TextValue } from '../db/sql-text.js';
import { Unauthorized } from '../errors.js';
import { newId } from '../ids.js';
import { serviceUserCtes } from './service-users.js';
import { hashToken, newInstallationToken } from './tokens.js';

/** How long an installation token is valid (GitBook's installation tokens are temporary too). */
export const TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/**
 * How long a process remembers a valid installation token, as it does access tokens: a request then spends
 * no query on it. A change of the installation made in this process (uninstall, spaces or sites it is
 * installed on, selections) is seen at once; one made in another process within this time.
 */
const TOKEN_CACHE_TTL_MS = 10_000;
const remembered = new LRUCache<string, { caller: Caller; expiresAt: number }>({ max: 10_000, ttl: TOKEN_CACHE_TTL_MS });

/** Forgets the remembered tokens of an integration's installations (one of them, or the integration, changed or went). */
export function forgetInstallationTokens(integrationName: string): void {
  for (const [token, entry] of remembered.entries()) if (entry.caller.installation?.integrationName === integrationName) remembered.delete(token);
}

/** The lookup of installation tokens, for the authenticator: the installation, its integration's scopes, what it covers and its user. */
export function installationTokenLookup(db: Db) {
  return async (token: string): Promise<Caller> => {
    const known = remembered.get(token);
    if (known && known.expiresAt > Date.now()) return known.caller;
    const [row] = await db
      .select({
        userId: integrationInstallationTokens.userId,
        expiresAt: integrationInstallationTokens.expiresAt,
        id: integrationInstallations.id,
        integrationName: integrationInstallations.integrationName,
        organizationId: integrationInstallations.organizationId,
        spaceSelection: integrationInstallations.spaceSelection,
        siteSelection: integrationInstallations.siteSelection,
        scopes: integrations.scopes,
        spaceIds: sql<string[]>`ARRAY(SELECT ${integrationSpaceInstallations.spaceId} FROM ${integrationSpaceInstallations} WHERE ${integrationSpaceInstallations.installationId} = ${integrationInstallations.id})`,
        siteIds: sql<string[]>`ARRAY(SELECT ${integrationSiteInstallations.siteId} FROM ${integrationSiteInstallations} WHERE ${integrationSiteInstallations.installationId} = ${integrationInstallations.id})`,
      })
      .from(integrationInstallationTokens)
      .innerJoin(integrationInstallations, eq(integrationInstallations.id, integrationInstallationTokens.installationId))
      .innerJoin(integrations, eq(integrations.name, integrationInstallations.integrationName))
      .where(and(eq(integrationInstallationTokens.tokenHash, hashToken(token)), gt(integrationInstallationTokens.expiresAt, sql`now()`)));
    if (!row) throw new Unauthorized('Invalid access token');
    const { userId, expiresAt, ...installation } = row;
    const caller: Caller = { userId, installation };
    remembered.set(token, { caller, expiresAt: new Date(expiresAt).getTime() });
    return caller;
  };
}

/**
 * A new token of the installation (of an integration titled `title`), valid for TOKEN_LIFETIME_MS from `now`,
 * and the common table expressions that store it: its user found or made (service-users.ts), the
 * installation's expired tokens gone as the new one comes. The CTE `name` answers the token's row. The
 * installation and the title may be SQL (of the statement they are written in); with `when` (SQL), nothing is
 * written where it does not hold.
 */
export function installationTokenWrite(installationId: TextValue, title: TextValue, now: Date, name: string, when?: SqlFragment): { minted: { token: string; expiresAt: Date }; ctes: SqlFragment } {
  const token = newInstallationToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  const user = `${name}_user`;
  const id = textValue(installationId);
  const email = typeof installationId === 'string' ? `installation-${installationId.toLowerCase()}@integrations.invalid` : sqlText`'installation-' || lower(${id}) || '@integrations.invalid'`;
  const ctes = sqlText`${serviceUserCtes(user, email, title, now, when)},
    ${rawSql(`${name}_expired`)} AS (DELETE FROM integration_installation_tokens WHERE installation_id = ${id} AND expires_at < ${now}::timestamptz${andWhen(when)}),
    ${rawSql(name)} AS (INSERT INTO integration_installation_tokens (id, installation_id, user_id, token_hash, expires_at, created_at)
    SELECT ${newId('itk', now.getTime())}::text, ${id}, ${rawSql(user)}.id, ${hashToken(token)}::text, ${expiresAt}::timestamptz, ${now}::timestamptz
    FROM ${rawSql(user)} WHERE true${andWhen(when)} RETURNING id)`;
  return { minted: { token, expiresAt }, ctes };
}

/** A new token of the installation, valid for TOKEN_LIFETIME_MS from `now`; undefined when it does not exist. */
export async function mintInstallationToken(db: Db, installationId: string, now: Date, knownTitle?: string): Promise<{ token: string; expiresAt: Date } | undefined> {
  // A caller that has just read the installation and its integration (a script's invocation) gives the
  // integration's title: the installation exists, and one statement is saved.
  const [installation] = knownTitle !== undefined ? [{ title: knownTitle }] : await db
    .select({ title: integrations.title })
    .from(integrationInstallations)
    .innerJoin(integrations, eq(integrations.name, integrationInstallations.integrationName))
    .where(eq(integrationInstallations.id, installationId));
  if (!installation) return undefined;
  const { minted, ctes } = installationTokenWrite(installationId, installation.title, now, 'token');
  await runSql(db, sqlText`WITH ${ctes} SELECT 1`);
  return minted;
}
