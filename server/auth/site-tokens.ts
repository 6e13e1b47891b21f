// The API tokens URL resolution hands out (getPublishedContentByUrl's `apiToken`): short-lived, and able to
// read exactly the published content of one site a visitor may see (site-token-caller.ts says what). A token
// is a JWT as GitBook issues its site API tokens (`SiteAPIToken` of its API: `kind: "site"`, `site`,
// `organization`, `spaces`, `siteSpace`, `space`, `siteSection`, the visitor's `claims`, `exp`, `iat`), so a
// renderer written for GitBook can decode it (GitBook's own reads `exp` and `claims` with `jwtDecode`).
// It is signed HS256 (jose) with a key of this server, stored once in `signing_keys` and shared by every
// process. Verifying one costs no query, and resolving a URL writes nothing: a renderer resolves every URL it
// serves.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Caller, SiteTokenCaller } from '../context.js';
import type { Db } from '../db/client.js';
import { uncounted } from '../db/query-count.js';
import { signingKeys } from '../db/schema/index.js';
import { Unauthorized } from '../errors.js';

/**
 * How long a site token is valid: 15 minutes. Long enough for a renderer to read a page and what it refers
 * to, short enough that a visitor whose token or claims change (or a site unpublished: see site-token-caller.ts,
 * which checks publication on every request anyway) is not served on an old decision for long.
 */
export const SITE_TOKEN_LIFETIME_MS = 15 * 60_000;

const KEY_NAME = 'site-api-tokens';
/** The issuer claim of our site tokens: it tells them from any other JWT sent as a bearer token. */
const ISSUER = 'docs-api/site';

/** What a token says beyond its caller: where the URL it was minted for resolved (GitBook's `SiteAPIToken`). */
export interface SiteTokenScope extends Omit<SiteTokenCaller, 'expiresAt'> {
  siteSpaceId: string;
  spaceId: string;
  siteSectionId?: string;
}

/** The claims of a site token, as GitBook's `SiteAPIToken` names them (with the JWT's `exp`, `iat`, `iss`). */
export interface SiteTokenClaims {
  kind: 'site';
  site: string;
  organization: string;
  spaces: string[];
  siteSpace: string;
  space: string;
  siteSection?: string;
  claims: Record<string, unknown>;
  visitorType: 'human';
  iss: string;
  iat: number;
  exp: number;
}

/**
 * Whether a bearer token is a site token: a JWT (three base64url parts, the first a JSON header). The other
 * tokens of this server (API tokens, installation tokens) have no dot; a JWT that is not ours fails
 * verification (401).
 */
export function isSiteToken(token: string): boolean {
  return token.startsWith('eyJ') && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

// One key per database; a process reads (or makes) it once.
const keys = new WeakMap<Db, Promise<Uint8Array>>();

function signingKey(db: Db): Promise<Uint8Array> {
  let key = keys.get(db);
  if (!key) {
    // Once per process, so not the cost of whichever request comes first (query-count.ts).
    key = uncounted(async () => {
      await db.insert(signingKeys).values({ name: KEY_NAME, secret: randomBytes(32).toString('base64url'), createdAt: new Date() }).onConflictDoNothing();
      const [row] = await db.select({ secret: signingKeys.secret }).from(signingKeys).where(eq(signingKeys.name, KEY_NAME));
      return new Uint8Array(Buffer.from(row!.secret, 'base64url'));
    });
    key.catch(() => keys.delete(db)); // a failed read is tried again by the next request
    keys.set(db, key);
  }
  return key;
}

// The tokens this process minted in the last second, per database, by scope: a renderer resolves every URL
// it serves, and the resolutions of one second for the same scope (site, site space, spaces, claims) share one
// token, signed once. Such a token is valid up to a second less than SITE_TOKEN_LIFETIME_MS from the later ones.
const REUSE_MS = 1000;
const minted = new WeakMap<Db, LRUCache<string, { token: string; expiresAt: Date; at: number }>>();

/** A token for `scope`, valid SITE_TOKEN_LIFETIME_MS from `now` (from at most a second before it: see `minted`). */
export async function mintSiteToken(db: Db, scope: SiteTokenScope, now: Date): Promise<{ token: string; expiresAt: Date }> {
  let recent = minted.get(db);
  if (!recent) minted.set(db, (recent = new LRUCache({ max: 1000 })));
  const key = JSON.stringify([scope.siteId, scope.organizationId, scope.siteSectionId, scope.siteSpaceId, scope.spaceId, scope.spaceIds, scope.claims ?? {}]);
  const at = now.getTime();
  const known = recent.get(key);
  if (known && at >= known.at && at - known.at < REUSE_MS) return { token: known.token, expiresAt: known.expiresAt };
  // JWT times are whole seconds: the expiry is the second the lifetime ends in.
  const iat = Math.floor(at / 1000);
  const exp = Math.floor((at + SITE_TOKEN_LIFETIME_MS) / 1000);
  const claims: Omit<SiteTokenClaims, 'iss' | 'iat' | 'exp'> = {
    kind: 'site',
    site: scope.siteId,
    organization: scope.organizationId,
    spaces: scope.spaceIds,
    siteSpace: scope.siteSpaceId,
    space: scope.spaceId,
    ...(scope.siteSectionId && { siteSection: scope.siteSectionId }),
    claims: scope.claims ?? {},
    visitorType: 'human',
  };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(await signingKey(db));
  const expiresAt = new Date(exp * 1000);
  recent.set(key, { token, expiresAt, at });
  return { token, expiresAt };
}

// The callers of the tokens this process verified, per database (its key signed them), by token: a renderer
// sends the token it was given with each read of a page, and a known one then costs neither the HMAC nor
// the parse of its payload. A token's content never changes, and its expiry is checked on every request;
// a token that failed verification is never kept. The caller is shared by the requests of its token and
// read only.
const verified = new WeakMap<Db, LRUCache<string, Caller>>();

const expired = () => new Unauthorized('The site API token has expired: resolve the URL again for a new one');

/**
 * The caller a site token stands for; 401 when it was not signed by this server. Its expiry is checked by the
 * access layer against the server's clock (so tests can move it); one past it by the wall clock is refused here too.
 */
export async function siteTokenCaller(db: Db, token: string): Promise<Caller> {
  let known = verified.get(db);
  if (!known) verified.set(db, (known = new LRUCache<string, Caller>({ max: 10_000 })));
  let caller = known.get(token);
  if (!caller) {
    let claims: SiteTokenClaims;
    try {
      ({ payload: claims } = (await jwtVerify(token, await signingKey(db), { algorithms: ['HS256'], issuer: ISSUER })) as unknown as { payload: SiteTokenClaims });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_JWT_EXPIRED') throw expired();
      throw new Unauthorized('Invalid access token');
    }
    if (claims.kind !== 'site' || typeof claims.site !== 'string' || typeof claims.organization !== 'string' || !Array.isArray(claims.spaces)) {
      throw new Unauthorized('Invalid access token');
    }
    // No user: a site token acts for the site's readers, and can write nothing that would need an author.
    caller = {
      userId: `site:${claims.site}`,
      site: { siteId: claims.site, organizationId: claims.organization, spaceIds: claims.spaces, claims: claims.claims ?? {}, expiresAt: claims.exp * 1000 },
    };
    known.set(token, caller);
  }
  if (caller.site!.expiresAt <= Date.now()) throw expired();
  return caller;
}
