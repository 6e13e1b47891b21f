// Issues derived from conversations, and their clustering by text similarity.
import { describe, expect, it } from 'vitest';
import { drainConversationJobs } from './support/matrix/conversations.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

// Twenty conversations about three distinct problems, worded differently each time.
const passwordReset = [
  'I requested a password reset but the reset email never arrived.',
  'The password reset link in the email has expired, how do I reset my password?',
  'Password reset email not received, checked spam too.',
  'How can I reset my password? The reset email does not come.',
  'Reset password email link says invalid when I click it.',
  'I forgot my password and the reset email never shows up.',
  'Your password reset email goes nowhere, I cannot reset my password.',
];
const billing = [
  'Where can I download my invoice for last month? Billing page shows nothing.',
  'The invoice amount is wrong, we were billed twice this month.',
  'How do I change the billing address printed on the invoice?',
  'I need a PDF invoice for our billing department.',
  'Billing charged my card but no invoice was sent.',
  'Can invoices be emailed to our billing contact automatically?',
  'Our invoice shows the wrong billing plan price.',
];
const rateLimits = [
  'The API returns 429 rate limit errors after a few requests.',
  'What is the API rate limit per minute for requests?',
  'We hit the API rate limit constantly, how do we raise the limit?',
  'Rate limit headers are missing from API responses.',
  'Is the API rate limit per token or per organization?',
  'Our integration fails with API rate limit exceeded errors.',
];

async function ingestAll(admin: Account) {
  const all = [
    ...passwordReset.map((t, i) => ({ id: `pw-${i}`, text: t })),
    ...billing.map((t, i) => ({ id: `bill-${i}`, text: t })),
    ...rateLimits.map((t, i) => ({ id: `api-${i}`, text: t })),
  ];
  // Interleaved, as tickets arrive.
  all.sort((a, b) => (a.id.split('-')[1] + a.id).localeCompare(b.id.split('-')[1] + b.id));
  for (const c of all) {
    const res = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: c.id, parts: [{ type: 'message', role: 'user', body: c.text }] });
    expect(res.status).toBe(204);
  }
  await drainConversationJobs(h.current);
}

describe('conversation issues and clusters', () => {
  it('get /orgs/{organizationId}/conversations-clusters groups twenty conversations about three problems into three clusters', async () => {
    const admin = await h.current.newAdmin();
    await ingestAll(admin);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const issues = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { limit: 100 });
    expect(issues.body.count).toBe(20);
    const clusterOf = new Map<string, string>(issues.body.items.map((d: { issue: { conversation: string; cluster: string } }) => [d.issue.conversation, d.issue.cluster]));
    for (const prefix of ['pw', 'bill', 'api']) {
      const clusters = new Set([...clusterOf].filter(([id]) => id.startsWith(`${prefix}-`)).map(([, c]) => c));
      expect(clusters.size).toBe(1);
    }
    const sizes = res.body.items.map((c: { stats: { issues: number } }) => c.stats.issues).sort();
    expect(sizes).toEqual([6, 7, 7]);
    for (const cluster of res.body.items) {
      expect(cluster.weeklyPulse).toHaveLength(13);
      expect(cluster.weeklyPulse[12]).toBe(cluster.stats.issues);
      expect(cluster.weeklyPulse.slice(0, 12).every((n: number) => n === 0)).toBe(true);
      expect(cluster.sources).toEqual({ api: cluster.stats.issues });
      expect(cluster.stats.conversations).toBe(cluster.stats.issues);
      expect(cluster.label.length).toBeGreaterThan(0);
      expect(cluster.summary).toMatch(/^\d+ issues about /);
    }
    const icons = res.body.items.map((c: { icon: string }) => c.icon).sort();
    expect(icons).toEqual(['code', 'credit-card', 'key']);
  });

  it('get /orgs/{organizationId}/conversations-clusters orders by updatedAt (default desc) or createdAt, asc or desc, and pages', async () => {
    const admin = await h.current.newAdmin();
    await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: 'a', parts: [{ type: 'message', role: 'user', body: passwordReset[0] }] });
    await drainConversationJobs(h.current);
    await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: 'b', parts: [{ type: 'message', role: 'user', body: billing[0] }] });
    await drainConversationJobs(h.current);
    // A new password issue makes the first cluster the most recently updated.
    await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: 'c', parts: [{ type: 'message', role: 'user', body: passwordReset[1] }] });
    await drainConversationJobs(h.current);
    const byUpdate = (await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`)).body.items;
    expect(byUpdate).toHaveLength(2);
    expect(byUpdate[0].stats.issues).toBe(2);
    const byCreatedAsc = (await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { orderBy: 'createdAt', order: 'asc' })).body.items;
    expect(byCreatedAsc.map((c: { id: string }) => c.id)).toEqual([byUpdate[0].id, byUpdate[1].id]);
    const byCreatedDesc = (await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { orderBy: 'createdAt' })).body.items;
    expect(byCreatedDesc.map((c: { id: string }) => c.id)).toEqual([byUpdate[1].id, byUpdate[0].id]);
    const first = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { limit: 1 });
    const second = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { limit: 1, page: first.body.next.page });
    expect([first.body.items[0].id, second.body.items[0].id]).toEqual(byUpdate.map((c: { id: string }) => c.id));
    expect(second.body.next).toBeUndefined();
    expect((await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { status: 'open' })).body.count).toBe(2);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { status: 'resolved' })).body.count).toBe(0);
  });

  it('get /orgs/{organizationId}/conversations-clusters returns 400 for a bad order and 404 for outsiders', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const bad = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { orderBy: 'title' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('query.orderBy');
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/conversations-clusters`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/conversations-issues lists issues with their conversations, filtered by cluster and conversation', async () => {
    const admin = await h.current.newAdmin();
    await ingestAll(admin);
    const billingIssues = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { conversation: 'bill-0' });
    expect(billingIssues.body.count).toBe(1);
    const detail = billingIssues.body.items[0];
    expect(detail.conversation.id).toBe('bill-0');
    expect(detail.issue).toMatchObject({ object: 'conversation-issue', conversation: 'bill-0', summary: billing[0] });
    const sameCluster = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { cluster: detail.issue.cluster, limit: 4 });
    expect(sameCluster.body.count).toBe(7);
    expect(sameCluster.body.items.every((d: { conversation: { id: string } }) => d.conversation.id.startsWith('bill-'))).toBe(true);
    const rest = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { cluster: detail.issue.cluster, limit: 4, page: sameCluster.body.next.page });
    expect(rest.body.items).toHaveLength(3);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { cluster: 'icl_unknown' })).body.count).toBe(0);
  });

  it('get /orgs/{organizationId}/conversations-issues/{issueId} returns the issue with its conversation, 404 for unknown ones', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id: 'one', subject: 'Reset email', parts: [{ type: 'message', role: 'user', body: passwordReset[0] }] });
    await drainConversationJobs(h.current);
    const listed = (await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`)).body.items[0];
    const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues/${listed.issue.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(listed);
    expect(res.body.issue.title).toBe('Reset email');
    expect((await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues/iss_unknown`)).status).toBe(404);
    expect((await other.api.get(`/orgs/${other.organizationId}/conversations-issues/${listed.issue.id}`)).status).toBe(404);
  });
});
