// The access rules of integrations, applied in the store (the operations are declared `access.caller()`):
// a public or unlisted integration is readable by any caller, a private one only by members of its owner;
// publishing, unpublishing, development mode, and reading installations and events need the admin role
// in the owning organization.
import { and, eq, sql } from 'drizzle-orm';
import { asRole, atLeast } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { integrations, members, organizations } from '../db/schema/index.js';
import { Forbidden, NotFound } from '../errors.js';
import type { IntegrationRow, OwnerMembership } from './integration-view.js';

export interface IntegrationGrant extends OwnerMembership {
  row: IntegrationRow;
}

/** An integration with its owner and the caller's membership there, in one query; `lock` locks its row. */
export async function readIntegration(ctx: Ctx, name: string, lock = false): Promise<IntegrationGrant | undefined> {
  const query = ctx.db
    .select({
      row: integrations,
      owner: organizations,
      memberRole: members.role,
      isMember: sql<boolean>`${members.userId} IS NOT NULL`,
    })
    .from(integrations)
    .innerJoin(organizations, eq(organizations.id, integrations.organizationId))
    .leftJoin(
      members,
      and(eq(members.organizationId, integrations.organizationId), eq(members.userId, ctx.caller.userId), eq(members.disabled, false)),
    )
    .where(eq(integrations.name, name));
  const [found] = await (lock ? query.for('update', { of: integrations }) : query);
  // The integration itself (its token, integration-caller.ts, which lets it call only what it may) is its
  // own administrator.
  if (found && ctx.caller.integration?.name === name) return { row: found.row, owner: found.owner, role: asRole('admin'), isMember: true };
  return found && { row: found.row, owner: found.owner, role: asRole(found.memberRole), isMember: found.isMember === true };
}

/** Whether the caller may see the integration: private ones only to members of the owner. */
export function canSee(grant: IntegrationGrant): boolean {
  return grant.row.visibility !== 'private' || grant.isMember;
}

/** Whether the caller is an admin of the owning organization. */
export function isOwnerAdmin(grant: OwnerMembership): boolean {
  return grant.isMember && atLeast(grant.role, 'admin');
}

/** The integration if the caller may see it; NotFound otherwise. */
export async function visibleIntegration(ctx: Ctx, name: string, lock = false): Promise<IntegrationGrant> {
  const grant = await readIntegration(ctx, name, lock);
  if (!grant || !canSee(grant)) throw new NotFound(`Integration ${name} not found`);
  return grant;
}

/** The integration if the caller administers its owner: NotFound when not visible, Forbidden when not admin. */
export async function administeredIntegration(ctx: Ctx, name: string, lock = false): Promise<IntegrationGrant> {
  const grant = await visibleIntegration(ctx, name, lock);
  if (!isOwnerAdmin(grant)) throw new Forbidden(`You need the admin role in the organization that owns the integration ${name}`);
  return grant;
}
