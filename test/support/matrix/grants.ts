// The access matrix's callers whose way in is a grant (docs/permissions.md), for the operations on a
// space, a collection or a site: a guest given `edit` on the resource, a reader in a team given `admin`
// on it, a reader given `admin` on the collection a space is moved into, and a private resource
// (defaultLevel null) as a `create` member sees it (hidden), as a reader given `admin` on it and as an
// organization admin. Each case gives its grant on the resource it calls before the call.
import type { Access } from '../../../contract/access.js';
import type { Operation } from '../../../contract/operation.js';
import { atLeast, type Role } from '../../../server/auth/roles.js';
import type { Account, Harness } from '../harness.js';
import type { MatrixWorld } from './types.js';

export const grantCallerKinds = ['granted guest', 'team granted', 'collection granted', 'private: member', 'private: granted', 'private: admin'] as const;
export type GrantCallerKind = (typeof grantCallerKinds)[number];

export interface GrantCallers {
  accounts: Record<GrantCallerKind, Account>;
  teamId: string;
}

/** The callers, made once in the world's organization (the team holds the team member). */
export async function makeGrantCallers(h: Harness, admin: Account): Promise<GrantCallers> {
  const org = admin.organizationId;
  const accounts = {
    'granted guest': await h.newMember(org, null),
    'team granted': await h.newMember(org, 'read'),
    'collection granted': await h.newMember(org, 'read'),
    'private: member': await h.newMember(org, 'create'),
    'private: granted': await h.newMember(org, 'read'),
    'private: admin': await h.newMember(org, 'admin'),
  };
  const team = await admin.api.put(`/orgs/${org}/teams`, { title: 'Matrix grants', members: [accounts['team granted'].userId] });
  if (team.status !== 201) throw new Error(`matrix grants: team not created (${team.status})`);
  return { accounts, teamId: team.body.id };
}

/** What the operation acts on, for grants: a space, a collection, a site (its path names it), or nothing. */
function resourceOf(op: Operation): 'space' | 'collection' | 'site' | undefined {
  if (op.access.to === 'space' || op.access.to === 'collection') return op.access.to;
  if (op.access.to === 'organization' && op.path.includes('{siteId}')) return 'site';
  return undefined;
}

/** Whether the caller kind applies to the operation (private resources: spaces and collections; collection grants: spaces). */
export function grantKindApplies(op: Operation, kind: GrantCallerKind): boolean {
  const resource = resourceOf(op);
  if (resource === undefined) return false;
  if (kind === 'collection granted') return resource === 'space';
  if (kind.startsWith('private')) return resource !== 'site';
  return true;
}

/** Whether the kind calls a private resource (its own set of parameters, made private once). */
export const isPrivateKind = (kind: GrantCallerKind) => kind.startsWith('private');

function resourcePath(op: Operation, world: MatrixWorld, params: Record<string, string>): string {
  const resource = resourceOf(op);
  if (resource === 'space') return `/spaces/${params.spaceId}`;
  if (resource === 'collection') return `/collections/${params.collectionId}`;
  return `/orgs/${world.admin.organizationId}/sites/${params.siteId}`;
}

async function must(what: string, call: Promise<{ status: number; body: unknown }>): Promise<void> {
  const res = await call;
  if (res.status >= 300) throw new Error(`matrix grants: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
}

/** Makes a private set of parameters private: the resource gives members nothing (defaultLevel null). */
export async function makePrivate(world: MatrixWorld, op: Operation, params: Record<string, string>): Promise<void> {
  await must('defaultLevel null', world.admin.api.patch(resourcePath(op, world, params), { defaultLevel: null }));
}

/** Gives the caller kind its way in on the case's resource, before the call. */
export async function grantFor(world: MatrixWorld, callers: GrantCallers, kind: GrantCallerKind, op: Operation, params: Record<string, string>): Promise<void> {
  const base = resourcePath(op, world, params);
  const { admin } = world;
  switch (kind) {
    case 'granted guest':
      return must('guest grant', admin.api.patch(`${base}/permissions/users/${callers.accounts[kind].userId}`, { role: 'edit' }));
    case 'team granted':
      return must('team grant', admin.api.patch(`${base}/permissions/teams/${callers.teamId}`, { role: 'admin' }));
    case 'private: granted':
      return must('private grant', admin.api.patch(`${base}/permissions/users/${callers.accounts[kind].userId}`, { role: 'admin' }));
    case 'collection granted': {
      const collection = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Matrix granted' });
      await must('collection', Promise.resolve(collection));
      await must('collection grant', admin.api.patch(`/collections/${collection.body.id}/permissions/users/${callers.accounts[kind].userId}`, { role: 'admin' }));
      await must('move into the collection', admin.api.post(`/spaces/${params.spaceId}/move`, { parent: collection.body.id }));
      // A space moved into a collection keeps its visibility: in-collection, it takes what the collection gives.
      return world.h.setSpaceVisibility(params.spaceId, 'in-collection');
    }
    case 'private: member':
    case 'private: admin':
      return;
  }
}

/** The role the caller kind has on the case's resource once `grantFor` ran (null: none, the resource is hidden). */
function roleOf(kind: GrantCallerKind): Role | null {
  switch (kind) {
    case 'granted guest':
      return 'edit';
    case 'team granted':
    case 'collection granted':
    case 'private: granted':
    case 'private: admin':
      return 'admin';
    case 'private: member':
      return null;
  }
}

/**
 * Operations whose store adds a rule of its own (as the matrix fixtures' `expected` say for the role
 * callers): deleting the admin's comment takes admin on the space; a transfer, admin in the target
 * organization (the caller's own here), which no grant gives.
 */
const storeRules: Record<string, (role: Role | null, kind: GrantCallerKind) => boolean> = {
  deleteCommentInSpace: (role) => role === 'admin',
  deleteCommentReplyInSpace: (role) => role === 'admin',
  transferSpace: (_, kind) => kind === 'private: admin',
  transferCollection: (_, kind) => kind === 'private: admin',
};

/** The status the declaration (and the store's own rule) promises the caller kind: a number, or 'success'. */
export function expectedForGrant(id: string, rule: Access, kind: GrantCallerKind): number | 'success' {
  const declared = expectedByRule(rule, kind);
  const storeRule = storeRules[id];
  return declared === 'success' && storeRule && !storeRule(roleOf(kind), kind) ? 403 : declared;
}

function expectedByRule(rule: Access, kind: GrantCallerKind): number | 'success' {
  const role = roleOf(kind);
  if (rule.to === 'organization') return rule.role === 'guest' || atLeast(role, rule.role) ? 'success' : 403;
  if (rule.to !== 'space' && rule.to !== 'collection') throw new Error(`matrix grants: no resource in a ${rule.to} rule`);
  if (role === null) return 'missing' in rule && rule.missing === 'no-content' ? 204 : 404;
  return atLeast(role, rule.role) ? 'success' : 403;
}
