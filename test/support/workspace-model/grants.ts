// Commands on who may see what (docs/permissions.md): roles given and taken away on spaces, collections and
// sites, to members (guests included) and to teams; default levels changed; teams made, joined, left and
// deleted; invite links to a space, a collection or the organization accepted by someone from another
// organization (who joins as a guest, or with the invite's role); and a second organization, whose people
// and content never reach this one's. After each, the resource's grants and everyone's effective role on it
// are read back (`listPermissionsAggregateIn…`, `listUserPermissionsIn…`, `listTeamPermissionsIn…`) and
// compared, exactly, with the model's rule (`roleOn`, `roleOnSite` in model.ts); a member's own reads
// answer 200 with the item, 403 or 404 as the model says.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ApiResponse } from '../api.js';
import {
  command,
  expectStatus,
  live,
  pick,
  roleOn,
  roleOnSite,
  roleOrder,
  type Cmd,
  type Grant,
  type Level,
  type Member,
  type Model,
  type Real,
  type Resource,
  type Role,
  type Site,
  type TreeItem,
} from './model.js';

const role = fc.constantFrom(...roleOrder);
const nullableRole = fc.option(role, { nil: null });
const level: fc.Arbitrary<Level> = fc.oneof(fc.constant<Level>('inherit'), fc.constant<Level>(null), role);
const resource: fc.Arbitrary<Resource> = fc.constantFrom('space', 'collection', 'site');

type Target = { kind: 'space' | 'collection'; item: TreeItem } | { kind: 'site'; item: Site };

/** The n-th space, collection or site (deleted ones included: they answer 404). */
function targetOf(m: Model, kind: Resource, n: number): Target | undefined {
  if (kind === 'site') {
    const site = pick(m.sites, n);
    return site && { kind, item: site };
  }
  const item = pick<TreeItem>(kind === 'space' ? m.spaces : m.collections, n);
  return item && { kind, item };
}

const hasResource = (kind: Resource) => (m: Readonly<Model>) => (kind === 'space' ? m.spaces : kind === 'collection' ? m.collections : m.sites).length > 0;

/** The path of a resource's permissions. */
function permissionsPath(r: Real, t: Target): string {
  if (t.kind === 'site') return `/orgs/${r.admin.organizationId}/sites/${t.item.id}/permissions`;
  return `/${t.kind === 'space' ? 'spaces' : 'collections'}/${t.item.id}/permissions`;
}

/** Everyone's effective role on the target, per the model: the owner (an admin) and every member who reaches it. */
function effectiveRoles(m: Model, r: Real, t: Target): [string, Role][] {
  const members: Member[] = [{ userId: r.admin.userId, role: 'admin', removed: false }, ...m.members];
  const roles: [string, Role][] = [];
  for (const member of members) {
    const role = t.kind === 'site' ? roleOnSite(m, member, t.item) : roleOn(m, member, t.kind, t.item);
    if (role !== null) roles.push([member.userId, role]);
  }
  return roles.sort();
}

const grantsOn = (m: Model, t: Target, principal: Grant['principal']) =>
  m.grants.filter((g) => g.resource === t.kind && g.resourceId === t.item.id && g.principal === principal).map((g) => [g.principalId, g.role]).sort();

/**
 * Everyone's role on the target, read back as its admin, against the model; with `grants`, also the users
 * and teams given a role on it.
 */
async function expectPermissions(m: Model, r: Real, t: Target, grants = false): Promise<void> {
  const base = permissionsPath(r, t);
  const aggregate = await r.admin.api.get(`${base}/aggregate`, { limit: 100 });
  if (t.item.deleted) return expectStatus(aggregate, 404, `listPermissionsAggregateIn ${t.kind} (deleted)`);
  expectStatus(aggregate, 200, `listPermissionsAggregateIn ${t.kind}`);
  const listed = aggregate.body.items.map((x: { user: { id: string }; permission: string }) => [x.user.id, x.permission]).sort();
  expect(listed, `everyone's role on ${t.kind} ${t.item.id}`).toEqual(effectiveRoles(m, r, t));
  expect(aggregate.body.count).toBe(listed.length);
  if (!grants) return;
  const users = await r.admin.api.get(`${base}/users`, { limit: 100 });
  expectStatus(users, 200, `listUserPermissionsIn ${t.kind}`);
  expect(users.body.items.map((x: { user: { id: string }; permission: string }) => [x.user.id, x.permission]).sort(), `users given a role on ${t.kind} ${t.item.id}`).toEqual(grantsOn(m, t, 'user'));
  const teams = await r.admin.api.get(`${base}/teams`, { limit: 100 });
  expectStatus(teams, 200, `listTeamPermissionsIn ${t.kind}`);
  expect(teams.body.items.map((x: { team: { id: string }; permission: string }) => [x.team.id, x.permission]).sort(), `teams given a role on ${t.kind} ${t.item.id}`).toEqual(grantsOn(m, t, 'team'));
}

/** Records `role` (null: none) given on the target to the principal, replacing what was given before. */
function setGrant(m: Model, t: Target, principal: Grant['principal'], principalId: string, role: Role | null): void {
  m.grants = m.grants.filter((g) => !(g.resource === t.kind && g.resourceId === t.item.id && g.principal === principal && g.principalId === principalId));
  if (role !== null) m.grants.push({ resource: t.kind, resourceId: t.item.id, principal, principalId, role });
}

const hasGrant = (m: Model, t: Target, principal: Grant['principal'], principalId: string) =>
  m.grants.some((g) => g.resource === t.kind && g.resourceId === t.item.id && g.principal === principal && g.principalId === principalId);

/** A member's own read of the target: the item when they reach it, 404 (content they do not reach, or not a member), 403 (a site below read). */
async function expectOwnRead(m: Model, r: Real, t: Target, member: Member): Promise<void> {
  const api = r.accounts.get(member.userId)!.api;
  if (t.kind === 'site') {
    const res = await api.get(`/orgs/${r.admin.organizationId}/sites/${t.item.id}`);
    const role = roleOnSite(m, member, t.item);
    const expected = member.removed ? 404 : role === null ? 403 : t.item.deleted ? 404 : 200;
    expectStatus(res, expected, `getSiteById as a member (${role ?? 'no role'})`);
    if (expected === 200) expect(res.body.title).toBe(t.item.title);
    return;
  }
  const res = await api.get(`/${t.kind === 'space' ? 'spaces' : 'collections'}/${t.item.id}`);
  const role = roleOn(m, member, t.kind, t.item);
  expectStatus(res, role === null || t.item.deleted ? 404 : 200, `get ${t.kind} as a member (${role ?? 'no role'})`);
  if (res.status === 200) {
    expect(res.body.title).toBe(t.item.title);
    expect(res.body.defaultLevel).toBe(t.item.defaultLevel);
  }
}

const anyMember = (m: Readonly<Model>) => m.members.length > 0;
const liveTeams = (m: Readonly<Model>) => m.teams.filter((t) => !t.deleted);

/** The 404 a removed user or a deleted resource gets when given a role; 204 otherwise. */
const grantStatus = (t: Target, unknownPrincipal: boolean) => (t.item.deleted || unknownPrincipal ? 404 : 204);

export const grantCommands: fc.Arbitrary<Cmd>[] = [
  fc.record({ kind: resource, n: fc.nat(), who: fc.nat(), role: nullableRole, how: fc.constantFrom('invite', 'update') }).map(({ kind, n, who, role: given, how }) =>
    command(`giveUserRole(${kind} #${n}, member #${who}, ${given}, ${how})`, (m) => hasResource(kind)(m) && anyMember(m), async (m, r) => {
      const t = targetOf(m, kind, n)!;
      const member = pick(m.members, who)!;
      const base = permissionsPath(r, t);
      const res: ApiResponse =
        how === 'invite' ? await r.admin.api.post(base, { role: given, users: [member.userId] }) : await r.admin.api.patch(`${base}/users/${member.userId}`, { role: given });
      expectStatus(res, grantStatus(t, member.removed), `give a user a role on a ${kind} (${how})`);
      if (res.status === 204) setGrant(m, t, 'user', member.userId, given);
      if (res.status === 404 && how === 'invite' && !t.item.deleted) expect(res.body.error.message).toContain('body.users[0]');
      await expectPermissions(m, r, t, true);
      await expectOwnRead(m, r, t, member);
    }),
  ),
  fc.record({ kind: resource, n: fc.nat(), team: fc.nat(), role: nullableRole, how: fc.constantFrom('invite', 'update') }).map(({ kind, n, team, role: given, how }) =>
    command(`giveTeamRole(${kind} #${n}, team #${team}, ${given}, ${how})`, (m) => hasResource(kind)(m) && m.teams.length > 0, async (m, r) => {
      const t = targetOf(m, kind, n)!;
      const picked = pick(m.teams, team)!;
      const base = permissionsPath(r, t);
      const res: ApiResponse =
        how === 'invite' ? await r.admin.api.post(base, { role: given, teams: [picked.id] }) : await r.admin.api.patch(`${base}/teams/${picked.id}`, { role: given });
      expectStatus(res, grantStatus(t, picked.deleted), `give a team a role on a ${kind} (${how})`);
      if (res.status === 204) setGrant(m, t, 'team', picked.id, given);
      await expectPermissions(m, r, t, true);
      const inTeam = m.members.find((x) => picked.members.includes(x.userId));
      if (inTeam) await expectOwnRead(m, r, t, inTeam);
    }),
  ),
  fc.record({ kind: resource, n: fc.nat(), who: fc.nat(), team: fc.boolean() }).map(({ kind, n, who, team }) =>
    command(`takeRoleAway(${kind} #${n}, ${team ? 'team' : 'member'} #${who})`, (m) => hasResource(kind)(m) && (team ? m.teams.length > 0 : anyMember(m)), async (m, r) => {
      const t = targetOf(m, kind, n)!;
      const principal = team ? 'team' : 'user';
      const id = team ? pick(m.teams, who)!.id : pick(m.members, who)!.userId;
      const res = await r.admin.api.delete(`${permissionsPath(r, t)}/${team ? 'teams' : 'users'}/${id}`);
      // 205 when a role was taken away, 204 when there was none (the public API's statuses).
      expectStatus(res, t.item.deleted ? 404 : hasGrant(m, t, principal, id) ? 205 : 204, `take a ${principal}'s role away on a ${kind}`);
      if (!t.item.deleted) setGrant(m, t, principal, id, null);
      await expectPermissions(m, r, t, true);
      const member = team ? undefined : pick(m.members, who);
      if (member) await expectOwnRead(m, r, t, member);
    }),
  ),
  fc.record({ kind: fc.constantFrom<'space' | 'collection'>('space', 'collection'), n: fc.nat(), level }).map(({ kind, n, level: l }) =>
    command(`setDefaultLevel(${kind} #${n}, ${l})`, hasResource(kind), async (m, r) => {
      const t = targetOf(m, kind, n) as { kind: 'space' | 'collection'; item: TreeItem };
      const res = await r.admin.api.patch(`/${kind === 'space' ? 'spaces' : 'collections'}/${t.item.id}`, { defaultLevel: l });
      expectStatus(res, t.item.deleted ? 404 : 200, `update a ${kind}'s defaultLevel`);
      if (res.status === 200) {
        t.item.defaultLevel = l;
        expect(res.body.defaultLevel).toBe(l);
      }
      await expectPermissions(m, r, t);
      // A collection's level reaches the spaces in it that inherit.
      const child = m.spaces.find((s) => !s.deleted && s.parent === t.item.id);
      if (child) await expectPermissions(m, r, { kind: 'space', item: child });
    }),
  ),
  fc.uniqueArray(fc.nat(), { maxLength: 3 }).map((picks) =>
    command(`createTeam(members ${JSON.stringify(picks)})`, () => true, async (m, r) => {
      const members = [...new Set(picks.map((n) => pick(live(m.members.map((x) => ({ ...x, deleted: x.removed }))), n)?.userId).filter((u): u is string => u !== undefined))];
      const res = await r.admin.api.put(`/orgs/${r.admin.organizationId}/teams`, { title: `Team ${m.teams.length + 1}`, members });
      expectStatus(res, 201, 'createTeam');
      m.teams.push({ id: res.body.id, members, deleted: false });
      expect(res.body.members).toBe(members.length);
    }),
  ),
  fc.record({ team: fc.nat(), who: fc.nat(), join: fc.boolean() }).map(({ team, who, join }) =>
    command(`${join ? 'joinTeam' : 'leaveTeam'}(team #${team}, member #${who})`, (m) => liveTeams(m).length > 0 && m.members.some((x) => !x.removed), async (m, r) => {
      const picked = pick(liveTeams(m), team)!;
      const member = pick(m.members.filter((x) => !x.removed), who)!;
      const path = `/orgs/${r.admin.organizationId}/teams/${picked.id}/members/${member.userId}`;
      const res = join ? await r.admin.api.put(path, {}) : await r.admin.api.delete(path);
      expectStatus(res, 204, join ? 'addMemberToOrganizationTeam' : 'removeMemberFromOrganizationTeam');
      picked.members = picked.members.filter((u) => u !== member.userId);
      if (join) picked.members.push(member.userId);
      const team_ = await r.admin.api.get(`/orgs/${r.admin.organizationId}/teams/${picked.id}`);
      expectStatus(team_, 200, 'getTeam');
      expect(team_.body.members).toBe(picked.members.length);
      // What the team is given reaches them, or no longer does.
      const given = m.grants.find((g) => g.principal === 'team' && g.principalId === picked.id);
      const t = given && targetOf(m, given.resource, (given.resource === 'site' ? m.sites : given.resource === 'space' ? m.spaces : m.collections).findIndex((x) => x.id === given.resourceId));
      if (t) {
        await expectPermissions(m, r, t);
        await expectOwnRead(m, r, t, member);
      }
    }),
  ),
  fc.nat().map((team) =>
    command(`deleteTeam(team #${team})`, (m) => liveTeams(m).length > 0, async (m, r) => {
      const picked = pick(liveTeams(m), team)!;
      expectStatus(await r.admin.api.delete(`/orgs/${r.admin.organizationId}/teams/${picked.id}`), 204, 'deleteTeam');
      picked.deleted = true;
      // Its grants go with it (docs/permissions.md, "Consistency").
      const touched = m.grants.filter((g) => g.principal === 'team' && g.principalId === picked.id);
      m.grants = m.grants.filter((g) => !(g.principal === 'team' && g.principalId === picked.id));
      expectStatus(await r.admin.api.get(`/orgs/${r.admin.organizationId}/teams/${picked.id}`), 404, 'getTeam (deleted)');
      const first = touched[0];
      if (first) await expectPermissions(m, r, targetOf(m, first.resource, (first.resource === 'site' ? m.sites : first.resource === 'space' ? m.spaces : m.collections).findIndex((x) => x.id === first.resourceId))!);
    }),
  ),
  fc.record({ kind: fc.constantFrom<'space' | 'collection' | 'organization'>('space', 'collection', 'organization'), n: fc.nat(), role: nullableRole }).map(({ kind, n, role: given }) =>
    command(
      `acceptInvite(${kind}${kind === 'organization' ? '' : ` #${n}`}, ${given})`,
      (m) => kind === 'organization' || live(kind === 'space' ? m.spaces : m.collections).length > 0,
      async (m, r) => {
        const item = kind === 'organization' ? undefined : pick(live<TreeItem>(kind === 'space' ? m.spaces : m.collections), n)!;
        // A content invite gives its level (null would give nothing: a role is asked for); an organization invite its role (null: a guest).
        const levelGiven = given ?? 'read';
        const body = item ? { [kind]: item.id, level: levelGiven } : { role: given };
        const created = await r.admin.api.post(`/orgs/${r.admin.organizationId}/link-invites`, body);
        expectStatus(created, 201, 'createOrganizationInvite');
        // Someone of another organization (an admin there) joins with it.
        const outsider = await r.h.newAdmin();
        if (item) expectStatus(await outsider.api.get(`/${kind}s/${item.id}`), 404, `get ${kind} before joining`);
        const joined = await outsider.api.post(`/orgs/${r.admin.organizationId}/invites/${created.body.id}`);
        expectStatus(joined, 200, 'joinOrganizationWithInvite');
        r.accounts.set(outsider.userId, { ...outsider, organizationId: r.admin.organizationId });
        const member: Member = { userId: outsider.userId, role: item ? null : given, removed: false };
        m.members.push(member);
        const me = await r.admin.api.get(`/orgs/${r.admin.organizationId}/members/${outsider.userId}`);
        expectStatus(me, 200, 'getMemberInOrganizationById (joined)');
        expect(me.body.role ?? null).toBe(member.role);
        if (item) {
          const t: Target = { kind: kind as 'space' | 'collection', item };
          setGrant(m, t, 'user', outsider.userId, levelGiven);
          await expectPermissions(m, r, t);
          await expectOwnRead(m, r, t, member);
        }
      },
    ),
  ),
  fc.record({ n: fc.nat(), who: fc.nat() }).map(({ n, who }) =>
    command(`acrossOrganizations(space #${n}, member #${who})`, (m) => m.spaces.length > 0, async (m, r) => {
      const space = pick(m.spaces, n)!;
      if (!r.otherSpace) {
        const made = await r.other.api.post(`/orgs/${r.other.organizationId}/spaces`, { title: 'Theirs' });
        expectStatus(made, 201, 'createSpace in the other organization');
        r.otherSpace = made.body.id as string;
      }
      // The other organization's admin reaches nothing here, and cannot be given a role here.
      expectStatus(await r.other.api.get(`/spaces/${space.id}`), 404, "get a space of another organization");
      expectStatus(await r.other.api.get(`/orgs/${r.admin.organizationId}/members`), 404, 'list the members of another organization');
      const refused = await r.admin.api.post(`/spaces/${space.id}/permissions`, { role: 'admin', users: [r.other.userId] });
      expectStatus(refused, 404, 'give a role to someone of another organization'); // a deleted space is not found either
      if (!space.deleted) expect(refused.body.error.message).toContain('body.users[0]');
      await expectPermissions(m, r, { kind: 'space', item: space });
      // Nobody here reaches the other organization's space, whatever their role here.
      const member = pick(m.members, who);
      const api = member ? r.accounts.get(member.userId)!.api : r.admin.api;
      expectStatus(await api.get(`/spaces/${r.otherSpace}`), 404, "a member gets the other organization's space");
    }),
  ),
  fc.record({ kind: resource, n: fc.nat(), who: fc.nat() }).map(({ kind, n, who }) =>
    command(`memberReads(${kind} #${n}, member #${who})`, (m) => hasResource(kind)(m) && anyMember(m), async (m, r) => {
      const t = targetOf(m, kind, n)!;
      await expectOwnRead(m, r, t, pick(m.members, who)!);
      await expectPermissions(m, r, t);
    }),
  ),
];
