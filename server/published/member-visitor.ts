// Members recognised on their organization's sites: the `serviceVisitorClaims` token a member's ping returns
// (server/members/visitor-claims.ts, signed with this database's secret) is accepted wherever a visitor token
// is (`?jwt_token=`, then the site's cookie), on the sites of the member's organization only. Its claims
// (`sub`, `organization`, `role`) are the visitor's signed claims: a visitor-auth site opens, and adaptive
// content reads what its schema declares of them.
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { verifyVisitorClaims } from '../members/visitor-claims.js';
import type { SiteRow } from '../sites/site-view.js';
import { visitorToken } from './visitor.js';

// Verified member tokens, by token, until their expiry (five minutes at most): a member reading page after
// page costs the secret's read once.
const verified = new LRUCache<string, Record<string, unknown>>({ max: 10_000, ttl: 5 * 60_000 });

/** The organization a token says it was issued for, read without verifying it (to skip other tokens cheaply). */
function claimedOrganization(token: string): unknown {
  try {
    return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>).organization;
  } catch {
    return undefined;
  }
}

/** The member's claims when the visitor's token is a valid `serviceVisitorClaims` of the site's organization. */
export async function memberClaims(db: Db, req: IncomingMessage, site: SiteRow): Promise<Record<string, unknown> | undefined> {
  const token = visitorToken(req, site);
  if (!token || claimedOrganization(token) !== site.organizationId) return undefined;
  const now = new Date();
  const known = verified.get(token);
  const claims = known ?? (await verifyVisitorClaims({ db, now: () => now }, token));
  if (!claims || claims.organization !== site.organizationId) return undefined;
  const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  if (exp !== undefined && exp <= now.getTime()) return undefined;
  if (!known) verified.set(token, claims, { ttl: Math.max(1, Math.min((exp ?? Infinity) - now.getTime(), 5 * 60_000)) });
  return structuredClone(claims);
}
