// The `spaces` counts of members and teams (server/auth/space-reach.ts), computed set-wise for a whole page
// (in the viewer's sight for a long page, row by row for a short one), against the rule they stand for,
// asked of the database space by space as it was before (SQL `space_role_of` on every live space, for the
// member and for the viewer: docs/permissions.md, a count never tells of a space its reader cannot see).
// The workspace mixes what the rule turns on: collection levels inherited or not (nothing, a role), spaces
// in a collection or not, grants to users and to teams on spaces and on collections around them, guests,
// disabled members, a deleted space.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members } from '../server/db/schema/index.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

/** The spaces the member can see that the viewer can see too, space by space (the rule before the change). */
async function memberOracle(organizationId: string, viewerId: string): Promise<Map<string, number>> {
  const rows = (await h.current.db.execute(sql`SELECT m.user_id, (SELECT count(*) FROM spaces s
      LEFT JOIN members vm ON vm.organization_id = s.organization_id AND vm.user_id = ${viewerId} AND NOT vm.disabled
      WHERE s.organization_id = m.organization_id AND s.deleted_at IS NULL
        AND space_role_of(s, m.user_id, true, m.role) IS NOT NULL
        AND space_role_of(s, ${viewerId}, vm.user_id IS NOT NULL, vm.role) IS NOT NULL)::int AS n
    FROM members m WHERE m.organization_id = ${organizationId}`)) as unknown as { rows?: { user_id: string; n: number }[] } & { user_id: string; n: number }[];
  return new Map((rows.rows ?? rows).map((r) => [r.user_id, Number(r.n)]));
}

/** The spaces a team's grants reach that the viewer can see, space by space (the rule before the change). */
async function teamOracle(organizationId: string, viewerId: string): Promise<Map<string, number>> {
  const rows = (await h.current.db.execute(sql`SELECT t.id, (SELECT count(*) FROM spaces s
      LEFT JOIN members vm ON vm.organization_id = s.organization_id AND vm.user_id = ${viewerId} AND NOT vm.disabled
      WHERE s.organization_id = t.organization_id AND s.deleted_at IS NULL
        AND (EXISTS (SELECT 1 FROM content_grants g WHERE g.team_id = t.id AND g.space_id = s.id)
          OR (s.visibility = 'in-collection'
            AND EXISTS (SELECT 1 FROM content_grants g WHERE g.team_id = t.id AND g.collection_id = ANY (collection_chain_ids(s.parent_id)))))
        AND space_role_of(s, ${viewerId}, vm.user_id IS NOT NULL, vm.role) IS NOT NULL)::int AS n
    FROM teams t WHERE t.organization_id = ${organizationId}`)) as unknown as { rows?: { id: string; n: number }[] } & { id: string; n: number }[];
  return new Map((rows.rows ?? rows).map((r) => [r.id, Number(r.n)]));
}

/** The live spaces of the organization `userId` can see, by id, space by space (the rule before the change). */
async function spacesOracle(organizationId: string, userId: string, asMember = false): Promise<string[]> {
  const rows = (await h.current.db.execute(sql`SELECT s.id FROM spaces s
      LEFT JOIN members vm ON vm.organization_id = s.organization_id AND vm.user_id = ${userId} AND (${asMember} OR NOT vm.disabled)
      WHERE s.organization_id = ${organizationId} AND s.deleted_at IS NULL AND space_role_of(s, ${userId}, vm.user_id IS NOT NULL, vm.role) IS NOT NULL
      ORDER BY s.id`)) as unknown as { rows?: { id: string }[] } & { id: string }[];
  return (rows.rows ?? rows).map((r) => r.id);
}

describe('the spaces counts of members and teams', () => {
  it('count, for every viewer, exactly the spaces the rule gives both the member (or team) and the viewer', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const reader = await h.current.newMember(org, 'read');
    const editor = await h.current.newMember(org, 'edit');
    const guest = await h.current.newMember(org, null);
    const otherGuest = await h.current.newMember(org, null);
    const disabledReader = await h.current.newMember(org, 'read');
    const disabledGuest = await h.current.newMember(org, null);
    const bystander = await h.current.newMember(org, 'comment');

    const ok = async <T extends { status: number }>(res: Promise<T>, status = 200): Promise<T> => {
      const done = await res;
      expect(done.status).toBe(status);
      return done;
    };
    const post = (path: string, body: unknown) => ok(admin.api.post(path, body), 201);
    const team = async (title: string, who: Account[]) => (await ok(admin.api.put(`/orgs/${org}/teams`, { title, members: who.map((a) => a.userId) }), 201)).body.id as string;
    const readers = await team('Readers', [reader, guest]);
    const outsiders = await team('Outsiders', [otherGuest, editor, disabledGuest]);
    const empty = await team('Empty', []);

    // Collections: closed (nothing for members) with an inheriting one inside, one giving read, one inheriting.
    const closed = (await post(`/orgs/${org}/collections`, { title: 'Closed' })).body.id;
    await ok(admin.api.patch(`/collections/${closed}`, { defaultLevel: null }));
    const insideClosed = (await post(`/orgs/${org}/collections`, { title: 'Inside closed', parent: closed })).body.id;
    const open = (await post(`/orgs/${org}/collections`, { title: 'Open' })).body.id;
    await ok(admin.api.patch(`/collections/${open}`, { defaultLevel: 'read' }));
    const plain = (await post(`/orgs/${org}/collections`, { title: 'Plain' })).body.id;

    const space = async (title: string, parent?: string) => (await post(`/orgs/${org}/spaces`, { title, ...(parent && { parent }) })).body.id as string;
    const deepClosed = await space('Deep in closed', insideClosed);
    const inClosed = await space('In closed', closed);
    const privateInClosed = await space('Private in closed', insideClosed);
    await h.current.setSpaceVisibility(privateInClosed, 'private');
    await ok(admin.api.patch(`/spaces/${privateInClosed}`, { defaultLevel: null }));
    const inOpen = await space('In open', open);
    const ownLevel = await space('Own level', plain);
    await ok(admin.api.patch(`/spaces/${ownLevel}`, { defaultLevel: 'comment' }));
    const nothingTop = await space('Nothing, top level');
    await ok(admin.api.patch(`/spaces/${nothingTop}`, { defaultLevel: null }));
    await space('Inherit, top level');
    const deleted = await space('Deleted', open);

    // Grants: a team on the closed collection (reaching the spaces in-collection inside it, at any depth),
    // users and teams on spaces, a grant on a space that is then deleted.
    await ok(admin.api.post(`/collections/${closed}/permissions`, { role: 'read', teams: [readers] }), 204);
    await ok(admin.api.post(`/collections/${insideClosed}/permissions`, { role: 'comment', users: [otherGuest.userId] }), 204);
    await ok(admin.api.post(`/spaces/${nothingTop}/permissions`, { role: 'edit', users: [guest.userId, disabledReader.userId] }), 204);
    await ok(admin.api.post(`/spaces/${privateInClosed}/permissions`, { role: 'read', users: [disabledGuest.userId], teams: [outsiders] }), 204);
    await ok(admin.api.post(`/spaces/${inOpen}/permissions`, { role: 'comment', teams: [outsiders] }), 204);
    await ok(admin.api.post(`/spaces/${deleted}/permissions`, { role: 'read', teams: [readers, outsiders] }), 204);
    await ok(admin.api.delete(`/spaces/${deleted}`), 204);
    void deepClosed;
    void inClosed;
    for (const who of [disabledReader, disabledGuest]) {
      await h.current.db.update(members).set({ disabled: true }).where(and(eq(members.organizationId, org), eq(members.userId, who.userId)));
    }

    const seen = new Set<number>();
    for (const viewer of [admin, reader, editor, guest, otherGuest, bystander]) {
      const expectedMembers = await memberOracle(org, viewer.userId);
      const expectedTeams = await teamOracle(org, viewer.userId);
      const listed = await viewer.api.get(`/orgs/${org}/members`);
      if (listed.status === 200) {
        expect(listed.body.items).toHaveLength(expectedMembers.size);
        for (const item of listed.body.items as { id: string; spaces: number }[]) {
          expect({ viewer: viewer.userId, member: item.id, spaces: item.spaces }).toEqual({ viewer: viewer.userId, member: item.id, spaces: expectedMembers.get(item.id) });
          seen.add(item.spaces);
        }
        // A short page counts row by row, a long one in the viewer's sight (SIGHT_FROM_ROWS): the same numbers.
        const short = await ok(viewer.api.get(`/orgs/${org}/members?limit=4`));
        expect(short.body.items).toHaveLength(4);
        for (const item of short.body.items as { id: string; spaces: number }[]) expect(item.spaces).toBe(expectedMembers.get(item.id));
        for (const one of [reader, guest, otherGuest, disabledReader]) {
          expect((await ok(viewer.api.get(`/orgs/${org}/members/${one.userId}`))).body.spaces).toBe(expectedMembers.get(one.userId));
        }
        for (const teamId of [readers, outsiders]) {
          const teamMembers = await ok(viewer.api.get(`/orgs/${org}/teams/${teamId}/members`));
          for (const item of teamMembers.body.items as { organization: { id: string; spaces: number } }[]) {
            expect(item.organization.spaces).toBe(expectedMembers.get(item.organization.id));
          }
        }
      } else expect(listed.status).toBe(403);
      // The lists of spaces: the viewer's own, and a member's as the viewer sees it.
      const own = await spacesOracle(org, viewer.userId);
      expect((await ok(viewer.api.get(`/orgs/${org}/spaces`))).body.items.map((i: { id: string }) => i.id)).toEqual(own);
      for (const one of [reader, guest, otherGuest, disabledReader, disabledGuest]) {
        const theirs = await viewer.api.get(`/orgs/${org}/members/${one.userId}/spaces?order=asc`);
        if (theirs.status !== 200) {
          expect(theirs.status).toBe(403);
          continue;
        }
        const both = (await spacesOracle(org, one.userId, true)).filter((id) => one === viewer || viewer === admin || own.includes(id));
        expect({ viewer: viewer.userId, member: one.userId, spaces: theirs.body.items.map((i: { space: { id: string } }) => i.space.id) }).toEqual({ viewer: viewer.userId, member: one.userId, spaces: both });
        expect(theirs.body.count).toBe(both.length);
      }
      const teams = await viewer.api.get(`/orgs/${org}/teams`);
      if (teams.status === 200) {
        expect(teams.body.items).toHaveLength(3);
        const shortTeams = await ok(viewer.api.get(`/orgs/${org}/teams?limit=2`));
        for (const item of [...teams.body.items, ...shortTeams.body.items] as { id: string; spaces: number }[]) {
          expect({ viewer: viewer.userId, team: item.id, spaces: item.spaces }).toEqual({ viewer: viewer.userId, team: item.id, spaces: expectedTeams.get(item.id) });
        }
      } else expect(teams.status).toBe(403);
    }
    expect(await teamOracle(org, admin.userId)).toEqual(new Map([[readers, 2], [outsiders, 2], [empty, 0]]));
    // The workspace gives counts of every kind: none, some, all.
    expect(seen.has(0) && seen.has(7) && [...seen].some((n) => n > 0 && n < 7)).toBe(true);
  });
});
