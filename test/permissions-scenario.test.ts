// Who may see what, walked as an admin and members would (issue "Who may see what"): a private space, a
// team given edit, a guest given read on one space, a member of neither who sees nothing of it (404 on
// read, absent from lists, search and counts), then the grants taken away.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

/** A space with one merged page holding `markdown`. */
async function spaceWithPage(admin: Account, title: string, markdown: string): Promise<string> {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title });
  expect(space.status).toBe(201);
  const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`);
  expect(cr.status).toBe(201);
  const content = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title, document: { markdown } }],
  });
  expect(content.status).toBe(200);
  expect((await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  return space.body.id;
}

const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

describe('permissions: a private space, a team, a guest and a member of neither', () => {
  it('gives exactly those granted (and admins) the space, and takes it back', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const writer = await h.current.newMember(org, 'read');
    const bystander = await h.current.newMember(org, 'edit');
    const guest = await h.current.newMember(org, null);

    // The admin makes "Salaries" private (defaultLevel null) and keeps "Handbook" open to members.
    const salaries = await spaceWithPage(admin, 'Salaries', 'Payroll bands for every grade.');
    const handbook = await spaceWithPage(admin, 'Handbook', 'Payroll questions go to finance.');
    const made = await admin.api.patch(`/spaces/${salaries}`, { defaultLevel: null });
    expect(made.status).toBe(200);
    expect(made.body.defaultLevel).toBeNull();
    expect(made.body.permissions.admin).toBe(true);

    // Nobody but the admin reaches it yet.
    for (const member of [writer, bystander, guest]) expect((await member.api.get(`/spaces/${salaries}`)).status).toBe(404);

    // A team with the writer in it is given edit; the guest is given read on this one space.
    const team = await admin.api.put(`/orgs/${org}/teams`, { title: 'Finance', members: [writer.userId] });
    expect(team.status).toBe(201);
    expect((await admin.api.post(`/spaces/${salaries}/permissions`, { role: 'edit', teams: [team.body.id] })).status).toBe(204);
    expect((await admin.api.post(`/spaces/${salaries}/permissions`, { role: 'read', users: [guest.userId] })).status).toBe(204);

    // The writer edits through the team; the guest reads and nothing more.
    const asWriter = await writer.api.get(`/spaces/${salaries}`);
    expect(asWriter.status).toBe(200);
    expect(asWriter.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect((await writer.api.patch(`/spaces/${salaries}`, { title: 'Salaries 2026' })).status).toBe(200);
    const asGuest = await guest.api.get(`/spaces/${salaries}`);
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.permissions).toMatchObject({ view: true, comment: false, edit: false });
    expect((await guest.api.patch(`/spaces/${salaries}`, { title: 'x' })).status).toBe(403);
    // The guest reaches that space only: not the handbook every member reads.
    expect((await guest.api.get(`/spaces/${handbook}`)).status).toBe(404);
    expect(ids(await guest.api.get(`/orgs/${org}/spaces`))).toEqual([salaries]);

    // The member of neither: 404 on read and on its content, absent from lists, search and counts.
    expect((await bystander.api.get(`/spaces/${salaries}`)).status).toBe(404);
    expect((await bystander.api.get(`/spaces/${salaries}/content`)).status).toBe(404);
    expect((await bystander.api.get(`/spaces/${salaries}/change-requests`)).status).toBe(404);
    expect((await bystander.api.get(`/spaces/${salaries}/comments`)).status).toBe(404);
    const listed = await bystander.api.get(`/orgs/${org}/spaces`);
    expect(listed.status).toBe(200);
    expect(ids(listed)).toEqual([handbook]);
    expect(listed.body.count).toBe(1);
    const searched = await bystander.api.get(`/orgs/${org}/search`, { query: 'payroll' });
    expect(searched.status).toBe(200);
    expect(ids(searched)).toEqual([handbook]);
    const teams = await bystander.api.get(`/orgs/${org}/teams`);
    expect(teams.status).toBe(200);
    expect(teams.body.items[0].spaces).toBe(0);
    const writerSeenByBystander = await bystander.api.get(`/orgs/${org}/members/${writer.userId}`);
    expect(writerSeenByBystander.body.spaces).toBe(1);
    const writerSpaces = await bystander.api.get(`/orgs/${org}/members/${writer.userId}/spaces`);
    expect(writerSpaces.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([handbook]);
    const crs = await bystander.api.get(`/orgs/${org}/change-requests`, { status: 'merged' });
    expect(crs.status).toBe(200);
    expect(crs.body.items.map((c: { space: string }) => c.space)).not.toContain(salaries);

    // Those granted see it counted and listed, with their role.
    expect((await writer.api.get(`/orgs/${org}/teams/${team.body.id}`)).body.spaces).toBe(1);
    expect((await admin.api.get(`/orgs/${org}/members/${writer.userId}`)).body.spaces).toBe(2);
    expect((await admin.api.get(`/orgs/${org}/members/${guest.userId}`)).body.spaces).toBe(1);
    const writerList = await admin.api.get(`/orgs/${org}/members/${writer.userId}/spaces`);
    expect(writerList.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ permission: 'edit', space: expect.objectContaining({ id: salaries }) })]),
    );
    const searchedByWriter = await writer.api.get(`/orgs/${org}/search`, { query: 'payroll' });
    expect(ids(searchedByWriter).sort()).toEqual([handbook, salaries].sort());

    // The permission lists say who was given what, and who reaches it in the end.
    const users = await admin.api.get(`/spaces/${salaries}/permissions/users`);
    expect(users.body.items).toEqual([expect.objectContaining({ permission: 'read', user: expect.objectContaining({ id: guest.userId }) })]);
    const teamList = await admin.api.get(`/spaces/${salaries}/permissions/teams`);
    expect(teamList.body.items).toEqual([expect.objectContaining({ permission: 'edit', team: expect.objectContaining({ id: team.body.id, spaces: 1 }) })]);
    const everyone = await admin.api.get(`/spaces/${salaries}/permissions/aggregate`);
    const roles = Object.fromEntries(everyone.body.items.map((i: { user: { id: string }; permission: string }) => [i.user.id, i.permission]));
    expect(roles).toEqual({ [admin.userId]: 'admin', [writer.userId]: 'edit', [guest.userId]: 'read' });
    const editors = await admin.api.get(`/spaces/${salaries}/permissions/aggregate`, { role: 'edit' });
    expect(editors.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([writer.userId]);

    // The grants taken away: the guest and the team's members are out again.
    expect((await admin.api.delete(`/spaces/${salaries}/permissions/users/${guest.userId}`)).status).toBe(205);
    expect((await admin.api.delete(`/spaces/${salaries}/permissions/users/${guest.userId}`)).status).toBe(204);
    expect((await admin.api.delete(`/spaces/${salaries}/permissions/teams/${team.body.id}`)).status).toBe(205);
    expect((await guest.api.get(`/spaces/${salaries}`)).status).toBe(404);
    expect((await writer.api.get(`/spaces/${salaries}`)).status).toBe(404);
    expect((await guest.api.get(`/orgs/${org}/spaces`)).body).toMatchObject({ items: [], count: 0 });
    expect((await admin.api.get(`/orgs/${org}/teams/${team.body.id}`)).body.spaces).toBe(0);
  });

  it('a collection grant reaches the spaces in it, and stops when a space leaves it', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const member = await h.current.newMember(org, 'read');
    const collection = await admin.api.post(`/orgs/${org}/collections`, { title: 'Finance' });
    expect((await admin.api.patch(`/collections/${collection.body.id}`, { defaultLevel: null })).status).toBe(200);
    const inside = await admin.api.post(`/orgs/${org}/spaces`, { title: 'Inside', parent: collection.body.id });
    expect(inside.body.defaultLevel).toBe('inherit');
    // The collection gives members nothing, and the space inherits that.
    expect((await member.api.get(`/spaces/${inside.body.id}`)).status).toBe(404);
    expect((await member.api.get(`/collections/${collection.body.id}`)).status).toBe(404);

    expect((await admin.api.patch(`/collections/${collection.body.id}/permissions/users/${member.userId}`, { role: 'edit' })).status).toBe(204);
    expect((await member.api.get(`/collections/${collection.body.id}`)).body.permissions.view).toBe(true);
    const reached = await member.api.get(`/spaces/${inside.body.id}`);
    expect(reached.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect(ids(await member.api.get(`/collections/${collection.body.id}/spaces`))).toEqual([inside.body.id]);
    const aggregate = await admin.api.get(`/spaces/${inside.body.id}/permissions/aggregate`);
    expect(aggregate.body.items.map((i: { user: { id: string }; permission: string }) => [i.user.id, i.permission]).sort()).toEqual(
      [[admin.userId, 'admin'], [member.userId, 'edit']].sort(),
    );

    // Moved out to the top level, where it inherits the organization role: read, no more edit.
    const moved = await admin.api.post(`/spaces/${inside.body.id}/move`, { parent: null });
    expect(moved.status).toBe(200);
    expect((await member.api.get(`/spaces/${inside.body.id}`)).body.permissions).toMatchObject({ view: true, edit: false });
  });

  it('refuses unknown users and teams by name, and non-admins', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const editor = await h.current.newMember(org, 'edit');
    const stranger = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'S' })).body.id;
    const unknown = await admin.api.post(`/spaces/${space}/permissions`, { role: 'read', users: [editor.userId, stranger.userId] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.users[1]');
    expect((await admin.api.get(`/spaces/${space}/permissions/users`)).body.count).toBe(0);
    expect((await admin.api.patch(`/spaces/${space}/permissions/teams/tem_unknown`, { role: 'read' })).status).toBe(404);
    expect((await admin.api.post(`/spaces/${space}/permissions`, { role: 'read' })).status).toBe(400);
    expect((await editor.api.post(`/spaces/${space}/permissions`, { role: 'admin', users: [editor.userId] })).status).toBe(403);
  });

  it('gives site grants to members and teams, raising their role on that site', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const reader = await h.current.newMember(org, 'read');
    const site = await admin.api.post(`/orgs/${org}/sites`, { title: 'Docs' });
    expect(site.status).toBe(201);
    const siteId = site.body.id;
    expect((await reader.api.patch(`/orgs/${org}/sites/${siteId}`, { title: 'Mine' })).status).toBe(403);
    expect((await admin.api.patch(`/orgs/${org}/sites/${siteId}/permissions/users/${reader.userId}`, { role: 'admin' })).status).toBe(204);
    expect((await reader.api.patch(`/orgs/${org}/sites/${siteId}`, { title: 'Mine' })).status).toBe(200);
    const aggregate = await admin.api.get(`/orgs/${org}/sites/${siteId}/permissions/aggregate`);
    const mine = aggregate.body.items.find((i: { user: { id: string } }) => i.user.id === reader.userId);
    expect(mine).toMatchObject({ permission: 'admin', origin: { type: 'site', site: siteId, reason: 'member' }, disabled: false });
    expect((await admin.api.get(`/orgs/${org}/sites/${siteId}/permissions/users`)).body.items).toEqual([
      expect.objectContaining({ permission: 'admin', user: expect.objectContaining({ id: reader.userId }) }),
    ]);
    expect((await admin.api.delete(`/orgs/${org}/sites/${siteId}/permissions/users/${reader.userId}`)).status).toBe(205);
    expect((await reader.api.patch(`/orgs/${org}/sites/${siteId}`, { title: 'Mine again' })).status).toBe(403);
  });
});
