// List fills of who may see what (issue 35): the grants of users and teams on spaces, collections and sites,
// everyone who reaches one, and the organization's invite links.
import type { Account, Harness } from '../harness.js';
import { answered, created, each, newSpace, times, type ListCase } from './types.js';

/** Where the permission lists of each kind of resource live, with a new resource of that kind. */
const grantTargets = {
  Space: async (admin: Account) => `/spaces/${await newSpace(admin)}`,
  Collection: async (admin: Account) => `/collections/${(await created(admin, `/orgs/${admin.organizationId}/collections`, {})).id}`,
  Site: async (admin: Account) => `/orgs/${admin.organizationId}/sites/${(await created(admin, `/orgs/${admin.organizationId}/sites`, {})).id}`,
};

/** `n` members of the admin's organization given `edit` on the resource at `base`. */
async function grantMembers(h: Harness, admin: Account, base: string, n: number): Promise<void> {
  if (n === 0) return;
  const users = await each(n, async () => (await h.newMember(admin.organizationId, 'read')).userId);
  await answered(204, admin.api.post(`${base}/permissions`, { role: 'edit', users }), 'invite');
}

const permissionLists: ListCase[] = Object.entries(grantTargets).flatMap(([on, target]): ListCase[] => [
  {
    operationId: `listUserPermissionsIn${on}`,
    fill: async (h, admin, n) => {
      const base = await target(admin);
      await grantMembers(h, admin, base, n);
      return `${base}/permissions/users`;
    },
  },
  {
    operationId: `listTeamPermissionsIn${on}`,
    fill: async (_h, admin, n) => {
      const base = await target(admin);
      const teams = await each(n, async (k) => (await created(admin, `/orgs/${admin.organizationId}/teams`, { title: `Team ${k}`, members: [admin.userId] }, 'put')).id);
      await answered(204, admin.api.post(`${base}/permissions`, { role: 'comment', teams }), 'invite');
      return `${base}/permissions/teams`;
    },
  },
  {
    operationId: `listPermissionsAggregateIn${on}`,
    fill: async (h, admin, n) => {
      const base = await target(admin);
      // The admin reaches it too.
      await grantMembers(h, admin, base, n - 1);
      return `${base}/permissions/aggregate`;
    },
  },
]);

/**
 * Invite links of one kind of target each (a page reads the targets of each kind it holds in one query, so
 * a page mixing kinds costs one statement more per kind, never per invite): to the organization, by link
 * and by email; to spaces; to collections.
 */
const inviteLists: ListCase[] = (['organization', 'space', 'collection'] as const).map((kind) => ({
  operationId: 'listOrganizationInviteLinks',
  variant: kind,
  fill: async (_h, admin, n) => {
    const org = admin.organizationId;
    await times(n, async (k) => {
      if (kind === 'space') await created(admin, `/orgs/${org}/link-invites`, { space: await newSpace(admin), level: 'comment' });
      else if (kind === 'collection') await created(admin, `/orgs/${org}/link-invites`, { collection: (await created(admin, `/orgs/${org}/collections`, {})).id, level: 'edit' });
      else if (k % 2 === 0) await created(admin, `/orgs/${org}/link-invites`, { role: 'read' });
      else await answered(200, admin.api.post(`/orgs/${org}/invites`, { emails: [`budget-${k}-${org.slice(-6)}@example.com`] }), 'inviteUsersToOrganization');
    });
    return `/orgs/${org}/link-invites`;
  },
}));

export const permissionAndInviteLists: ListCase[] = [...permissionLists, ...inviteLists];
