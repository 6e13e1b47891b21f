// The hand-over of a SAML sign-in: the browser is sent back with a one-time code valid for CODE_TTL_MS,
// never with a token. The code is exchanged once, by a POST, for an access token of the person. Only the
// code's sha256 is stored.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { issueToken } from '../auth/bootstrap.js';
import { hashToken } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import { samlProviders, ssoSignInCodes } from '../db/schema/index.js';
import { BadRequest } from '../errors.js';

export const CODE_TTL_MS = 2 * 60_000;
const CODE_PATTERN = /^ssc_[A-Za-z0-9_-]{43}$/;

export interface SignedInPerson {
  userId: string;
  organizationId: string;
  providerId: string;
}

/** A new one-time code for `person`, stored hashed. */
export async function issueSignInCode(db: Db, person: SignedInPerson, now: Date): Promise<string> {
  const code = `ssc_${randomBytes(32).toString('base64url')}`;
  await db.insert(ssoSignInCodes).values({
    codeHash: hashToken(code),
    ...person,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  return code;
}

/** `url` with `code` added to its query. */
export function withCode(url: string, code: string): string {
  const target = new URL(url);
  target.searchParams.set('code', code);
  return target.toString();
}

/**
 * Consumes `code` and issues an access token for its person: once, within CODE_TTL_MS. An unknown,
 * expired or already used code is a 400 (the same answer for each, so a guess learns nothing).
 */
export async function exchangeSignInCode(db: Db, code: unknown, now: Date): Promise<SignedInPerson & { token: string }> {
  if (typeof code !== 'string' || code.length === 0) throw new BadRequest('Invalid request: body.code: required, the one-time code of a SAML sign-in');
  if (!CODE_PATTERN.test(code)) throw new BadRequest('Invalid request: body.code: not a sign-in code');
  return db.transaction(async (txDb) => {
    const tx = txDb as unknown as Db;
    await tx.delete(ssoSignInCodes).where(lt(ssoSignInCodes.expiresAt, now));
    const [row] = await tx
      .delete(ssoSignInCodes)
      .where(and(eq(ssoSignInCodes.codeHash, hashToken(code)), gt(ssoSignInCodes.expiresAt, now)))
      .returning();
    if (!row) throw new BadRequest('Invalid request: body.code: unknown, expired or already used; sign in again');
    const [provider] = await tx.select({ label: samlProviders.label }).from(samlProviders).where(eq(samlProviders.id, row.providerId));
    const token = await issueToken(tx, row.userId, `SAML sign-in (${provider?.label ?? row.providerId})`, undefined, now);
    return { token, userId: row.userId, organizationId: row.organizationId, providerId: row.providerId };
  });
}
