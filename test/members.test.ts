import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, users } from '../server/db/schema/index.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

/** An organization with five members of known names, emails, roles and join dates (admin joined first). */
async function populated() {
  const admin = await h.current.newAdmin();
  const org = admin.organizationId;
  const spec = [
    { name: 'Ada Lovelace', email: 'ada@analytical.example', role: 'edit' as const },
    { name: 'Grace Hopper', email: 'grace@navy.example', role: 'read' as const },
    { name: 'Alan Turing', email: 'alan@bletchley.example', role: null },
    { name: 'Katherine Johnson', email: 'kj@nasa.example', role: 'edit' as const },
  ];
  const people: Account[] = [];
  // Emails are unique across the database: each organization's people get their own tag.
  const tag = Math.random().toString(36).slice(2, 8);
  for (const [i, p] of spec.entries()) {
    const account = await h.current.newMember(org, p.role);
    await h.current.db.update(users).set({ displayName: p.name, email: p.email.replace('@', `+${tag}@`) }).where(eq(users.id, account.userId));
    await h.current.db
      .update(members)
      .set({ joinedAt: new Date(Date.UTC(2024, 0, i + 2)) })
      .where(and(eq(members.organizationId, org), eq(members.userId, account.userId)));
    people.push(account);
  }
  await h.current.db.update(members).set({ joinedAt: new Date(Date.UTC(2024, 0, 1)) }).where(and(eq(members.organizationId, org), eq(members.userId, admin.userId)));
  return { admin, org, people };
}

const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((m) => m.id);

describe('organization members list', () => {
  it('get /orgs/{organizationId}/members lists members by join date, newest first by default, and ascending on request', async () => {
    const { admin, org, people } = await populated();
    const desc = await admin.api.get(`/orgs/${org}/members`);
    expect(desc.status).toBe(200);
    expect(desc.body.count).toBe(5);
    expect(ids(desc)).toEqual([...people.map((p) => p.userId)].reverse().concat(admin.userId));
    const asc = await admin.api.get(`/orgs/${org}/members`, { order: 'asc' });
    expect(ids(asc)).toEqual([admin.userId, ...people.map((p) => p.userId)]);
    const first = desc.body.items.at(-1);
    expect(first).toMatchObject({ object: 'member', role: 'admin', disabled: false, sso: false, teams: 0, spaces: 0 });
    expect(first.joinedAt).toBe('2024-01-01T00:00:00.000Z');
    expect(first.lastSeenAt).toBeUndefined();
  });

  it('get /orgs/{organizationId}/members pages through the members with the total on every page', async () => {
    const { admin, org, people } = await populated();
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await admin.api.get(`/orgs/${org}/members`, { order: 'asc', limit: 2, ...(page && { page }) });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(5);
      seen.push(...ids(res));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([admin.userId, ...people.map((p) => p.userId)]);
    const bad = await admin.api.get(`/orgs/${org}/members`, { page: 'not-a-cursor' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('query.page');
  });

  it('get /orgs/{organizationId}/members filters by role (guest for no role) and by search in name or email', async () => {
    const { admin, org, people } = await populated();
    const editors = await admin.api.get(`/orgs/${org}/members`, { role: 'edit', order: 'asc' });
    expect(ids(editors)).toEqual([people[0].userId, people[3].userId]);
    expect(editors.body.count).toBe(2);
    const guests = await admin.api.get(`/orgs/${org}/members`, { role: 'guest' });
    expect(ids(guests)).toEqual([people[2].userId]);
    expect(guests.body.items[0].role).toBeNull();
    const byName = await admin.api.get(`/orgs/${org}/members`, { search: 'hopper' });
    expect(ids(byName)).toEqual([people[1].userId]);
    const byEmail = await admin.api.get(`/orgs/${org}/members`, { search: 'NASA.example' });
    expect(ids(byEmail)).toEqual([people[3].userId]);
    const wildcard = await admin.api.get(`/orgs/${org}/members`, { search: '%' });
    expect(wildcard.body.count).toBe(0);
    const both = await admin.api.get(`/orgs/${org}/members`, { search: 'a', role: 'edit', order: 'asc' });
    expect(ids(both)).toEqual([people[0].userId, people[3].userId]);
  });

  it('get /orgs/{organizationId}/members sorted by lastSeenAt lists only members seen, by last activity', async () => {
    const { admin, org, people } = await populated();
    await people[2].api.post(`/orgs/${org}/ping`);
    h.current.advanceClock(1000);
    await people[0].api.post(`/orgs/${org}/ping`);
    h.current.advanceClock(1000);
    await people[1].api.post(`/orgs/${org}/ping`);
    const res = await admin.api.get(`/orgs/${org}/members`, { sort: 'lastSeenAt' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(ids(res)).toEqual([people[1].userId, people[0].userId, people[2].userId]);
    const asc = await admin.api.get(`/orgs/${org}/members`, { sort: 'lastSeenAt', order: 'asc', limit: 2 });
    expect(ids(asc)).toEqual([people[2].userId, people[0].userId]);
    const rest = await admin.api.get(`/orgs/${org}/members`, { sort: 'lastSeenAt', order: 'asc', limit: 2, page: asc.body.next.page });
    expect(ids(rest)).toEqual([people[1].userId]);
    expect(rest.body.next).toBeUndefined();
    const byName = await admin.api.get(`/orgs/${org}/members`, { sort: 'name', order: 'asc' });
    expect(byName.body.items.map((m: { user: { displayName: string } }) => m.user.displayName).slice(0, 4)).toEqual([
      'Ada Lovelace',
      'Alan Turing',
      'Grace Hopper',
      'Katherine Johnson',
    ]);
  });

  it('get /orgs/{organizationId}/members returns 400 for a bad role or sort, 404 for an outsider', async () => {
    const { admin, org } = await populated();
    const badRole = await admin.api.get(`/orgs/${org}/members`, { role: 'owner' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.message).toContain('query.role');
    expect((await admin.api.get(`/orgs/${org}/members`, { sort: 'age' })).status).toBe(400);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${org}/members`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/members/{userId} returns a member with its counts, 404 for a non-member', async () => {
    const { admin, org, people } = await populated();
    await admin.api.post(`/orgs/${org}/spaces`, { title: 'One' });
    await admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: [people[0].userId] });
    const res = await admin.api.get(`/orgs/${org}/members/${people[0].userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: people[0].userId, role: 'edit', spaces: 1, teams: 1, user: { displayName: 'Ada Lovelace' } });
    expect(res.body.user.email).toMatch(/^ada\+\w+@analytical\.example$/);
    const guest = await admin.api.get(`/orgs/${org}/members/${people[2].userId}`);
    expect(guest.body.spaces).toBe(0);
    const outsider = await h.current.newAdmin();
    expect((await admin.api.get(`/orgs/${org}/members/${outsider.userId}`)).status).toBe(404);
    expect((await outsider.api.get(`/orgs/${org}/members/${admin.userId}`)).status).toBe(404);
  });
});
