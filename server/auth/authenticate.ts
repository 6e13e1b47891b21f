// Bearer-token authentication: the token's sha256 is looked up; the request continues as its user.
import { eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../context.js';
import type { Db } from '../db/client.js';
import { apiTokens } from '../db/schema/index.js';
import { Unauthorized } from '../errors.js';
import { installationTokenLookup } from './installation-tokens.js';
import { integrationTokenLookup } from './integration-tokens.js';
import { siteTokenCaller, isSiteToken } from './site-tokens.js';
import { hashToken, isInstallationToken, isIntegrationToken } from './tokens.js';

/**
 * How long a process remembers a valid token: the hot path then spends no query on it. A token removed
 * from the database keeps working for at most this long in a process that saw it. Unknown tokens are
 * never remembered.
 */
export const TOKEN_CACHE_TTL_MS = 10_000;

export type Authenticator = (authorization: string | undefined) => Promise<Caller>;

/** An authenticator over `db` with its own token cache (one per app). */
export function createAuthenticator(db: Db): Authenticator {
  const cache = new LRUCache<string, string>({ max: 10_000, ttl: TOKEN_CACHE_TTL_MS });
  const lookup = db
    .select({ userId: apiTokens.userId })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .prepare('token_user');
  const installationLookup = installationTokenLookup(db);
  const integrationLookup = integrationTokenLookup(db);
  return async (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new Unauthorized('Missing access token: send Authorization: Bearer <token>');
    // Keyed by the token itself: a hit then costs no hash either. The cache lives in this process only.
    const token = match[1];
    if (isInstallationToken(token)) return installationLookup(token);
    if (isIntegrationToken(token)) return integrationLookup(token);
    if (isSiteToken(token)) return siteTokenCaller(db, token);
    let userId = cache.get(token);
    if (userId === undefined) {
      const [row] = await lookup.execute({ hash: hashToken(token) });
      if (!row) throw new Unauthorized('Invalid access token');
      userId = row.userId;
      cache.set(token, userId);
    }
    return { userId };
  };
}
