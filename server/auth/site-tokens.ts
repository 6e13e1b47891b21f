// The API tokens URL resolution hands out (getPublishedContentByUrl's `apiToken`): short-lived, and able to
// read exactly the published content of one site a visitor may see (site-token-caller.ts says what). A token
// is `dwst_<payload>.<signature>`: the payload names the site, its organization, the spaces of the site spaces
// the visitor may see, the visitor's claims (page conditions are applied with them) and the expiry; the signature is an HMAC-SHA256 with a key of this server (stored
// once in `signing_keys`, shared by every process). Verifying one costs no query, and resolving a URL
// writes nothing: a renderer resolves every URL it serves.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
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

const PREFIX = 'dwst_';
const KEY_NAME = 'site-api-tokens';

export function isSiteToken(token: string): boolean {
  return token.startsWith(PREFIX);
}

// One key per database; a process reads (or makes) it once.
const keys = new WeakMap<Db, Promise<Buffer>>();

function signingKey(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    // Once per process, so not the cost of whichever request comes first (query-count.ts).
    key = uncounted(async () => {
      await db.insert(signingKeys).values({ name: KEY_NAME, secret: randomBytes(32).toString('base64url'), createdAt: new Date() }).onConflictDoNothing();
      const [row] = await db.select({ secret: signingKeys.secret }).from(signingKeys).where(eq(signingKeys.name, KEY_NAME));
      return Buffer.from(row!.secret, 'base64url');
    });
    key.catch(() => keys.delete(db)); // a failed read is tried again by the next request
    keys.set(db, key);
  }
  return key;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

// The tokens this process minted in the last second, per database, by scope: a renderer resolves every URL
// it serves, and the resolutions of one second for the same scope (site, spaces, claims) share one token,
// signed once. Such a token is valid up to a second less than SITE_TOKEN_LIFETIME_MS from the later ones.
const REUSE_MS = 1000;
const minted = new WeakMap<Db, LRUCache<string, { token: string; expiresAt: Date; at: number }>>();

/** A token for `scope`, valid SITE_TOKEN_LIFETIME_MS from `now` (from at most a second before it: see `minted`). */
export async function mintSiteToken(db: Db, scope: Omit<SiteTokenCaller, 'expiresAt'>, now: Date): Promise<{ token: string; expiresAt: Date }> {
  let recent = minted.get(db);
  if (!recent) minted.set(db, (recent = new LRUCache({ max: 1000 })));
  const key = JSON.stringify([scope.siteId, scope.organizationId, scope.spaceIds, scope.claims ?? {}]);
  const at = now.getTime();
  const known = recent.get(key);
  if (known && at >= known.at && at - known.at < REUSE_MS) return { token: known.token, expiresAt: known.expiresAt };
  const expiresAt = new Date(at + SITE_TOKEN_LIFETIME_MS);
  const payload = Buffer.from(JSON.stringify({ s: scope.siteId, o: scope.organizationId, p: scope.spaceIds, c: scope.claims ?? {}, e: expiresAt.getTime() })).toString('base64url');
  const token = `${PREFIX}${payload}.${sign(await signingKey(db), payload).toString('base64url')}`;
  recent.set(key, { token, expiresAt, at });
  return { token, expiresAt };
}

// The callers of the tokens this process verified, per database (its key signed them), by token: a renderer
// sends the token it was given with each read of a page, and a known one then costs neither the HMAC nor
// the parse of its payload. A token's content never changes, and its expiry is checked on every request;
// a token that failed verification is never kept. The caller is shared by the requests of its token and
// read only.
const verified = new WeakMap<Db, LRUCache<string, Caller>>();

/**
 * The caller a site token stands for; 401 when it was not signed by this server. Its expiry is checked by the
 * access layer against the server's clock (so tests can move it); one past it by the wall clock is refused here too.
 */
export async function siteTokenCaller(db: Db, token: string): Promise<Caller> {
  let known = verified.get(db);
  if (!known) verified.set(db, (known = new LRUCache<string, Caller>({ max: 10_000 })));
  let caller = known.get(token);
  if (!caller) {
    const [payload, signature] = token.slice(PREFIX.length).split('.');
    if (!payload || !signature) throw new Unauthorized('Invalid access token');
    const expected = sign(await signingKey(db), payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Unauthorized('Invalid access token');
    const { s, o, p, c, e } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s: string; o: string; p: string[]; c?: Record<string, unknown>; e: number };
    // No user: a site token acts for the site's readers, and can write nothing that would need an author.
    caller = { userId: `site:${s}`, site: { siteId: s, organizationId: o, spaceIds: p, claims: c ?? {}, expiresAt: e } };
    known.set(token, caller);
  }
  if (caller.site!.expiresAt <= Date.now()) throw new Unauthorized('The site API token has expired: resolve the URL again for a new one');
  return caller;
}
