import { describe, expect, it } from 'vitest';
import { drainConversationJobs } from './support/matrix/conversations.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';

const h = useHarness();

function body(id: string, text: string, extra: object = {}) {
  return { id, parts: [{ type: 'message', role: 'user', body: text }], ...extra };
}

async function ingest(account: Account, b: object) {
  const res = await account.api.post(`/orgs/${account.organizationId}/conversations`, b);
  expect(res.status).toBe(204);
}

describe('conversations', () => {
  it('post /orgs/{organizationId}/conversations ingests a conversation, readable with its messages and metadata', async () => {
    const admin = await h.current.newAdmin();
    await ingest(admin, body('ticket-1', 'Where do I rotate an API token?', {
      subject: 'Token rotation',
      metadata: { url: 'https://support.example.com/t/1', attributes: { plan: 'pro' }, createdAt: '2026-01-05T10:00:00.000Z' },
    }));
    const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations/ticket-1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      conversation: {
        object: 'conversation',
        id: 'ticket-1',
        subject: 'Token rotation',
        createdAt: '2026-01-05T10:00:00.000Z',
        source: 'api',
        urls: { location: `${PUBLIC_URL}/v1/orgs/${admin.organizationId}/conversations/ticket-1`, source: 'https://support.example.com/t/1' },
      },
      parts: [{ type: 'message', role: 'user', body: 'Where do I rotate an API token?' }],
      metadata: { url: 'https://support.example.com/t/1', attributes: { plan: 'pro' }, createdAt: '2026-01-05T10:00:00.000Z' },
    });
    await drainConversationJobs(h.current);
    const processed = await admin.api.get(`/orgs/${admin.organizationId}/conversations/ticket-1`);
    expect(processed.body.conversation.processedAt).toBeDefined();
  });

  it('post /orgs/{organizationId}/conversations is idempotent on id: ingesting again replaces the conversation and its issues', async () => {
    const admin = await h.current.newAdmin();
    await ingest(admin, body('same', 'First text about billing invoices.'));
    await drainConversationJobs(h.current);
    await ingest(admin, body('same', 'Second text about password reset emails.', { subject: 'Password' }));
    await drainConversationJobs(h.current);
    const list = await admin.api.get(`/orgs/${admin.organizationId}/conversations`);
    expect(list.body.count).toBe(1);
    expect(list.body.items[0].subject).toBe('Password');
    const issues = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { conversation: 'same' });
    expect(issues.body.count).toBe(1);
    expect(issues.body.items[0].issue.title).toBe('Password');
    const clusters = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`);
    expect(clusters.body.count).toBe(1);
  });

  it('post /orgs/{organizationId}/conversations returns 400 for a bad id or no parts, 403 below admin, 404 for outsiders', async () => {
    const admin = await h.current.newAdmin();
    const creator = await h.current.newMember(admin.organizationId, 'create');
    const outsider = await h.current.newAdmin();
    const badId = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, body('bad id!', 'x'));
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toContain('body.id');
    const noParts = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: 'x', parts: [] });
    expect(noParts.status).toBe(400);
    expect(noParts.body.error.message).toContain('body.parts');
    expect((await creator.api.post(`/orgs/${admin.organizationId}/conversations`, body('x', 'y'))).status).toBe(403);
    expect((await outsider.api.post(`/orgs/${admin.organizationId}/conversations`, body('x', 'y'))).status).toBe(404);
  });

  it('get /orgs/{organizationId}/conversations lists most recent first, filters by source, and pages', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    await ingest(admin, body('old', 'a', { metadata: { createdAt: '2026-01-01T00:00:00.000Z' } }));
    await ingest(admin, body('new', 'b', { metadata: { createdAt: '2026-01-03T00:00:00.000Z' } }));
    await ingest(admin, body('mid', 'c', { metadata: { createdAt: '2026-01-02T00:00:00.000Z' } }));
    const first = await reader.api.get(`/orgs/${admin.organizationId}/conversations`, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual(['new', 'mid']);
    expect(first.body.count).toBe(3);
    const second = await reader.api.get(`/orgs/${admin.organizationId}/conversations`, { limit: 2, page: first.body.next.page });
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual(['old']);
    expect((await reader.api.get(`/orgs/${admin.organizationId}/conversations`, { source: 'api' })).body.count).toBe(3);
    expect((await reader.api.get(`/orgs/${admin.organizationId}/conversations`, { source: 'intercom' })).body.count).toBe(0);
    expect((await reader.api.get(`/orgs/${admin.organizationId}/conversations`, { page: 'garbage' })).status).toBe(400);
  });

  it('get /orgs/{organizationId}/conversations/{conversationId} returns 404 for unknown or foreign conversations', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    await ingest(other, body('theirs', 'x'));
    expect((await admin.api.get(`/orgs/${admin.organizationId}/conversations/theirs`)).status).toBe(404);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/conversations/unknown`)).status).toBe(404);
  });
});
