// A list costs the same SQL statements for 1 item as for 50: whatever a listed item needs (its counters,
// its creator, the caller's role on it) is read in the list's own queries, never one query per item.
// The per-operation budgets themselves are checked for every test file by the harness
// (test/support/query-budget.ts against test/query-budget.json).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { contractOperations } from '../contract/index.js';
import { send } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { committedBudget } from './support/query-budget.js';

const h = useHarness();

interface ListCase {
  operationId: string;
  /** Makes `n` items of the list for `admin` and returns the list's path. */
  fill(admin: Account, n: number): Promise<string>;
}

async function created(admin: Account, path: string, body: unknown = {}, method: 'post' | 'put' = 'post'): Promise<{ id: string }> {
  const res = await admin.api[method](path, body);
  expect([200, 201], `${method.toUpperCase()} ${path} -> ${res.status}`).toContain(res.status);
  return res.body;
}

/** What the app last reported (read through a call: TypeScript would narrow a direct read to its reset value). */
function reported(seen: { last?: { operationId: string; statements: number } }) {
  return seen.last;
}

async function times(n: number, make: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < n; i++) await make();
}

const lists: ListCase[] = [
  {
    operationId: 'listSpacesInOrganizationById',
    fill: async (admin, n) => {
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/spaces`, {}));
      return `/orgs/${admin.organizationId}/spaces`;
    },
  },
  {
    operationId: 'listCollectionsInOrganizationById',
    fill: async (admin, n) => {
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/collections`, {}));
      return `/orgs/${admin.organizationId}/collections`;
    },
  },
  {
    operationId: 'listSpacesInCollectionById',
    fill: async (admin, n) => {
      const collection = await created(admin, `/orgs/${admin.organizationId}/collections`, {});
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/spaces`, { parent: collection.id }));
      return `/collections/${collection.id}/spaces`;
    },
  },
  {
    operationId: 'listMembersInOrganizationById',
    fill: async (admin, n) => {
      // The admin is the first member.
      await times(n - 1, () => h.current.newMember(admin.organizationId, 'read'));
      return `/orgs/${admin.organizationId}/members`;
    },
  },
  {
    operationId: 'listTeamsInOrganizationById',
    fill: async (admin, n) => {
      let i = 0;
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/teams`, { title: `Team ${i++}` }, 'put'));
      return `/orgs/${admin.organizationId}/teams`;
    },
  },
  {
    operationId: 'listChangeRequestsForOrganization',
    fill: async (admin, n) => {
      const space = await created(admin, `/orgs/${admin.organizationId}/spaces`, {});
      await times(n, () => created(admin, `/spaces/${space.id}/change-requests`, { subject: 'Edit' }));
      return `/orgs/${admin.organizationId}/change-requests`;
    },
  },
  {
    operationId: 'listCommentsInSpace',
    fill: async (admin, n) => {
      const space = await created(admin, `/orgs/${admin.organizationId}/spaces`, {});
      await times(n, () => created(admin, `/spaces/${space.id}/comments`, { body: { markdown: 'A remark' } }));
      return `/spaces/${space.id}/comments`;
    },
  },
  {
    operationId: 'listSites',
    fill: async (admin, n) => {
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/sites`, {}));
      return `/orgs/${admin.organizationId}/sites`;
    },
  },
];

/** Where the permission lists of each kind of resource live, with a new resource of that kind. */
const grantTargets = {
  Space: async (admin: Account) => `/spaces/${(await created(admin, `/orgs/${admin.organizationId}/spaces`, {})).id}`,
  Collection: async (admin: Account) => `/collections/${(await created(admin, `/orgs/${admin.organizationId}/collections`, {})).id}`,
  Site: async (admin: Account) => `/orgs/${admin.organizationId}/sites/${(await created(admin, `/orgs/${admin.organizationId}/sites`, {})).id}`,
};

/** `n` members of the admin's organization given `edit` on the resource at `base`. */
async function grantMembers(admin: Account, base: string, n: number): Promise<void> {
  if (n === 0) return;
  const users: string[] = [];
  await times(n, async () => users.push((await h.current.newMember(admin.organizationId, 'read')).userId));
  const res = await admin.api.post(`${base}/permissions`, { role: 'edit', users });
  expect(res.status).toBe(204);
}

// The permission lists (issue 35): grants of users and teams, and everyone who reaches a resource.
const permissionLists: ListCase[] = Object.entries(grantTargets).flatMap(([on, target]): ListCase[] => [
  {
    operationId: `listUserPermissionsIn${on}`,
    fill: async (admin, n) => {
      const base = await target(admin);
      await grantMembers(admin, base, n);
      return `${base}/permissions/users`;
    },
  },
  {
    operationId: `listTeamPermissionsIn${on}`,
    fill: async (admin, n) => {
      const base = await target(admin);
      const teams: string[] = [];
      let i = 0;
      await times(n, async () => teams.push((await created(admin, `/orgs/${admin.organizationId}/teams`, { title: `Team ${i++}`, members: [admin.userId] }, 'put')).id));
      expect((await admin.api.post(`${base}/permissions`, { role: 'comment', teams })).status).toBe(204);
      return `${base}/permissions/teams`;
    },
  },
  {
    operationId: `listPermissionsAggregateIn${on}`,
    fill: async (admin, n) => {
      const base = await target(admin);
      // The admin reaches it too.
      await grantMembers(admin, base, n - 1);
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
  fill: async (admin, n) => {
    const org = admin.organizationId;
    let i = 0;
    await times(n, async () => {
      const k = i++;
      if (kind === 'space') await created(admin, `/orgs/${org}/link-invites`, { space: (await created(admin, `/orgs/${org}/spaces`, {})).id, level: 'comment' });
      else if (kind === 'collection') await created(admin, `/orgs/${org}/link-invites`, { collection: (await created(admin, `/orgs/${org}/collections`, {})).id, level: 'edit' });
      else if (k % 2 === 0) await created(admin, `/orgs/${org}/link-invites`, { role: 'read' });
      else expect((await admin.api.post(`/orgs/${org}/invites`, { emails: [`budget-${k}-${org.slice(-6)}@example.com`] })).status).toBe(200);
    });
    return `/orgs/${org}/link-invites`;
  },
}));

lists.push(...permissionLists, ...inviteLists);

describe('query budget', () => {
  it('has a budget for every operation of the contract', () => {
    const budget = committedBudget();
    expect(Object.keys(contractOperations).filter((operationId) => !(operationId in budget))).toEqual([]);
  });

  it.each(lists)('list $operationId sends as many statements for 50 items as for 1', async ({ operationId, fill }) => {
    const seen: { last?: { operationId: string; statements: number } } = {};
    const app = createApp({
      db: h.current.db,
      logger: pino({ level: 'silent' }),
      publicUrl: PUBLIC_URL,
      onStatements: (id, statements) => {
        seen.last = { operationId: id, statements };
      },
    });
    const statementsOf = async (admin: Account, path: string, items: number) => {
      seen.last = undefined;
      const res = await send(app, 'get', `/v1${path}`, { token: admin.token, query: { limit: 50 } });
      expect(res.status, path).toBe(200);
      expect(res.body.items).toHaveLength(items);
      const counted = reported(seen);
      expect(counted?.operationId).toBe(operationId);
      return counted!.statements;
    };
    const one = await h.current.newAdmin();
    const fifty = await h.current.newAdmin();
    const onePath = await fill(one, 1);
    const fiftyPath = await fill(fifty, 50);
    const forOne = await statementsOf(one, onePath, 1);
    expect(forOne).toBeGreaterThan(0);
    expect(await statementsOf(fifty, fiftyPath, 50)).toBe(forOne);
  });
});
