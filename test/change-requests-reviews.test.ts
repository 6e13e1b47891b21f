// Reviews of change requests, requested reviewers, merge rules enforced on merge, and what a change
// request keeps (description, issues cluster, comments, filters, transfers).
import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';
import { drainConversationJobs } from './support/matrix/conversations.js';

const h = useHarness();

async function newSpace(admin: Account, body: object = {}): Promise<string> {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs', ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function openChangeRequest(account: Account, spaceId: string, body: object = { subject: 'Change' }) {
  const res = await account.api.post(`/spaces/${spaceId}/change-requests`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; number: number; revision: string };
}

async function edit(account: Account, spaceId: string, crId: string, markdown = 'Some text.') {
  const res = await account.api.post(`/spaces/${spaceId}/change-requests/${crId}/content`, {
    changes: [{ operation: 'insert_page', document: { markdown } }],
  });
  expect(res.status).toBe(200);
  return res.body as { revision: string };
}

async function setRules(admin: Account, spaceId: string, mergeRules: object) {
  const res = await admin.api.patch(`/spaces/${spaceId}`, { mergeRules });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function review(account: Account, spaceId: string, crId: string, body: object) {
  const res = await account.api.post(`/spaces/${spaceId}/change-requests/${crId}/reviews`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const paragraph = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});

describe('requested reviewers', () => {
  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers asks, renews, lists and withdraws', async () => {
    const admin = await h.current.newAdmin();
    const reviewer = await h.current.newMember(admin.organizationId, 'review');
    const other = await h.current.newMember(admin.organizationId, 'admin');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;

    const asked = await admin.api.post(`${base}/requested-reviewers`, { users: [reviewer.userId, other.userId, reviewer.userId], subject: 'Ready', description: paragraph('Please look') });
    expect(asked.status).toBe(200);
    expect(asked.body.users).toHaveLength(2);
    expect(asked.body.users[0]).toMatchObject({
      object: 'change-request-requested-reviewer',
      kind: 'user',
      user: { id: reviewer.userId },
      requestedBy: { id: admin.userId },
      revision: cr.revision,
    });
    const after = await admin.api.get(base);
    expect(after.body.subject).toBe('Ready');
    expect(after.body.description.nodes[0].nodes[0].leaves[0].text).toBe('Please look');

    const list = await admin.api.get(`${base}/requested-reviewers`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((r: { user: { id: string } }) => r.user.id).sort()).toEqual([reviewer.userId, other.userId].sort());
    // Page by page in the same order (asked at the same time: by user); an unknown change request is not found.
    const userIds = (body: { items: { user: { id: string } }[] }) => body.items.map((r) => r.user.id);
    const firstPage = await admin.api.get(`${base}/requested-reviewers`, { limit: 1 });
    const secondPage = await admin.api.get(`${base}/requested-reviewers`, { limit: 1, page: firstPage.body.next.page });
    expect([...userIds(firstPage.body), ...userIds(secondPage.body)]).toEqual(userIds(list.body));
    expect(secondPage.body.count).toBe(2);
    expect(secondPage.body.next).toBeUndefined();
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/999/requested-reviewers`)).status).toBe(404);

    // Asking again after an edit renews the request at the new revision; still one request per user.
    const edited = await edit(admin, spaceId, cr.id);
    const again = await other.api.post(`${base}/requested-reviewers`, { users: [reviewer.userId] });
    expect(again.status).toBe(200);
    expect(again.body.users[0]).toMatchObject({ revision: edited.revision, requestedBy: { id: other.userId } });
    expect((await admin.api.get(`${base}/requested-reviewers`)).body.count).toBe(2);

    // Both lists filter by requested reviewer.
    const byReviewer = await admin.api.get(`/spaces/${spaceId}/change-requests`, { requestedReviewer: reviewer.userId });
    expect(byReviewer.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    const inOrg = await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { requestedReviewer: reviewer.userId });
    expect(inOrg.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests`, { requestedReviewer: admin.userId })).body.count).toBe(0);

    const removed = await admin.api.delete(`${base}/requested-reviewers/${reviewer.userId}`);
    expect(removed.status).toBe(205);
    expect((await admin.api.delete(`${base}/requested-reviewers/${reviewer.userId}`)).status).toBe(204);
    expect((await admin.api.get(`${base}/requested-reviewers`)).body.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([other.userId]);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests`, { requestedReviewer: reviewer.userId })).body.count).toBe(0);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers answers 404 for an unknown user, 400 for one who cannot review, 403 below edit, 409 when merged', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const commenter = await h.current.newMember(admin.organizationId, 'comment');
    const stranger = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const path = `/spaces/${spaceId}/change-requests/${cr.id}/requested-reviewers`;

    const unknown = await admin.api.post(path, { users: ['usr_nobody'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.users[0]');
    const outsider = await admin.api.post(path, { users: [admin.userId, stranger.userId] });
    expect(outsider.status).toBe(404);
    expect(outsider.body.error.message).toContain('body.users[1]');
    const cannot = await admin.api.post(path, { users: [reader.userId] });
    expect(cannot.status).toBe(400);
    expect(cannot.body.error.message).toMatch(/body\.users\[0\].*review role/);
    expect((await admin.api.post(path, { users: [] })).status).toBe(400);
    expect((await commenter.api.post(path, { users: [admin.userId] })).status).toBe(403);
    // Nothing was recorded by the refused requests.
    expect((await admin.api.get(path)).body.count).toBe(0);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/999/requested-reviewers`, { users: [admin.userId] })).status).toBe(404);

    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    expect((await admin.api.post(path, { users: [admin.userId] })).status).toBe(409);
  });
});

describe('reviews', () => {
  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/reviews records a review of the current revision, with its comment', async () => {
    const admin = await h.current.newAdmin();
    const reviewer = await h.current.newMember(admin.organizationId, 'review');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;
    const written = await edit(admin, spaceId, cr.id);
    expect((await admin.api.post(`${base}/requested-reviewers`, { users: [reviewer.userId] })).status).toBe(200);

    const res = await reviewer.api.post(`${base}/reviews`, { status: 'changes-requested', comment: paragraph('Fix the intro') });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(res.body.urls.location);
    expect(res.body).toMatchObject({
      object: 'change-request-review',
      status: 'changes-requested',
      revision: written.revision,
      reviewer: { id: reviewer.userId },
      requestedBy: { id: admin.userId },
      outdated: false,
      comment: { body: { markdown: 'Fix the intro' }, target: { changeRequest: cr.id, review: res.body.id, revision: written.revision } },
    });
    const location = new URL(res.body.urls.location).pathname.replace(/^\/v1/, '');
    const read = await admin.api.get(location, { format: 'document' });
    expect(read.status).toBe(200);
    expect(read.body.comment.body.document.nodes[0].nodes[0].leaves[0].text).toBe('Fix the intro');

    // The review's comment is a comment of the change request: counted on it, listed with it.
    const withCount = await admin.api.get(base);
    expect(withCount.body.comments).toBe(1);
    const listed = await admin.api.get(`/spaces/${spaceId}/comments`, { changeRequest: String(cr.number) });
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([res.body.comment.id]);
    expect((await admin.api.get(`/spaces/${spaceId}/comments`, { changeRequest: '404' })).status).toBe(404);

    // Unasked reviews have no requester.
    const unasked = await review(admin, spaceId, cr.id, { status: 'approved' });
    expect(unasked.requestedBy).toBeUndefined();
    expect(unasked.comment).toBeUndefined();
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/reviews marks reviews outdated by a newer revision or a newer review, and filters on it', async () => {
    const admin = await h.current.newAdmin();
    const ann = await h.current.newMember(admin.organizationId, 'review');
    const bob = await h.current.newMember(admin.organizationId, 'review');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;
    const first = await review(ann, spaceId, cr.id, { status: 'changes-requested' });
    await edit(admin, spaceId, cr.id);
    const second = await review(ann, spaceId, cr.id, { status: 'approved' });
    const third = await review(bob, spaceId, cr.id, { status: 'approved' });
    const fourth = await review(bob, spaceId, cr.id, { status: 'changes-requested' });

    const all = await admin.api.get(`${base}/reviews`);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(4);
    expect(all.body.items.map((r: { id: string; outdated: boolean }) => [r.id, r.outdated])).toEqual([
      [first.id, true],
      [second.id, false],
      [third.id, true],
      [fourth.id, false],
    ]);
    const current = await admin.api.get(`${base}/reviews`, { outdated: false });
    expect(current.body.items.map((r: { id: string }) => r.id)).toEqual([second.id, fourth.id]);
    expect(current.body.count).toBe(2);
    const outdated = await admin.api.get(`${base}/reviews`, { outdated: true, limit: 1 });
    expect(outdated.body.items.map((r: { id: string }) => r.id)).toEqual([first.id]);
    const next = await admin.api.get(`${base}/reviews`, { outdated: true, limit: 1, page: outdated.body.next.page });
    expect(next.body.items.map((r: { id: string }) => r.id)).toEqual([third.id]);
    expect(next.body.next).toBeUndefined();

    expect((await admin.api.get(`${base}/reviews/${first.id}`)).body.outdated).toBe(true);
    expect((await admin.api.get(`${base}/reviews/crr_unknown`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/999/reviews`)).status).toBe(404);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/reviews answers 403 below review, 400 for a bad status, 409 when archived', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const path = `/spaces/${spaceId}/change-requests/${cr.id}/reviews`;
    expect((await editor.api.post(path, { status: 'approved' })).status).toBe(403);
    expect((await admin.api.post(path, { status: 'maybe' })).status).toBe(400);
    expect((await admin.api.patch(`/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'archived' })).status).toBe(200);
    expect((await admin.api.post(path, { status: 'approved' })).status).toBe(409);
    expect((await admin.api.get(path)).body.count).toBe(0);
  });
});

describe('merge rules', () => {
  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge refuses with 403 naming every unmet rule, and permissions.merge agrees', async () => {
    const admin = await h.current.newAdmin();
    const ann = await h.current.newMember(admin.organizationId, 'review');
    const spaceId = await newSpace(admin);
    await setRules(admin, spaceId, {
      type: 'rules',
      rules: [
        { rule: 'require_specific_reviewers', users: [ann.userId] },
        { rule: 'require_change_request_description' },
        { rule: 'require_all_reviews_approved' },
      ],
    });
    const cr = await openChangeRequest(admin, spaceId, { subject: 'No description' });
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;
    expect((await admin.api.get(base)).body.permissions).toEqual({ merge: false });

    const refused = await admin.api.post(`${base}/merge`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('require_specific_reviewers');
    expect(refused.body.error.message).toContain(ann.userId);
    expect(refused.body.error.message).toContain('require_change_request_description');
    expect(refused.body.error.message).not.toContain('require_all_reviews_approved');

    await review(ann, spaceId, cr.id, { status: 'changes-requested' });
    const still = await admin.api.post(`${base}/merge`);
    expect(still.status).toBe(403);
    expect(still.body.error.message).toContain('require_all_reviews_approved');

    await review(ann, spaceId, cr.id, { status: 'approved' });
    expect((await admin.api.patch(base, { description: paragraph('Why this change') })).status).toBe(200);
    const ready = await admin.api.get(base);
    expect(ready.body.permissions).toEqual({ merge: true });
    // Someone below the review role never may merge.
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    expect((await editor.api.get(base)).body.permissions).toEqual({ merge: false });
    expect((await admin.api.post(`${base}/merge`)).status).toBe(200);
    expect((await admin.api.get(base)).body.permissions).toEqual({ merge: false });
  });

  it('a new revision makes an approval outdated: the merge is refused until the reviewer approves again', async () => {
    const admin = await h.current.newAdmin();
    const ann = await h.current.newMember(admin.organizationId, 'review');
    const spaceId = await newSpace(admin);
    await setRules(admin, spaceId, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
    const cr = await openChangeRequest(admin, spaceId);
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;
    // The author's own approval counts for nothing.
    await review(admin, spaceId, cr.id, { status: 'approved' });
    expect((await admin.api.post(`${base}/merge`)).status).toBe(403);
    await review(ann, spaceId, cr.id, { status: 'approved' });
    await edit(admin, spaceId, cr.id);
    const refused = await admin.api.post(`${base}/merge`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('require_at_least_one_approved_review');
    await review(ann, spaceId, cr.id, { status: 'approved' });
    expect((await admin.api.post(`${base}/merge`)).status).toBe(200);
  });

  it('inherit takes the organization rules; allow_bypass lets its users merge anyway; the other rule kinds are checked', async () => {
    const admin = await h.current.newAdmin();
    const lead = await h.current.newMember(admin.organizationId, 'review');
    const ann = await h.current.newMember(admin.organizationId, 'review');
    const org = await admin.api.patch(`/orgs/${admin.organizationId}`, {
      mergeRules: {
        type: 'rules',
        rules: [
          { rule: 'require_at_least_one_review' },
          { rule: 'require_change_request_subject' },
          { rule: 'require_up_to_date_change_request' },
          { rule: 'require_author_to_merge' },
          { rule: 'require_one_of_specific_reviewers', users: [ann.userId] },
          { rule: 'require_agent_review' },
          { rule: 'allow_bypass', users: [lead.userId] },
        ],
      },
    });
    expect(org.status, JSON.stringify(org.body)).toBe(200);
    const spaceId = await newSpace(admin); // mergeRules: inherit
    const other = await openChangeRequest(admin, spaceId);
    await edit(admin, spaceId, other.id, 'Elsewhere.');
    const cr = await openChangeRequest(ann, spaceId, {});
    await edit(ann, spaceId, cr.id);
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;
    // The space moves on (a bypassed merge), so `cr` is outdated.
    expect((await lead.api.post(`/spaces/${spaceId}/change-requests/${other.id}/merge`)).status).toBe(200);

    const refused = await admin.api.post(`${base}/merge`);
    expect(refused.status).toBe(403);
    for (const rule of [
      'require_at_least_one_review',
      'require_change_request_subject',
      'require_up_to_date_change_request',
      'require_author_to_merge',
      'require_one_of_specific_reviewers',
      'require_agent_review',
    ]) {
      expect(refused.body.error.message).toContain(rule);
    }
    // The space's own rules replace the organization's.
    await setRules(admin, spaceId, { type: 'none' });
    expect((await admin.api.get(base)).body.permissions).toEqual({ merge: true });
    await setRules(admin, spaceId, { type: 'inherit' });
    expect((await lead.api.get(base)).body.permissions).toEqual({ merge: true });
    expect((await lead.api.post(`${base}/merge`)).status).toBe(200);
  });
});

describe('what a change request keeps', () => {
  async function newCluster(admin: Account): Promise<string> {
    for (const [i, body] of ['The password reset email never arrives.', 'Password reset email does not arrive.'].entries()) {
      const res = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: `c-${i}`, parts: [{ type: 'message', role: 'user', body }] });
      expect(res.status).toBe(204);
    }
    await drainConversationJobs(h.current);
    const clusters = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`);
    expect(clusters.body.items.length).toBeGreaterThan(0);
    return clusters.body.items[0].id;
  }

  it('post /spaces/{spaceId}/change-requests keeps the description and the issues cluster; lists filter by cluster; an unknown cluster is 404', async () => {
    const admin = await h.current.newAdmin();
    const stranger = await h.current.newAdmin();
    const cluster = await newCluster(admin);
    const foreignCluster = await newCluster(stranger);
    const spaceId = await newSpace(admin);
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Reset emails', description: paragraph('Explain the delay'), conversationsIssuesCluster: cluster });
    expect(cr.status).toBe(201);
    expect(cr.body).toMatchObject({ subject: 'Reset emails', conversationsIssuesCluster: cluster, comments: 0, permissions: { merge: true } });
    const read = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.body.id}`);
    expect(read.body.description.nodes[0].nodes[0].leaves[0].text).toBe('Explain the delay');
    expect(read.body.conversationsIssuesCluster).toBe(cluster);
    await openChangeRequest(admin, spaceId);

    const inSpace = await admin.api.get(`/spaces/${spaceId}/change-requests`, { conversationsIssuesCluster: cluster });
    expect(inSpace.body.items.map((c: { id: string }) => c.id)).toEqual([cr.body.id]);
    const inOrg = await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { conversationsIssuesCluster: cluster });
    expect(inOrg.body.items.map((c: { id: string }) => c.id)).toEqual([cr.body.id]);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests`)).body.count).toBe(2);

    for (const unknown of ['cls_unknown', foreignCluster]) {
      const refused = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'X', conversationsIssuesCluster: unknown });
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toContain('body.conversationsIssuesCluster');
    }
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests`)).body.count).toBe(2);
  });

  it('comments can target a change request; its `comments` counts the open ones', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const written = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', document: { markdown: 'New page.' } }],
    });
    const pageId = written.body.changes[0].page.id;
    // The page exists only in the change request: a comment on the space's content cannot name it.
    expect((await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Hm' }, page: pageId })).status).toBe(404);
    const posted = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Typo here' }, changeRequest: cr.id, page: pageId });
    expect(posted.status).toBe(200);
    expect(posted.body.target).toMatchObject({ changeRequest: cr.id, page: { id: pageId }, revision: written.body.changeRequest.revision });
    const second = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'And here' }, changeRequest: String(cr.number) });
    expect(second.status).toBe(200);
    await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'On the space' } });
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}`)).body.comments).toBe(2);
    expect((await admin.api.put(`/spaces/${spaceId}/comments/${second.body.id}`, { resolved: true })).status).toBe(200);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}`)).body.comments).toBe(1);
    const listed = await admin.api.get(`/spaces/${spaceId}/change-requests`);
    expect(listed.body.items[0].comments).toBe(1);
    const unknown = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'X' }, changeRequest: 'crq_unknown' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.changeRequest');
  });

  it('get /orgs/{organizationId}/change-requests filters by the site publishing the spaces', async () => {
    const admin = await h.current.newAdmin();
    const published = await newSpace(admin);
    const unpublished = await newSpace(admin);
    const site = await admin.api.post(`/orgs/${admin.organizationId}/sites`, { title: 'Docs', spaces: [published] });
    expect(site.status).toBe(201);
    const emptySite = await admin.api.post(`/orgs/${admin.organizationId}/sites`, { title: 'Empty' });
    expect(emptySite.status).toBe(201);
    const onSite = await openChangeRequest(admin, published);
    await openChangeRequest(admin, unpublished);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { site: site.body.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, items: [{ id: onSite.id }] });
    expect((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { site: emptySite.body.id })).body.count).toBe(0);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`)).body.count).toBe(2);
  });

  it('post /collections/{collectionId}/transfer carries the change requests of its spaces', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const collection = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Moving' });
    const spaceId = await newSpace(admin, { parent: collection.body.id });
    const cr = await openChangeRequest(admin, spaceId);
    const moved = await admin.api.post(`/collections/${collection.body.id}/transfer`, { organization: target.organizationId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`)).body.count).toBe(0);
    const there = await admin.api.get(`/orgs/${target.organizationId}/change-requests`);
    expect(there.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
  });

  it('post /spaces/{spaceId}/transfer carries the change requests of the space, with their content and reviews', async () => {
    const admin = await h.current.newAdmin();
    const ann = await h.current.newMember(admin.organizationId, 'review');
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId, { subject: 'Travelling' });
    await edit(admin, spaceId, cr.id, 'Carried along.');
    await review(ann, spaceId, cr.id, { status: 'approved' });
    const moved = await admin.api.post(`/spaces/${spaceId}/transfer`, { organization: target.organizationId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`)).body).toEqual({ items: [], count: 0 });
    const there = await admin.api.get(`/orgs/${target.organizationId}/change-requests`);
    expect(there.status).toBe(200);
    expect(there.body.items.map((c: { id: string; subject: string }) => [c.id, c.subject])).toEqual([[cr.id, 'Travelling']]);
    const pages = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/pages`);
    expect(pages.status).toBe(200);
    expect(pages.body.pages).toHaveLength(1);
    const reviews = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/reviews`);
    expect(reviews.body.items.map((r: { status: string }) => r.status)).toEqual(['approved']);
  });
});

describe('locked spaces', () => {
  it('a locked space answers 409 to every write of content (change-request edits, updates, merges, templates) and takes comments and reviews', async () => {
    const admin = await h.current.newAdmin();
    const reviewer = await h.current.newMember(admin.organizationId, 'review');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    await edit(admin, spaceId, cr.id, 'Draft text.');
    // Another change request merged, so `cr` is outdated and bringing it up to date would write.
    const other = await openChangeRequest(admin, spaceId);
    await edit(admin, spaceId, other.id, 'Merged text.');
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${other.id}/merge`)).status).toBe(200);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}`)).body.outdated).toBe(true);
    const before = (await admin.api.get(`/spaces/${spaceId}`)).body.revision;

    expect((await admin.api.patch(`/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200);
    const base = `/spaces/${spaceId}/change-requests/${cr.id}`;
    const writes = {
      updateChangeRequestContent: await admin.api.post(`${base}/content`, { changes: [{ operation: 'insert_page', document: {} }] }),
      updateChangeRequest: await admin.api.post(`${base}/update`),
      mergeChangeRequest: await admin.api.post(`${base}/merge`),
      applyTemplateToSpace: await admin.api.post(`/spaces/${spaceId}/content/template`, { id: 'changelog' }),
      applyTemplateInChangeRequest: await admin.api.post(`/spaces/${spaceId}/content/template`, { id: 'changelog', changeRequestId: cr.id }),
    };
    for (const [name, res] of Object.entries(writes)) {
      expect(res.status, name).toBe(409);
      expect(res.body.error.message, name).toContain('editMode: locked');
    }
    expect((await admin.api.get(`/spaces/${spaceId}`)).body.revision).toBe(before);
    const still = (await admin.api.get(base)).body;
    expect(still).toMatchObject({ outdated: true, status: 'open', permissions: { merge: false } });
    // Opening a change request, commenting and reviewing write no content: they go on.
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Later' })).status).toBe(201);
    expect((await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Wait for the unlock' }, changeRequest: cr.id })).status).toBe(200);
    await review(reviewer, spaceId, cr.id, { status: 'approved' });

    // Unlocked, the same writes go through.
    expect((await admin.api.patch(`/spaces/${spaceId}`, { editMode: 'live' })).status).toBe(200);
    expect((await admin.api.post(`${base}/update`)).status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/content/template`, { id: 'changelog', changeRequestId: cr.id })).status).toBe(204);
    expect((await admin.api.post(`${base}/merge`)).status).toBe(200);
  });
});
