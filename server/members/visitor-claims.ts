// `serviceVisitorClaims`: a JWT (HS256, signed with node:crypto HMAC) naming the member and its role,
// for the published content to recognise a signed-in member. The key is a per-database secret, created
// on first use, so every server process sharing the database signs and verifies alike.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { serviceSecrets } from '../db/schema/index.js';

const SECRET_NAME = 'visitor-claims';
/** Claims are short-lived: the app pings again while the member is active. */
const LIFETIME_SECONDS = 60 * 60;

/** What signing and verifying need of a Ctx (the published site has no caller). */
type KeyCtx = Pick<Ctx, 'db' | 'now'>;

async function signingKey(ctx: KeyCtx): Promise<string> {
  // Two processes creating it at once: the first insert wins and both read that one.
  await ctx.db
    .insert(serviceSecrets)
    .values({ name: SECRET_NAME, secret: randomBytes(32).toString('base64url'), createdAt: ctx.now() })
    .onConflictDoNothing();
  const [row] = await ctx.db.select({ secret: serviceSecrets.secret }).from(serviceSecrets).where(eq(serviceSecrets.name, SECRET_NAME));
  return row.secret;
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A signed token of the member's claims in an organization. */
export async function signVisitorClaims(ctx: Ctx, claims: { userId: string; organizationId: string; role: string | null }): Promise<string> {
  const iat = Math.floor(ctx.now().getTime() / 1000);
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({
    sub: claims.userId,
    organization: claims.organizationId,
    role: claims.role,
    iat,
    exp: iat + LIFETIME_SECONDS,
  })}`;
  const signature = createHmac('sha256', await signingKey(ctx)).update(body).digest('base64url');
  return `${body}.${signature}`;
}

/**
 * The claims of a token this database signed, or undefined when the signature does not match or the token
 * has expired (`exp`, in seconds).
 */
export async function verifyVisitorClaims(ctx: KeyCtx, token: string): Promise<Record<string, unknown> | undefined> {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return undefined;
  const expected = Buffer.from(createHmac('sha256', await signingKey(ctx)).update(`${header}.${payload}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof claims.exp === 'number' && claims.exp <= Math.floor(ctx.now().getTime() / 1000)) return undefined;
  return claims;
}
