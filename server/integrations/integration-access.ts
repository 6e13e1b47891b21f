// The access rules of integrations, applied in the store (the operations are declared `access.caller()`):
// a public or unlisted integration is readable by any caller, a private one only by members of its owner;
// publishing, unpublishing, development mode, and reading installations and events need the admin role
// in the owning organization.
import { and, eq, not, sql } from 'drizzle-orm';
import { asRole, atLeast } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { attachAll, attachedRows, attachSelect, readAttached, type AttachedRead } from '../db/attached-select.js';
import { integrations, members, organizations } from '../db/schema/index.js';
import { rawSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import { Forbidden, NotFound } from '../errors.js';
import type { IntegrationRow, OwnerMembership } from './integration-view.js';

export interface IntegrationGrant extends OwnerMembership {
  row: IntegrationRow;
}

/** The select of an integration with its owner and the caller's membership there. */
function integrationSelect(ctx: Ctx, name: string) {
  return ctx.db
    .select({
      row: integrations,
      owner: organizations,
      memberRole: members.role,
      isMember: sql<boolean>`${members.userId} IS NOT NULL`,
    })
    .from(integrations)
    .innerJoin(organizations, eq(organizations.id, integrations.organizationId))
    .leftJoin(members, and(eq(members.organizationId, integrations.organizationId), eq(members.userId, ctx.caller.userId), not(members.disabled)))
    .where(eq(integrations.name, name));
}

type IntegrationFound = Awaited<ReturnType<typeof integrationSelect>>[number];

function grantOf(ctx: Ctx, name: string, found: IntegrationFound | undefined): IntegrationGrant | undefined {
  // The integration itself (its token, integration-caller.ts, which lets it call only what it may) is its
  // own administrator.
  if (found && ctx.caller.integration?.name === name) return { row: found.row, owner: found.owner, role: asRole('admin'), isMember: true };
  return found && { row: found.row, owner: found.owner, role: asRole(found.memberRole), isMember: found.isMember === true };
}

/** An integration with its owner and the caller's membership there, in one query; `lock` locks its row. */
export async function readIntegration(ctx: Ctx, name: string, lock = false): Promise<IntegrationGrant | undefined> {
  const query = integrationSelect(ctx, name);
  const [found] = await (lock ? query.for('update', { of: integrations }) : query);
  return grantOf(ctx, name, found);
}

/** Whether the caller may see the integration: private ones only to members of the owner. */
export function canSee(grant: IntegrationGrant): boolean {
  return grant.row.visibility !== 'private' || grant.isMember;
}

/** canSee in SQL, for a statement that writes only for a caller who may see the integration `name`. */
export function canSeeSql(ctx: Ctx, name: string): SqlFragment {
  // The integration itself (grantOf) sees itself.
  if (ctx.caller.integration?.name === name) return rawSql('true');
  return sqlText`EXISTS (SELECT 1 FROM integrations i LEFT JOIN members m ON m.organization_id = i.organization_id AND m.user_id = ${ctx.caller.userId}::text AND NOT m.disabled
    WHERE i.name = ${name}::text AND (i.visibility <> 'private' OR m.user_id IS NOT NULL))`;
}

/** Whether the caller is an admin of the owning organization. */
export function isOwnerAdmin(grant: OwnerMembership): boolean {
  return grant.isMember && atLeast(grant.role, 'admin');
}

/** `grant` if the caller may see the integration; NotFound otherwise. */
function requireVisible(name: string, grant: IntegrationGrant | undefined): IntegrationGrant {
  if (!grant || !canSee(grant)) throw new NotFound(`Integration ${name} not found`);
  return grant;
}

/** `grant` if the caller administers the integration's owner: NotFound when not visible, Forbidden when not admin. */
function requireAdministered(name: string, grant: IntegrationGrant | undefined): IntegrationGrant {
  if (!isOwnerAdmin(requireVisible(name, grant))) throw new Forbidden(`You need the admin role in the organization that owns the integration ${name}`);
  return grant!;
}

/** The integration if the caller may see it; NotFound otherwise. */
export async function visibleIntegration(ctx: Ctx, name: string, lock = false): Promise<IntegrationGrant> {
  return requireVisible(name, await readIntegration(ctx, name, lock));
}

/** The integration if the caller administers its owner: NotFound when not visible, Forbidden when not admin. */
export async function administeredIntegration(ctx: Ctx, name: string, lock = false): Promise<IntegrationGrant> {
  return requireAdministered(name, await readIntegration(ctx, name, lock));
}

/**
 * The integration's grant as a read attached to another statement (a grant's), and its answer from that
 * statement's row: the integration if the caller may see it, NotFound otherwise.
 */
export function visibleIntegrationAttached(ctx: Ctx, name: string): { read: AttachedRead; visible: (attached: Record<string, unknown>) => IntegrationGrant } {
  const select = integrationSelect(ctx, name);
  return { read: attachSelect('integration', select), visible: (attached) => requireVisible(name, grantOf(ctx, name, attachedRows(attached, 'integration', select)![0])) };
}

/** The integration's grant (grantOf) and `read`, in one statement (readAttached). */
async function integrationWith(ctx: Ctx, name: string, read: AttachedRead): Promise<{ grant: IntegrationGrant | undefined; attached: Record<string, unknown> }> {
  const select = integrationSelect(ctx, name);
  const attached = await readAttached(ctx.db, attachAll('integration', attachSelect('integration', select), read));
  const [found] = attachedRows(attached, 'integration', select)!;
  return { grant: grantOf(ctx, name, found), attached };
}

/**
 * visibleIntegration with what the operation reads in the same statement (readAttached): the grant, and the
 * statement's row, from which the handler takes `read`'s rows (rowsOf). The read is made before the check,
 * and answered only when it passes.
 */
export async function visibleIntegrationWith(ctx: Ctx, name: string, read: AttachedRead): Promise<{ grant: IntegrationGrant; attached: Record<string, unknown> }> {
  const { grant, attached } = await integrationWith(ctx, name, read);
  return { grant: requireVisible(name, grant), attached };
}

/** administeredIntegration with what the operation reads in the same statement, as visibleIntegrationWith (rowsOf, readKeysetPage). */
export async function administeredIntegrationWith(ctx: Ctx, name: string, read: AttachedRead): Promise<{ grant: IntegrationGrant; attached: Record<string, unknown> }> {
  const { grant, attached } = await integrationWith(ctx, name, read);
  return { grant: requireAdministered(name, grant), attached };
}
