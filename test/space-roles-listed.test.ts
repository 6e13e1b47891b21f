// The lists of spaces compute each row's role with the chains of collections and the grants read once per
// statement (server/auth/space-reach.ts spaceRoleOnRows), not by space_role_of per row: the same role as the
// space's own read, for every kind of member, over nested collections with levels and grants of users and
// teams on spaces and collections.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

type Listed = { id: string; permissions: Record<string, boolean> };

describe('the role listed with each space', () => {
  it('is the role the space read gives, for admins, members, team members and guests', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const reader = await h.current.newMember(org, 'read');
    const editor = await h.current.newMember(org, 'edit');
    const teamed = await h.current.newMember(org, 'read');
    const guest = await h.current.newMember(org, null);
    const teamGuest = await h.current.newMember(org, null);
    const ok = async (res: Promise<{ status: number; body: any }>, status = 200) => {
      const r = await res;
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      return r.body;
    };

    // Outer (edit) > middle (inherit) > inner (no level: nothing for members); a second top-level one (read);
    // plain > plain inside, both inheriting.
    const outer = (await ok(admin.api.post(`/orgs/${org}/collections`, { title: 'Outer' }), 201)).id;
    const middle = (await ok(admin.api.post(`/orgs/${org}/collections`, { title: 'Middle', parent: outer }), 201)).id;
    const inner = (await ok(admin.api.post(`/orgs/${org}/collections`, { title: 'Inner', parent: middle }), 201)).id;
    const other = (await ok(admin.api.post(`/orgs/${org}/collections`, { title: 'Other' }), 201)).id;
    // Inheriting all the way up: the organization role.
    const plain = (await ok(admin.api.post(`/orgs/${org}/collections`, { title: 'Plain' }), 201)).id;
    const plainInside = (await ok(admin.api.post(`/orgs/${org}/collections`, { title: 'Plain inside', parent: plain }), 201)).id;
    await ok(admin.api.patch(`/collections/${outer}`, { defaultLevel: 'edit' }));
    await ok(admin.api.patch(`/collections/${inner}`, { defaultLevel: null }));
    await ok(admin.api.patch(`/collections/${other}`, { defaultLevel: 'read' }));
    const space = async (parent?: string) => (await ok(admin.api.post(`/orgs/${org}/spaces`, parent ? { parent } : {}), 201)).id as string;
    const inOuter = await space(outer);
    const inMiddle = await space(middle);
    const inInner = await space(inner);
    const inInnerToo = await space(inner);
    const inOther = await space(other);
    const topLevel = await space();
    const inPlain = await space(plainInside);
    const privateInOuter = await space(outer);
    await h.current.setSpaceVisibility(privateInOuter, 'private');
    await ok(admin.api.patch(`/spaces/${inMiddle}`, { defaultLevel: 'comment' }));
    await ok(admin.api.patch(`/spaces/${topLevel}`, { defaultLevel: null }));

    // Grants: a team (teamed, teamGuest) with review on the middle collection, the reader with admin on one
    // space of the inner one, the guest with read on the other collection and comment on one space.
    const team = await ok(admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: [teamed.userId, teamGuest.userId] }), 201);
    await ok(admin.api.post(`/collections/${middle}/permissions`, { role: 'review', teams: [team.id] }), 204);
    await ok(admin.api.post(`/spaces/${inInner}/permissions`, { role: 'admin', users: [reader.userId] }), 204);
    await ok(admin.api.post(`/collections/${other}/permissions`, { role: 'read', users: [guest.userId] }), 204);
    await ok(admin.api.post(`/spaces/${topLevel}/permissions`, { role: 'comment', users: [guest.userId] }), 204);

    const all = [inOuter, inMiddle, inInner, inInnerToo, inOther, topLevel, privateInOuter, inPlain];
    for (const account of [admin, reader, editor, teamed, guest, teamGuest]) {
      // What the space's own read answers (404: not visible).
      const expected = new Map<string, Record<string, boolean>>();
      for (const id of all) {
        const read = await account.api.get(`/spaces/${id}`);
        expect([200, 404], id).toContain(read.status);
        if (read.status === 200) expected.set(id, read.body.permissions);
      }
      const listed = (await ok(account.api.get(`/orgs/${org}/spaces`, { limit: 100 }))).items as Listed[];
      const ours = listed.filter((s) => all.includes(s.id));
      expect(new Map(ours.map((s) => [s.id, s.permissions]))).toEqual(expected);
      // The admin's list of this member's spaces: the member's permission on each is their role.
      const memberSpaces = (await ok(admin.api.get(`/orgs/${org}/members/${account.userId}/spaces`, { limit: 100 }))).items as { space: Listed }[];
      expect(new Set(memberSpaces.map((s) => s.space.id).filter((id) => all.includes(id)))).toEqual(new Set(expected.keys()));
      if (account === guest || account === teamGuest) {
        // A guest cannot list members' spaces, their own included.
        expect((await account.api.get(`/orgs/${org}/members/${account.userId}/spaces`)).status).toBe(403);
      } else if (account !== admin) {
        // Listing their own: the space as they see it.
        const own = (await ok(account.api.get(`/orgs/${org}/members/${account.userId}/spaces`, { limit: 100 }))).items as { space: Listed }[];
        expect(new Map(own.filter((s) => all.includes(s.space.id)).map((s) => [s.space.id, s.space.permissions]))).toEqual(expected);
      }
    }
    // The guests see only what their grants reach, the team guest through the middle collection.
    expect((await guest.api.get(`/spaces/${inOther}`)).status).toBe(200);
    expect((await teamGuest.api.get(`/spaces/${inInner}`)).body.permissions).toMatchObject({ view: true, edit: true });
    expect((await editor.api.get(`/spaces/${inPlain}`)).body.permissions).toMatchObject({ edit: true, admin: false });
  }, 60_000);
});
