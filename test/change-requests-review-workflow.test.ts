// The writing workflow as a writer and a reviewer live it: the space asks for a review, a change request
// with a description is written and sent for review, the merge waits for the approval, and the merged
// page reads back in both formats.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('review workflow', () => {
  it('rules on the space, a described change request, a requested reviewer, a refused then accepted merge, the page read back', async () => {
    const admin = await h.current.newAdmin();
    const writer = await h.current.newMember(admin.organizationId, 'review');
    const reviewer = await h.current.newMember(admin.organizationId, 'review');

    // The space admin sets the rules: the reviewer must approve, and a change request must say why.
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Handbook' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id;
    const rules = await admin.api.patch(`/spaces/${spaceId}`, {
      mergeRules: {
        type: 'rules',
        rules: [{ rule: 'require_specific_reviewers', users: [reviewer.userId] }, { rule: 'require_change_request_description' }],
      },
    });
    expect(rules.status).toBe(200);
    expect(rules.body.mergeRules.rules).toHaveLength(2);

    // The writer opens a change request with a description and writes a page.
    const description = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Adds the on-call page.', marks: [] }] }] }],
    };
    const opened = await writer.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'On-call', description });
    expect(opened.status).toBe(201);
    expect(opened.body.description).toEqual(description);
    const crPath = `/spaces/${spaceId}/change-requests/${opened.body.id}`;
    const markdown = '# On-call\n\nPage the **primary** first, then the secondary.\n\n- Check the dashboard\n- Write the incident note';
    const written = await writer.api.post(`${crPath}/content?compat=false`, { changes: [{ operation: 'insert_page', document: { markdown } }] });
    expect(written.status).toBe(200);
    const pageId = written.body.changes[0].page.id;

    // The writer asks the reviewer; the change request shows in the reviewer's queue.
    const asked = await writer.api.post(`${crPath}/requested-reviewers`, { users: [reviewer.userId] });
    expect(asked.status).toBe(200);
    const queue = await reviewer.api.get(`/orgs/${admin.organizationId}/change-requests`, { requestedReviewer: reviewer.userId });
    expect(queue.status).toBe(200);
    expect(queue.body.items.map((c: { id: string }) => c.id)).toEqual([opened.body.id]);

    // Merging before the review is refused, naming the rule; nothing reaches the space.
    expect((await writer.api.get(crPath)).body.permissions).toEqual({ merge: false });
    const refused = await writer.api.post(`${crPath}/merge`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('require_specific_reviewers');
    expect(refused.body.error.message).not.toContain('require_change_request_description');
    expect((await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`)).status).toBe(404);

    // The reviewer reads the change, approves it with a comment.
    const reviewed = await reviewer.api.post(`${crPath}/reviews`, {
      status: 'approved',
      comment: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Clear, thanks.', marks: [] }] }] }] },
    });
    expect(reviewed.status).toBe(201);
    expect(reviewed.body).toMatchObject({ status: 'approved', outdated: false, requestedBy: { id: writer.userId } });
    const reviews = await writer.api.get(`${crPath}/reviews`);
    expect(reviews.body.items.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[reviewed.body.id, 'approved']]);
    expect((await writer.api.get(crPath)).body).toMatchObject({ comments: 1, permissions: { merge: true } });

    // Now the merge goes through, and the page is in the space.
    const merged = await writer.api.post(`${crPath}/merge`);
    expect(merged.status).toBe(200);
    expect((await writer.api.get(crPath)).body).toMatchObject({ status: 'merged', revisionMerged: merged.body.revision });

    const asMarkdown = await reviewer.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
    expect(asMarkdown.status).toBe(200);
    expect(asMarkdown.body.title).toBe('On-call');
    expect(asMarkdown.body.markdown).toContain('**primary**');
    expect(asMarkdown.body.markdown).toContain('Write the incident note');
    const asDocument = await reviewer.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    expect(asDocument.status).toBe(200);
    const text = JSON.stringify(asDocument.body.document);
    expect(text).toContain('Check the dashboard');
    expect(text).toContain('then the secondary');
  });
});
