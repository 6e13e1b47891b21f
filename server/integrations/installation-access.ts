// Who may read and manage one installation of an integration (the operations are declared
// `access.caller()`; the rules live here, one query for the integration, the installation and the caller's
// memberships in the two organizations involved):
// - the admins of the organization the integration is installed in manage it (read and write);
// - the admins of the organization owning the integration may read it (403 on writes);
// - other members of either organization get 403;
// - anyone else gets 404, as for an installation that does not exist.
import { and, eq, not, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { asRole, atLeast } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { attachAll, attachedRows, attachSelect, readAttached, type AttachedRead } from '../db/attached-select.js';
import { integrationInstallations, integrations, members } from '../db/schema/index.js';
import { Forbidden, NotFound } from '../errors.js';
import type { InstallationRow, IntegrationRow } from './integration-view.js';

export interface InstallationGrant {
  integration: IntegrationRow;
  installation: InstallationRow;
  /** Whether the caller may change it: an admin of the organization it is installed in. */
  canManage: boolean;
}

export type InstallationNeed = 'read' | 'manage';

/** The select of the installation with its integration and the caller's memberships in the two organizations involved. */
function installationSelect(ctx: Ctx, name: string, installationId: string) {
  const ownerMember = alias(members, 'owner_member');
  const installedMember = alias(members, 'installed_member');
  const member = (m: { organizationId: PgColumn; userId: PgColumn; disabled: PgColumn }, organizationId: PgColumn) =>
    and(eq(m.organizationId, organizationId), eq(m.userId, ctx.caller.userId), not(m.disabled));
  return ctx.db
    .select({
      integration: integrations,
      installation: integrationInstallations,
      ownerRole: ownerMember.role,
      ownerMember: sql<boolean>`${ownerMember.userId} IS NOT NULL`,
      installedRole: installedMember.role,
      installedMember: sql<boolean>`${installedMember.userId} IS NOT NULL`,
    })
    .from(integrationInstallations)
    .innerJoin(integrations, eq(integrations.name, integrationInstallations.integrationName))
    .leftJoin(ownerMember, member(ownerMember, integrations.organizationId))
    .leftJoin(installedMember, member(installedMember, integrationInstallations.organizationId))
    .where(and(eq(integrationInstallations.integrationName, name), eq(integrationInstallations.id, installationId)));
}

type InstallationFound = Awaited<ReturnType<typeof installationSelect>>[number];

/** What the caller may do with the installation `found`, or undefined when the caller may not see it at all. */
function grantOf(ctx: Ctx, name: string, found: InstallationFound | undefined) {
  if (!found) return undefined;
  // The integration itself (its token) reads and manages its own installations.
  if (ctx.caller.integration?.name === name) return { integration: found.integration, installation: found.installation, canManage: true, canRead: true };
  const isOwnerMember = found.ownerMember === true;
  const isInstalledMember = found.installedMember === true;
  // A private integration is invisible outside its owner, whatever the installation (it installs only there).
  if (!isOwnerMember && !isInstalledMember) return undefined;
  return {
    integration: found.integration,
    installation: found.installation,
    canManage: isInstalledMember && atLeast(asRole(found.installedRole), 'admin'),
    canRead: (isInstalledMember && atLeast(asRole(found.installedRole), 'admin')) || (isOwnerMember && atLeast(asRole(found.ownerRole), 'admin')),
  };
}

/** The installation and what the caller may do with it, or undefined when the caller may not see it at all. */
export async function readInstallationGrant(ctx: Ctx, name: string, installationId: string, lock = false) {
  const query = installationSelect(ctx, name, installationId);
  const [found] = await (lock ? query.for('update', { of: integrationInstallations }) : query);
  return grantOf(ctx, name, found);
}

/** `grant` if the caller may `need` the installation: NotFound when it cannot see it, Forbidden when the role is too low. */
function requireNeed(name: string, installationId: string, need: InstallationNeed, grant: ReturnType<typeof grantOf>): InstallationGrant {
  if (!grant) throw new NotFound(`Installation ${installationId} of the integration ${name} not found`);
  if (need === 'manage' ? !grant.canManage : !grant.canRead) {
    throw new Forbidden(
      need === 'manage'
        ? `You need the admin role in the organization the integration ${name} is installed in`
        : `You need the admin role in the organization the integration ${name} is installed in, or in the one that owns it`,
    );
  }
  return grant;
}

/** The installation if the caller may `need` it: NotFound when it cannot see it, Forbidden when the role is too low. */
export async function installationGrant(ctx: Ctx, name: string, installationId: string, need: InstallationNeed, lock = false): Promise<InstallationGrant> {
  return requireNeed(name, installationId, need, await readInstallationGrant(ctx, name, installationId, lock));
}

/**
 * installationGrant for reading, with what the operation reads in the same statement (readAttached): the
 * grant, and the statement's row, from which the handler takes `read`'s rows (rowsOf, readKeysetPage). The
 * read is made before the checks, and answered only when they pass.
 */
export async function readableInstallationWith(
  ctx: Ctx,
  name: string,
  installationId: string,
  read: AttachedRead,
): Promise<{ grant: InstallationGrant; attached: Record<string, unknown> }> {
  const select = installationSelect(ctx, name, installationId);
  const attached = await readAttached(ctx.db, attachAll('installation', attachSelect('installation_grant', select), read));
  const [found] = attachedRows(attached, 'installation_grant', select)!;
  return { grant: requireNeed(name, installationId, 'read', grantOf(ctx, name, found)), attached };
}
