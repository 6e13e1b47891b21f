// Commands on members and what their roles let them do: members added with a role (or none: a guest),
// their role changed, removed; each check reads the member and the list back, and members act on the
// organization and its content, answered by the role the model gives them.
import fc from 'fast-check';
import { expect } from 'vitest';
import { always, command, expectedAccess, expectStatus, live, newSpaceItem, pick, roleOrder, word, type Cmd, type Member, type Model, type Real, type Role } from './model.js';
import { expectSpaceList } from './tree.js';

const role = fc.option(fc.constantFrom(...roleOrder), { nil: null });
const hasMembers = (m: Readonly<Model>) => m.members.length > 0;

async function expectMember(r: Real, member: Member): Promise<void> {
  const res = await r.admin.api.get(`/orgs/${r.admin.organizationId}/members/${member.userId}`);
  if (member.removed) return expectStatus(res, 404, `GET removed member ${member.userId}`);
  expectStatus(res, 200, `GET member ${member.userId}`);
  expect(res.body.role ?? null).toBe(member.role);
}

async function expectMemberList(m: Model, r: Real): Promise<void> {
  const res = await r.admin.api.get(`/orgs/${r.admin.organizationId}/members`, { limit: 100 });
  expectStatus(res, 200, 'listMembersInOrganizationById');
  const listed = res.body.items.map((x: { id: string; role?: string | null }) => [x.id, x.role ?? null]).sort();
  const expected = [[r.admin.userId, 'admin'], ...m.members.filter((x) => !x.removed).map((x) => [x.userId, x.role])].sort();
  expect(listed).toEqual(expected);
  expect(res.body.count).toBe(expected.length);
}

/** What a member tries: each with the access rule and role the operation declares. */
type Action = { kind: 'createSpace' } | { kind: 'listSites' } | { kind: 'readSpace' | 'commentOnSpace' | 'openChangeRequest'; space: number };
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constantFrom<Action>({ kind: 'createSpace' }, { kind: 'listSites' }),
  fc.record({ kind: fc.constantFrom('readSpace' as const, 'commentOnSpace' as const, 'openChangeRequest' as const), space: fc.nat() }),
);

async function act(m: Model, r: Real, member: Member, a: Action, text: string): Promise<void> {
  const api = r.accounts.get(member.userId)!.api;
  const org = r.admin.organizationId;
  if (a.kind === 'createSpace') {
    const res = await api.post(`/orgs/${org}/spaces`, { title: text });
    expectStatus(res, expectedAccess(m, member, 'create', 201), 'createSpace as a member');
    if (res.status === 201) m.spaces.push(newSpaceItem(res.body.id, text, null));
    return expectSpaceList(m, r);
  }
  if (a.kind === 'listSites') {
    const res = await api.get(`/orgs/${org}/sites`, { limit: 100 });
    expectStatus(res, expectedAccess(m, member, 'read', 200), 'listSites as a member');
    if (res.status === 200) expect(res.body.count).toBe(live(m.sites).length);
    return;
  }
  const space = pick(m.spaces, a.space);
  if (!space) return;
  const want = (needed: Role, success: number) => (space.deleted && !member.removed ? 404 : expectedAccess(m, member, needed, success, space));
  if (a.kind === 'readSpace') {
    const res = await api.get(`/spaces/${space.id}`);
    expectStatus(res, want('read', 200), 'getSpaceById as a member');
    if (res.status === 200) expect(res.body.title).toBe(space.title);
  } else if (a.kind === 'commentOnSpace') {
    const res = await api.post(`/spaces/${space.id}/comments`, { body: { markdown: text } });
    expectStatus(res, want('comment', 200), 'postCommentInSpace as a member');
    if (res.status === 200) space.comments.push({ id: res.body.id, text, replies: 0, deleted: false });
  } else {
    const res = await api.post(`/spaces/${space.id}/change-requests`, { subject: text });
    expectStatus(res, want('edit', 201), 'createChangeRequest as a member');
    if (res.status === 201) {
      const number = space.changeRequests.length + 1;
      expect(res.body.number).toBe(number);
      space.changeRequests.push({ id: res.body.id, number, subject: text, status: 'open', base: [...space.pages], added: [] });
    }
  }
}

export const memberCommands: fc.Arbitrary<Cmd>[] = [
  role.map((x) =>
    command(`addMember(${x})`, always, async (m, r) => {
      const account = await r.h.newMember(r.admin.organizationId, x);
      r.accounts.set(account.userId, account);
      const member = { userId: account.userId, role: x, removed: false };
      m.members.push(member);
      await expectMember(r, member);
      await expectMemberList(m, r);
    }),
  ),
  fc.tuple(fc.nat(), role).map(([n, x]) =>
    command(`updateMemberRole(#${n}, ${x})`, hasMembers, async (m, r) => {
      const member = pick(m.members, n)!;
      const res = await r.admin.api.patch(`/orgs/${r.admin.organizationId}/members/${member.userId}`, { role: x });
      expectStatus(res, member.removed ? 404 : 200, 'updateMemberInOrganizationById');
      if (!member.removed) member.role = x;
      await expectMember(r, member);
      await expectMemberList(m, r);
    }),
  ),
  fc.nat().map((n) =>
    command(`removeMember(#${n})`, hasMembers, async (m, r) => {
      const member = pick(m.members, n)!;
      const res = await r.admin.api.delete(`/orgs/${r.admin.organizationId}/members/${member.userId}`);
      // Documented: no content also when the user is no longer a member.
      expectStatus(res, 204, 'removeMemberFromOrganizationById');
      member.removed = true;
      // Their grants go with their membership (docs/permissions.md, "Consistency").
      m.grants = m.grants.filter((g) => !(g.principal === 'user' && g.principalId === member.userId));
      for (const t of m.teams) t.members = t.members.filter((u) => u !== member.userId);
      await expectMember(r, member);
      await expectMemberList(m, r);
    }),
  ),
  fc.tuple(fc.nat(), action, word).map(([n, a, text]) =>
    command(`memberActs(#${n}, ${JSON.stringify(a)}, ${JSON.stringify(text)})`, hasMembers, async (m, r) => act(m, r, pick(m.members, n)!, a, text)),
  ),
];
