// Access to content (collections and spaces): the caller's role on it, and the checks writes need.
import type { Ctx } from '../context.js';
import { Forbidden } from '../http/errors.js';
import { findMembership } from './membership.js';
import { atLeast, contentRole, type Role } from './roles.js';

/** The caller's role on content of `organizationId` whose default level is `defaultLevel`; null for outsiders. */
export async function callerContentRole(ctx: Ctx, organizationId: string, defaultLevel: string | null): Promise<Role | null> {
  const membership = await findMembership(ctx.db, organizationId, ctx.caller.userId);
  return membership ? contentRole(membership.role, defaultLevel as Role | null) : null;
}

/** Throws Forbidden, naming the missing role and the action, when `role` is below `required`. */
export function requireContentRole(role: Role | null, required: Role, what: 'space' | 'collection', action: string): void {
  if (!atLeast(role, required)) throw new Forbidden(`You need the ${required} role on this ${what} to ${action}`);
}
