// Who reads a published site: the visitor token of a `visitor-auth` site (a JWT signed with the site's key,
// HS256, verified with jose), and the visitor's claims for adaptive content: the token's claims and the
// unsigned ones the visitor sets, kept only where the site's adaptive schema allows them.
//
// A token or claims arrive once in the URL (`?jwt_token=…`, `?visitor.<claim>=true`); the site keeps them in
// cookies scoped to its path and redirects to the same URL without them, so they do not stay in the address
// bar, the history or logs of later requests.
import { Ajv, type ValidateFunction } from 'ajv';
import cookie from 'cookie';
import type { IncomingMessage } from 'node:http';
import { isSecure } from '../http/node-http.js';
import { jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { SiteRow } from '../sites/site-view.js';
import type { Visitor } from '../conditions/evaluate.js';

export const TOKEN_PARAM = 'jwt_token';
export const CLAIM_PARAM_PREFIX = 'visitor.';
const MAX_COOKIE_BYTES = 4000;

const tokenCookie = (site: SiteRow) => `dw_visitor_${site.id}`;
const claimsCookie = (site: SiteRow) => `dw_claims_${site.id}`;

/** Claims a JWT carries about itself, never visitor attributes. */
const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/**
 * When the request carries a token or unsigned claims in its query: the cookies to set and the URL to
 * redirect to (the same one without them). Undefined otherwise.
 */
export function takeFromQuery(req: IncomingMessage, requestUrl: string, site: SiteRow, cookiePath: string): { cookies: string[]; location: string } | undefined {
  const url = new URL(requestUrl, 'http://placeholder');
  const token = url.searchParams.get(TOKEN_PARAM);
  const claimNames = [...url.searchParams.keys()].filter((k) => k.startsWith(CLAIM_PARAM_PREFIX));
  if (token === null && claimNames.length === 0) return undefined;
  const options = { path: cookiePath, httpOnly: true, sameSite: 'lax' as const, secure: isSecure(req) };
  const cookies: string[] = [];
  if (token !== null && token.length <= MAX_COOKIE_BYTES) cookies.push(cookie.serialize(tokenCookie(site), token, options));
  if (claimNames.length) {
    const unsigned = { ...readUnsigned(req, site) };
    for (const name of claimNames) {
      const value = url.searchParams.get(name);
      unsigned[name.slice(CLAIM_PARAM_PREFIX.length)] = value === 'true' ? true : value === 'false' ? false : value;
    }
    const text = JSON.stringify(unsigned);
    if (text.length <= MAX_COOKIE_BYTES) cookies.push(cookie.serialize(claimsCookie(site), text, options));
  }
  url.searchParams.delete(TOKEN_PARAM);
  for (const name of claimNames) url.searchParams.delete(name);
  return { cookies, location: url.pathname + url.search };
}

function cookies(req: IncomingMessage): Record<string, string | undefined> {
  const header = req.headers.cookie;
  return header ? cookie.parse(header) : {};
}

function readUnsigned(req: IncomingMessage, site: SiteRow): Record<string, unknown> {
  const text = cookies(req)[claimsCookie(site)];
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Tokens already verified, by site key and token. Every page a reader opens carries the same token, and
 * verifying its signature again (jose's HMAC through WebCrypto) was most of a visitor-auth page's time
 * (bench/results/published-site.md). A token's signature under a key does not change, so only its time
 * claims need checking again: an entry is dropped at the token's `exp` (and checked against it on each
 * use), after VERIFIED_TTL_MS at most. A token the key does not verify is never kept; a new key (regenerated)
 * misses every entry made with the old one.
 */
const VERIFIED_TTL_MS = 5 * 60_000;
const verified = new LRUCache<string, Record<string, unknown>>({ max: 10_000, ttl: VERIFIED_TTL_MS });

/** Whether jose would still accept the token's expiry now (`exp` is in seconds; expired once it is not after now). */
const unexpired = (payload: Record<string, unknown>) => typeof payload.exp !== 'number' || payload.exp > Math.floor(Date.now() / 1000);

/** The token the visitor's cookie holds for the site, if any. */
export function visitorToken(req: IncomingMessage, site: SiteRow): string | undefined {
  return cookies(req)[tokenCookie(site)];
}

/** The verified claims of the visitor's token; undefined without a token or when it is not valid (expired, wrongly signed, …). */
export async function verifiedClaims(req: IncomingMessage, site: SiteRow, key: string): Promise<Record<string, unknown> | undefined> {
  const token = cookies(req)[tokenCookie(site)];
  return token ? verifyVisitorToken(token, key) : undefined;
}

/** The verified claims of a visitor token (from a cookie, or given to URL resolution); undefined when it is not valid. */
export async function verifyVisitorToken(token: string, key: string): Promise<Record<string, unknown> | undefined> {
  const cacheKey = `${key}\u0000${token}`;
  const known = verified.get(cacheKey);
  // A copy each time: the adaptive schema's validation removes what it does not declare, in place.
  if (known) return unexpired(known) ? structuredClone(known) : undefined;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'] });
    const untilExpiry = typeof payload.exp === 'number' ? payload.exp * 1000 - Date.now() : VERIFIED_TTL_MS;
    if (untilExpiry > 0) verified.set(cacheKey, structuredClone(payload), { ttl: Math.min(untilExpiry, VERIFIED_TTL_MS) });
    return payload as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The cookie that forgets a token the site refused. */
export function forgetToken(site: SiteRow, cookiePath: string): string {
  return cookie.serialize(tokenCookie(site), '', { path: cookiePath, httpOnly: true, sameSite: 'lax', maxAge: 0 });
}

// Unknown properties are removed (the schemas have `additionalProperties: false`); a claim of the wrong type
// is dropped below.
const ajv = new Ajv({ removeAdditional: 'all', strict: false, allErrors: true });
const validators = new LRUCache<string, ValidateFunction>({ max: 500 });

function validatorFor(schema: Record<string, unknown>): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return undefined;
    }
    validators.set(key, validate);
  }
  return validate;
}

/**
 * The visitor as adaptive content sees it: the token's claims (registered JWT claims aside) and the unsigned
 * ones, validated against the site's adaptive schema: what it does not declare, or declares with another
 * type, is left out. Without adaptive content (or a schema) the visitor has no claims.
 */
export function visitorOf(req: IncomingMessage, site: SiteRow, signed: Record<string, unknown> | undefined): Visitor {
  return visitorFrom(site, signed, () => readUnsigned(req, site));
}

/** The visitor of `signed` claims and unsigned ones (read only when the site has adaptive content), as visitorOf says. */
export function visitorFrom(site: SiteRow, signed: Record<string, unknown> | undefined, unsigned: () => Record<string, unknown>): Visitor {
  if (!site.adaptiveEnabled || !site.adaptiveSchema) return { claims: {} };
  const validate = validatorFor(site.adaptiveSchema);
  if (!validate) return { claims: {} };
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(signed ?? {})) if (!REGISTERED.has(name) && name !== 'unsigned') claims[name] = value;
  claims.unsigned = { ...unsigned() };
  // Each round drops the claims Ajv names; a schema of flat booleans needs one or two.
  for (let round = 0; round < 5 && !(validate(claims) as boolean); round++) {
    for (const error of validate.errors ?? []) {
      const path = error.instancePath.split('/').slice(1);
      if (path.length === 0) continue;
      let holder: Record<string, unknown> = claims;
      for (const part of path.slice(0, -1)) holder = (holder[part] ?? {}) as Record<string, unknown>;
      delete holder[path[path.length - 1]];
      if (path.length === 1 && path[0] === 'unsigned') claims.unsigned = {};
    }
    if (!validate.errors?.some((e) => e.instancePath)) break;
  }
  const valid: boolean = validate(claims);
  return valid ? { claims: claims as Visitor['claims'] } : { claims: {} };
}
