// Integration tokens: the token of an integration itself, handed to its script as `apiTokens.integration`
// (what @gitbook/runtime's `context.integration.api` calls the API with), valid for TOKEN_LIFETIME_MS and
// removed with the integration. One handed out with an event or request about an installation names it, so the
// tasks the integration queues with it are about that installation (tasks.store.ts). A request with one is the integration's: its own user (made on its first
// token, named after it), acting on its own integration and installations only (integration-caller.ts).
import { and, eq, gt, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../context.js';
import type { Db } from '../db/client.js';
import { integrations, integrationTokens } from '../db/schema/index.js';
import { andWhen, rawSql, runSql, sqlText, textValue, type SqlFragment, type TextValue } from '../db/sql-text.js';
import { Unauthorized } from '../errors.js';
import { newId } from '../ids.js';
import { TOKEN_LIFETIME_MS } from './installation-tokens.js';
import { serviceUserCtes } from './service-users.js';
import { hashToken, newIntegrationToken } from './tokens.js';

/** How long a process remembers a valid integration token (a request then spends no query on it). */
const TOKEN_CACHE_TTL_MS = 10_000;
const remembered = new LRUCache<string, { caller: Caller; expiresAt: number }>({ max: 10_000, ttl: TOKEN_CACHE_TTL_MS });

/** The lookup of integration tokens, for the authenticator. */
export function integrationTokenLookup(db: Db) {
  return async (token: string): Promise<Caller> => {
    const known = remembered.get(token);
    if (known && known.expiresAt > Date.now()) return known.caller;
    const [row] = await db
      .select({
        userId: integrationTokens.userId,
        expiresAt: integrationTokens.expiresAt,
        name: integrationTokens.integrationName,
        installationId: integrationTokens.installationId,
        organizationId: integrations.organizationId,
      })
      .from(integrationTokens)
      .innerJoin(integrations, eq(integrations.name, integrationTokens.integrationName))
      .where(and(eq(integrationTokens.tokenHash, hashToken(token)), gt(integrationTokens.expiresAt, sql`now()`)));
    if (!row) throw new Unauthorized('Invalid access token');
    const integration = { name: row.name, organizationId: row.organizationId, ...(row.installationId !== null && { installationId: row.installationId }) };
    const caller: Caller = { userId: row.userId, integration };
    remembered.set(token, { caller, expiresAt: new Date(row.expiresAt).getTime() });
    return caller;
  };
}

/**
 * A new token of the integration (titled `title`), valid for TOKEN_LIFETIME_MS from `now`, and the common table
 * expressions that store it: its user found or made (service-users.ts), the integration's expired tokens gone
 * as the new one comes. The CTE `name` answers the token's row. `installationId`: the installation of the
 * event or request it is handed out with, whose tasks it queues. The title and the installation may be SQL
 * (of the statement they are written in); with `when` (SQL), nothing is written where it does not hold.
 */
export function integrationTokenWrite(
  name: string,
  title: TextValue,
  now: Date,
  installationId: TextValue | undefined,
  cte: string,
  when?: SqlFragment,
): { minted: { token: string; expiresAt: Date }; ctes: SqlFragment } {
  const token = newIntegrationToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  const user = `${cte}_user`;
  const installation = installationId === undefined ? sqlText`${null}::text` : textValue(installationId);
  const ctes = sqlText`${serviceUserCtes(user, `integration-${name.toLowerCase()}@integrations.invalid`, title, now, when)},
    ${rawSql(`${cte}_expired`)} AS (DELETE FROM integration_tokens WHERE integration_name = ${name}::text AND expires_at < ${now}::timestamptz${andWhen(when)}),
    ${rawSql(cte)} AS (INSERT INTO integration_tokens (id, integration_name, user_id, installation_id, token_hash, expires_at, created_at)
    SELECT ${newId('itk', now.getTime())}::text, ${name}::text, ${rawSql(user)}.id, ${installation}, ${hashToken(token)}::text, ${expiresAt}::timestamptz, ${now}::timestamptz
    FROM ${rawSql(user)} WHERE true${andWhen(when)} RETURNING id)`;
  return { minted: { token, expiresAt }, ctes };
}

/**
 * A new token of the integration, valid for TOKEN_LIFETIME_MS from `now`; undefined when it does not exist.
 * `installationId`: the installation of the event or request it is handed out with, whose tasks it queues.
 */
export async function mintIntegrationToken(db: Db, name: string, now: Date, installationId?: string, knownTitle?: string): Promise<{ token: string; expiresAt: Date } | undefined> {
  // A caller that has just read the integration (a script's invocation) gives its title: one statement less.
  const [integration] = knownTitle !== undefined ? [{ title: knownTitle }] : await db.select({ title: integrations.title }).from(integrations).where(eq(integrations.name, name));
  if (!integration) return undefined;
  const { minted, ctes } = integrationTokenWrite(name, integration.title, now, installationId, 'token');
  await runSql(db, sqlText`WITH ${ctes} SELECT 1`);
  return minted;
}
