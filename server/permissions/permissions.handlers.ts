// The 24 permission operations: the same eight on spaces, collections and sites (contract/permissions.ts).
import type { permissionOperationsTable } from '../../contract/permissions.js';
import type { CollectionGrant, OrganizationGrant, SpaceGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import type { AppHandlers } from '../handler-types.js';
import {
  listContentAggregate,
  listSiteAggregate,
  listTeamGrants,
  listUserGrants,
  removeGrant,
  setGrants,
  siteTarget,
  type GrantTarget,
} from './grants.store.js';

const spaceTarget = (grant: SpaceGrant): GrantTarget => ({ kind: 'space', id: grant.row.id, organizationId: grant.row.organizationId });
const collectionTarget = (grant: CollectionGrant): GrantTarget => ({ kind: 'collection', id: grant.row.id, organizationId: grant.row.organizationId });
const siteOf = (ctx: Ctx, grant: OrganizationGrant, siteId: string) => siteTarget(ctx, grant.organization.id, siteId, grant.attached);

/** 205 when a role was taken away, 204 when there was none. */
const removed = (was: boolean) => (was ? { status: 205 as const } : { status: 204 as const });

export const permissionHandlers = {
  async inviteToSpace({ grant, body }, ctx) {
    await setGrants(ctx, spaceTarget(grant), body, body.role);
    return { status: 204 };
  },
  async listUserPermissionsInSpace({ grant, query }, ctx) {
    return { status: 200, body: await listUserGrants(ctx, spaceTarget(grant), query, grant.attached) };
  },
  async updateUserPermissionInSpace({ grant, params, body }, ctx) {
    await setGrants(ctx, spaceTarget(grant), { users: [params.userId] }, body.role, { users: 'userId', teams: 'teamId' });
    return { status: 204 };
  },
  async removeUserFromSpace({ grant, params }, ctx) {
    return removed(await removeGrant(ctx, spaceTarget(grant), { userId: params.userId }));
  },
  async listTeamPermissionsInSpace({ grant, query }, ctx) {
    return { status: 200, body: await listTeamGrants(ctx, spaceTarget(grant), grant.orgRole, query, grant.attached) };
  },
  async updateTeamPermissionInSpace({ grant, params, body }, ctx) {
    await setGrants(ctx, spaceTarget(grant), { teams: [params.teamId] }, body.role, { users: 'userId', teams: 'teamId' });
    return { status: 204 };
  },
  async removeTeamFromSpace({ grant, params }, ctx) {
    return removed(await removeGrant(ctx, spaceTarget(grant), { teamId: params.teamId }));
  },
  async listPermissionsAggregateInSpace({ grant, query }, ctx) {
    return { status: 200, body: await listContentAggregate(ctx, spaceTarget(grant), query.role, query, grant.attached) };
  },

  async inviteToCollection({ grant, body }, ctx) {
    await setGrants(ctx, collectionTarget(grant), body, body.role);
    return { status: 204 };
  },
  async listUserPermissionsInCollection({ grant, query }, ctx) {
    return { status: 200, body: await listUserGrants(ctx, collectionTarget(grant), query, grant.attached) };
  },
  async updateUserPermissionInCollection({ grant, params, body }, ctx) {
    await setGrants(ctx, collectionTarget(grant), { users: [params.userId] }, body.role, { users: 'userId', teams: 'teamId' });
    return { status: 204 };
  },
  async removeUserFromCollection({ grant, params }, ctx) {
    return removed(await removeGrant(ctx, collectionTarget(grant), { userId: params.userId }));
  },
  async listTeamPermissionsInCollection({ grant, query }, ctx) {
    return { status: 200, body: await listTeamGrants(ctx, collectionTarget(grant), grant.orgRole, query, grant.attached) };
  },
  async updateTeamPermissionInCollection({ grant, params, body }, ctx) {
    await setGrants(ctx, collectionTarget(grant), { teams: [params.teamId] }, body.role, { users: 'userId', teams: 'teamId' });
    return { status: 204 };
  },
  async removeTeamFromCollection({ grant, params }, ctx) {
    return removed(await removeGrant(ctx, collectionTarget(grant), { teamId: params.teamId }));
  },
  async listPermissionsAggregateInCollection({ grant, query }, ctx) {
    return { status: 200, body: await listContentAggregate(ctx, collectionTarget(grant), query.role, query, grant.attached) };
  },

  async inviteToSite({ grant, params, body }, ctx) {
    await setGrants(ctx, await siteOf(ctx, grant, params.siteId), body, body.role);
    return { status: 204 };
  },
  async listUserPermissionsInSite({ grant, params, query }, ctx) {
    return { status: 200, body: await listUserGrants(ctx, await siteOf(ctx, grant, params.siteId), query, grant.attached) };
  },
  async updateUserPermissionInSite({ grant, params, body }, ctx) {
    await setGrants(ctx, await siteOf(ctx, grant, params.siteId), { users: [params.userId] }, body.role, { users: 'userId', teams: 'teamId' });
    return { status: 204 };
  },
  async removeUserFromSite({ grant, params }, ctx) {
    return removed(await removeGrant(ctx, await siteOf(ctx, grant, params.siteId), { userId: params.userId }));
  },
  async listTeamPermissionsInSite({ grant, params, query }, ctx) {
    return { status: 200, body: await listTeamGrants(ctx, await siteOf(ctx, grant, params.siteId), grant.role, query, grant.attached) };
  },
  async updateTeamPermissionInSite({ grant, params, body }, ctx) {
    await setGrants(ctx, await siteOf(ctx, grant, params.siteId), { teams: [params.teamId] }, body.role, { users: 'userId', teams: 'teamId' });
    return { status: 204 };
  },
  async removeTeamFromSite({ grant, params }, ctx) {
    return removed(await removeGrant(ctx, await siteOf(ctx, grant, params.siteId), { teamId: params.teamId }));
  },
  async listPermissionsAggregateInSite({ grant, params, query }, ctx) {
    return { status: 200, body: await listSiteAggregate(ctx, await siteOf(ctx, grant, params.siteId), query.role, query, grant.attached) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof permissionOperationsTable>>;
