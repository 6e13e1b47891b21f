// Bearer-token authentication: the token's sha256 is looked up; the request continues as its user.
import { eq } from 'drizzle-orm';
import type { RequestHandler } from 'express';
import type { Caller } from '../context.js';
import type { Db } from '../db/client.js';
import { apiTokens } from '../db/schema.js';
import { Unauthorized } from '../http/errors.js';
import { hashToken } from './tokens.js';

/** The user a bearer token belongs to; throws Unauthorized for a missing or unknown token. */
export async function authenticate(db: Db, authorization: string | undefined): Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new Unauthorized('Missing access token: send Authorization: Bearer <token>');
  const [row] = await db
    .select({ userId: apiTokens.userId })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashToken(match[1])));
  if (!row) throw new Unauthorized('Invalid access token');
  return { userId: row.userId };
}

/** Express middleware putting the authenticated caller in `res.locals.caller`. */
export function authenticationMiddleware(db: Db): RequestHandler {
  return async (req, res, next) => {
    res.locals.caller = await authenticate(db, req.headers.authorization);
    next();
  };
}
