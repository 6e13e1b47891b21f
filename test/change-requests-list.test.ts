import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { send } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';

const h = useHarness();

describe('change request lists', () => {
  async function world() {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'A' })).body;
    const other = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'B' })).body;
    const a1 = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'a1' })).body;
    const a2 = (await editor.api.post(`/spaces/${space.id}/change-requests`, { subject: 'a2' })).body;
    const a3 = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'a3' })).body;
    const b1 = (await admin.api.post(`/spaces/${other.id}/change-requests`, { subject: 'b1' })).body;
    await admin.api.patch(`/spaces/${space.id}/change-requests/${a3.id}`, { status: 'draft' });
    // The editor writes in a1, which makes it the most recently updated.
    await editor.api.post(`/spaces/${space.id}/change-requests/${a1.id}/content`, { changes: [{ operation: 'insert_page', document: { markdown: 'x' } }] });
    return { admin, editor, space, other, a1, a2, a3, b1 };
  }
  const subjects = (body: { items: { subject?: string }[] }) => body.items.map((i) => i.subject);

  it('get /spaces/{spaceId}/change-requests lists open ones, most recently updated first, with status and user filters', async () => {
    const { admin, editor, space } = await world();
    const open = await admin.api.get(`/spaces/${space.id}/change-requests`);
    expect(open.status).toBe(200);
    expect(subjects(open.body)).toEqual(['a1', 'a2']);
    expect(open.body.count).toBe(2);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { status: 'draft' })).body)).toEqual(['a3']);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { orderBy: 'createdAt' })).body)).toEqual(['a2', 'a1']);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { creator: editor.userId })).body)).toEqual(['a2']);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { contributor: editor.userId })).body)).toEqual(['a1']);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests`, { requestedReviewer: editor.userId })).body).toEqual({ items: [], count: 0 });
  });

  it('get /spaces/{spaceId}/change-requests paginates with a cursor', async () => {
    const { admin, space } = await world();
    const first = await admin.api.get(`/spaces/${space.id}/change-requests`, { limit: 1 });
    expect(subjects(first.body)).toEqual(['a1']);
    expect(first.body.count).toBe(2);
    const second = await admin.api.get(`/spaces/${space.id}/change-requests`, { limit: 1, page: first.body.next.page });
    expect(subjects(second.body)).toEqual(['a2']);
    expect(second.body.next).toBeUndefined();
    expect((await admin.api.get(`/spaces/${space.id}/change-requests`, { page: 'garbage' })).status).toBe(400);
  });

  it('get /orgs/{organizationId}/change-requests lists across spaces with statuses and the space filter', async () => {
    const { admin, other } = await world();
    const res = await admin.api.get(`/orgs/${admin.organizationId}/change-requests`);
    expect(res.status).toBe(200);
    expect(subjects(res.body)).toEqual(['a1', 'b1', 'a2']);
    const both = await admin.api.get(`/orgs/${admin.organizationId}/change-requests?status=open&status=draft`);
    expect(both.body.count).toBe(4);
    expect(subjects((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { space: other.id })).body)).toEqual(['b1']);
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await guest.api.get(`/orgs/${admin.organizationId}/change-requests`)).body).toEqual({ items: [], count: 0 });
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/change-requests`)).status).toBe(404);
  });

  it('get /spaces/{spaceId} and the space list count change requests by status and open comments', async () => {
    const { admin, space, other } = await world();
    await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'open' } });
    const resolved = (await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'done' } })).body;
    await admin.api.put(`/spaces/${space.id}/comments/${resolved.id}`, { resolved: true });
    const counts = { changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 1 };
    expect((await admin.api.get(`/spaces/${space.id}`)).body).toMatchObject(counts);
    const list = await admin.api.get(`/orgs/${admin.organizationId}/spaces`);
    const byId = new Map(list.body.items.map((s: { id: string }) => [s.id, s]));
    expect(byId.get(space.id)).toMatchObject(counts);
    expect(byId.get(other.id)).toMatchObject({ changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 0 });
  });

  it('every other answer showing the space (update, move, transfer, the lists of a collection and of a member) shows the same counters', async () => {
    const { admin, space } = await world();
    await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'open' } });
    const counts = { changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 1 };
    expect((await admin.api.patch(`/spaces/${space.id}`, { title: 'A2' })).body).toMatchObject(counts);
    const collection = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'C' })).body;
    expect((await admin.api.post(`/spaces/${space.id}/move`, { parent: collection.id })).body).toMatchObject(counts);
    expect((await admin.api.get(`/collections/${collection.id}/spaces`)).body.items).toEqual([expect.objectContaining({ id: space.id, ...counts })]);
    const memberSpaces = await admin.api.get(`/orgs/${admin.organizationId}/members/${admin.userId}/spaces`);
    expect(memberSpaces.body.items.find((i: { space: { id: string } }) => i.space.id === space.id).space).toMatchObject(counts);
    const elsewhere = await h.current.newAdmin();
    await h.current.addMembership(elsewhere.organizationId, admin.userId, 'admin');
    expect((await admin.api.post(`/spaces/${space.id}/transfer`, { organization: elsewhere.organizationId })).body).toMatchObject(counts);
    // A duplicate starts with none: change requests and comments are not copied.
    const copy = await admin.api.post(`/spaces/${space.id}/duplicate`);
    expect(copy.body).toMatchObject({ changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 0 });
  });

  describe('permissions.merge in the lists', () => {
    /** A space whose rules ask for an approval, with `n` open change requests by the admin; the first approved by a reviewer. */
    async function ruled(n: number, mergeRules: object = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] }) {
      const admin = await h.current.newAdmin();
      const reviewer = await h.current.newMember(admin.organizationId, 'review');
      const editor = await h.current.newMember(admin.organizationId, 'edit');
      const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Ruled' })).body;
      expect((await admin.api.patch(`/spaces/${space.id}`, { mergeRules })).status).toBe(200);
      const crs: { id: string }[] = [];
      for (let i = 0; i < n; i++) {
        const cr = await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: `cr${i}` });
        expect(cr.status).toBe(201);
        crs.push(cr.body);
      }
      const approved = await reviewer.api.post(`/spaces/${space.id}/change-requests/${crs[0].id}/reviews`, { status: 'approved' });
      expect(approved.status).toBe(201);
      return { admin, reviewer, editor, space, crs };
    }
    const mergeOf = (body: { items: { id: string; permissions?: { merge: boolean } }[] }) => Object.fromEntries(body.items.map((i) => [i.id, i.permissions?.merge]));

    it('both lists say what the merge would decide: the rules, the reviews, the caller\'s role and a locked space', async () => {
      const { admin, reviewer, editor, space, crs } = await ruled(2);
      const [approved, waiting] = crs.map((c) => c.id);
      const expected = { [approved]: true, [waiting]: false };
      const spaceList = await admin.api.get(`/spaces/${space.id}/change-requests`);
      expect(spaceList.status).toBe(200);
      expect(mergeOf(spaceList.body)).toEqual(expected);
      const orgList = await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { space: space.id });
      expect(orgList.status).toBe(200);
      expect(mergeOf(orgList.body)).toEqual(expected);
      // The list agrees with the change request read by itself, and with the merge.
      for (const id of [approved, waiting]) expect((await admin.api.get(`/spaces/${space.id}/change-requests/${id}`)).body.permissions.merge).toBe(expected[id]);
      expect((await admin.api.post(`/spaces/${space.id}/change-requests/${waiting}/merge`)).status).toBe(403);
      // A reviewer may merge what is approved; an editor (below review) may merge nothing.
      expect(mergeOf((await reviewer.api.get(`/spaces/${space.id}/change-requests`)).body)).toEqual(expected);
      expect(mergeOf((await editor.api.get(`/spaces/${space.id}/change-requests`)).body)).toEqual({ [approved]: false, [waiting]: false });
      expect(mergeOf((await editor.api.get(`/orgs/${admin.organizationId}/change-requests`)).body)).toEqual({ [approved]: false, [waiting]: false });
      // A new revision makes the approval outdated.
      const edited = await admin.api.post(`/spaces/${space.id}/change-requests/${approved}/content`, { changes: [{ operation: 'insert_page', document: { markdown: 'x' } }] });
      expect(edited.status).toBe(200);
      expect(mergeOf((await admin.api.get(`/spaces/${space.id}/change-requests`)).body)[approved]).toBe(false);
      await reviewer.api.post(`/spaces/${space.id}/change-requests/${approved}/reviews`, { status: 'approved' });
      expect(mergeOf((await admin.api.get(`/spaces/${space.id}/change-requests`)).body)[approved]).toBe(true);
      // A locked space merges nothing.
      expect((await admin.api.patch(`/spaces/${space.id}`, { editMode: 'locked' })).status).toBe(200);
      expect(mergeOf((await admin.api.get(`/spaces/${space.id}/change-requests`)).body)).toEqual({ [approved]: false, [waiting]: false });
      expect(mergeOf((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`)).body)).toEqual({ [approved]: false, [waiting]: false });
    });

    it('inherited organization rules and allow_bypass count in the lists too', async () => {
      const { admin, reviewer, space, crs } = await ruled(2, { type: 'inherit' });
      const lead = await h.current.newMember(admin.organizationId, 'review');
      const org = await admin.api.patch(`/orgs/${admin.organizationId}`, {
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: [lead.userId] }] },
      });
      expect(org.status).toBe(200);
      const [approved, waiting] = crs.map((c) => c.id);
      expect(mergeOf((await reviewer.api.get(`/spaces/${space.id}/change-requests`)).body)).toEqual({ [approved]: true, [waiting]: false });
      expect(mergeOf((await lead.api.get(`/orgs/${admin.organizationId}/change-requests`)).body)).toEqual({ [approved]: true, [waiting]: true });
    });

    it('a list with rules and reviews sends as many statements for many change requests as for one', async () => {
      const seen: { last?: { operationId: string; statements: number } } = {};
      const app = createApp({
        db: h.current.db,
        logger: pino({ level: 'silent' }),
        publicUrl: PUBLIC_URL,
        onStatements: (operationId, statements) => {
          seen.last = { operationId, statements };
        },
      });
      const statements = async (admin: Account, path: string, items: number) => {
        seen.last = undefined;
        const res = await send(app, 'get', `/v1${path}`, { token: admin.token, query: { limit: 50 } });
        expect(res.status, path).toBe(200);
        expect(res.body.items).toHaveLength(items);
        expect(res.body.items.every((i: { permissions?: { merge: boolean } }) => typeof i.permissions?.merge === 'boolean')).toBe(true);
        return (seen as { last?: { statements: number } }).last!.statements;
      };
      const one = await ruled(1);
      const many = await ruled(6);
      for (const c of many.crs.slice(1)) {
        expect((await many.reviewer.api.post(`/spaces/${many.space.id}/change-requests/${c.id}/reviews`, { status: 'changes-requested' })).status).toBe(201);
      }
      expect(await statements(many.admin, `/spaces/${many.space.id}/change-requests`, 6)).toBe(await statements(one.admin, `/spaces/${one.space.id}/change-requests`, 1));
      expect(await statements(many.admin, `/orgs/${many.admin.organizationId}/change-requests`, 6)).toBe(
        await statements(one.admin, `/orgs/${one.admin.organizationId}/change-requests`, 1),
      );
    });
  });
});
