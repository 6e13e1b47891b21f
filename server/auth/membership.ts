// Who belongs to which organization, with which role: the basis of every permission check.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { members } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { isRole, type Role } from './roles.js';

export interface Membership {
  organizationId: string;
  /** null for guests */
  role: Role | null;
}

/** The caller's membership of an organization, or undefined when not a member. */
export async function findMembership(db: Db, organizationId: string, userId: string): Promise<Membership | undefined> {
  const [row] = await db
    .select({ role: members.role, disabled: members.disabled })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  if (!row || row.disabled) return undefined;
  return { organizationId, role: isRole(row.role) ? row.role : null };
}

/**
 * The caller's membership of an organization; throws NotFound when not a member, since a caller never
 * learns whether another organization's resources exist.
 */
export async function requireMembership(db: Db, organizationId: string, userId: string): Promise<Membership> {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership) throw new NotFound(`Organization ${organizationId} not found`);
  return membership;
}
