// What insights find in conversations: several issues in one conversation (the heuristic, and an
// OpenAI-compatible model on a stand-in server), the weeks issues count in, and clusters resolved by the
// change requests created for them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterConversationsHandler, CLUSTER_CONVERSATIONS } from '../server/conversations/cluster.job.js';
import { heuristicIssues, openAIExtractor, type IssueExtractor } from '../server/conversations/issue-extraction.js';
import { PULSE_WEEKS, WEEK_MS, weekStart } from '../server/conversations/pulse-weeks.js';
import { loadConfig } from '../server/config.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { drainConversationJobs } from './support/matrix/conversations.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function ingest(admin: Account, id: string, text: string | string[], extra: object = {}) {
  const parts = (Array.isArray(text) ? text : [text]).map((body) => ({ type: 'message', role: 'user', body }));
  const res = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id, parts, ...extra });
  expect(res.status).toBe(204);
}

async function issuesOf(admin: Account, conversation: string) {
  const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { conversation, limit: 100 });
  expect(res.status).toBe(200);
  return res.body.items.map((d: { issue: { title: string; summary: string; cluster: string; createdAt: string } }) => d.issue);
}

async function clusters(admin: Account, query: object = {}) {
  const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations-clusters`, { limit: 100, ...query });
  expect(res.status).toBe(200);
  return res.body.items as { id: string; weeklyPulse: number[]; stats: Record<string, number> }[];
}

describe('issues found in conversations', () => {
  it('split a conversation on each thing the user asks or reports, and keep one problem told in several sentences together', async () => {
    const admin = await h.current.newAdmin();
    await ingest(admin, 'multi', [
      'Hi team! The PDF export fails with a 500 error on large spaces.',
      'Also, where do I change my avatar? And one more: how do I invite a guest to a single space?',
    ]);
    await ingest(admin, 'single', 'How can I reset my password? The reset email never arrives. Thanks!', { subject: 'Password reset' });
    await ingest(admin, 'follow-up', 'What is the API rate limit? Is it per token or per organization?');
    await drainConversationJobs(h.current);

    const multi = await issuesOf(admin, 'multi');
    // Most recent first; found in the same run, so in id order reversed.
    const titles = multi.map((i: { title: string }) => i.title).sort();
    expect(titles).toEqual(['How do I invite a guest to a single space?', 'The PDF export fails with a 500 error on large spaces.', 'Where do I change my avatar?']);
    expect(multi.find((i: { title: string }) => i.title.startsWith('The PDF')).summary).toBe('The PDF export fails with a 500 error on large spaces.');
    // Three unrelated topics: three clusters.
    expect(new Set(multi.map((i: { cluster: string }) => i.cluster)).size).toBe(3);

    const single = await issuesOf(admin, 'single');
    expect(single).toHaveLength(1);
    expect(single[0]).toMatchObject({ title: 'Password reset', summary: 'How can I reset my password? The reset email never arrives.' });
    expect(await issuesOf(admin, 'follow-up')).toHaveLength(1);

    // Re-ingesting replaces the issues of a conversation.
    await ingest(admin, 'multi', 'Where do I change my avatar?');
    await drainConversationJobs(h.current);
    expect((await issuesOf(admin, 'multi')).map((i: { title: string }) => i.title)).toEqual(['Where do I change my avatar?']);
  });

  it('keep a conversation in which nothing is asked or reported as one issue of its text', () => {
    expect(heuristicIssues({ subject: null, parts: [{ body: 'I need a PDF invoice for our billing department.' }] })).toEqual([
      { title: 'I need a PDF invoice for our billing department.', summary: 'I need a PDF invoice for our billing department.' },
    ]);
  });

  it('with INSIGHTS_KIND=openai ask an OpenAI-compatible model for the issues', async () => {
    const calls: { model: string; messages: { role: string; content: string }[] }[] = [];
    const server: Server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
        calls.push(JSON.parse(raw));
        const content = JSON.stringify({
          issues: [
            { title: 'Avatar settings are hard to find', summary: 'The user looked for where to change the avatar.' },
            { title: 'Guests cannot be invited to one space', summary: 'The user wants to invite a guest to a single space.' },
          ],
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const extractor: IssueExtractor = openAIExtractor({ baseUrl: base, model: 'stand-in', limits: { timeoutMs: 5000, maxBytes: 100_000 } });
      const admin = await h.current.newAdmin();
      await ingest(admin, 'chat', ['Where is the avatar setting?', 'And can I invite a guest to one space only?'], { subject: 'Two questions' });
      const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [CLUSTER_CONVERSATIONS]: clusterConversationsHandler(extractor) } });
      expect(await runner.drain()).toBeGreaterThan(0);
      expect(calls).toHaveLength(1);
      expect(calls[0].model).toBe('stand-in');
      expect(JSON.parse(calls[0].messages[1].content)).toEqual({ subject: 'Two questions', messages: ['Where is the avatar setting?', 'And can I invite a guest to one space only?'] });
      const found = await issuesOf(admin, 'chat');
      expect(found.map((i: { title: string }) => i.title).sort()).toEqual(['Avatar settings are hard to find', 'Guests cannot be invited to one space']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(loadConfig({ INSIGHTS_KIND: 'openai', INSIGHTS_URL: 'http://127.0.0.1:11434/v1', INSIGHTS_MODEL: 'llama3.1' }).insights).toMatchObject({ kind: 'openai', model: 'llama3.1' });
    expect(() => loadConfig({ INSIGHTS_KIND: 'openai' })).toThrow(/INSIGHTS_URL: is required/);
    expect(loadConfig({}).insights).toEqual({ kind: 'heuristic' });
  });
});

describe('weeklyPulse', () => {
  it('counts issues in the calendar week their conversation took place, the 13 weeks ending this week, oldest first', async () => {
    const admin = await h.current.newAdmin();
    const thisWeek = weekStart(new Date()).getTime();
    const at = (ms: number) => ({ metadata: { createdAt: new Date(ms).toISOString() } });
    const text = 'The webhook signature check fails for every delivery.';
    // The first instant of this week, and the last of the week before.
    await ingest(admin, 'this-week', text, at(thisWeek));
    await ingest(admin, 'last-week', text, at(thisWeek - 1));
    // Four conversations of five weeks ago, ingested today.
    for (const n of [1, 2, 3, 4]) await ingest(admin, `five-weeks-${n}`, text, at(thisWeek - 5 * WEEK_MS + n * 3_600_000));
    // The 13-week edge: the first instant of the oldest week counts, the instant before does not.
    await ingest(admin, 'oldest-week', text, at(thisWeek - 12 * WEEK_MS));
    await ingest(admin, 'too-old', text, at(thisWeek - 12 * WEEK_MS - 1));
    // No metadata.createdAt: the ingestion time, this week.
    await ingest(admin, 'undated', text);
    await drainConversationJobs(h.current);

    const [cluster] = await clusters(admin);
    expect(cluster.stats.issues).toBe(9);
    const expected = Array(PULSE_WEEKS).fill(0);
    expected[0] = 1; // oldest-week
    expected[12 - 5] = 4;
    expected[11] = 1; // last-week
    expected[12] = 2; // this-week and undated
    expect(cluster.weeklyPulse).toEqual(expected);
  });

  it('weekStart is Monday 00:00 UTC', () => {
    expect(weekStart(new Date('2026-11-23T19:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z'); // a Monday
    expect(weekStart(new Date('2026-11-29T23:59:59Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z'); // the Sunday after
    expect(weekStart(new Date('2026-11-22T23:59:59Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
  });
});

describe('cluster tasks', () => {
  it('count the change requests created for a cluster, and resolve the cluster once its task is merged', async () => {
    const admin = await h.current.newAdmin();
    await ingest(admin, 'tokens', 'Where do I rotate an API token?');
    await ingest(admin, 'invoices', 'The invoice PDF download is broken.');
    await drainConversationJobs(h.current);
    const tokensCluster = (await issuesOf(admin, 'tokens'))[0].cluster as string;
    const invoicesCluster = (await issuesOf(admin, 'invoices'))[0].cluster as string;
    expect(tokensCluster).not.toBe(invoicesCluster);

    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const create = async (subject: string, cluster: string) => {
      const res = await admin.api.post(`/spaces/${space.body.id}/change-requests`, { subject, conversationsIssuesCluster: cluster });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const rotate = await create('Document token rotation', tokensCluster);
    const abandoned = await create('Invoice FAQ', invoicesCluster);
    expect((await admin.api.patch(`/spaces/${space.body.id}/change-requests/${abandoned}`, { status: 'archived' })).status).toBe(200);

    const before = new Map((await clusters(admin)).map((c) => [c.id, c.stats]));
    expect(before.get(tokensCluster)).toMatchObject({ tasksTotal: 1, tasksBacklog: 0, tasksStarted: 1, tasksCompleted: 0, tasksCancelled: 0 });
    expect(before.get(invoicesCluster)).toMatchObject({ tasksTotal: 1, tasksStarted: 0, tasksCancelled: 1 });
    expect(await clusters(admin, { status: 'resolved' })).toEqual([]);
    expect((await clusters(admin, { status: 'open' })).map((c) => c.id).sort()).toEqual([tokensCluster, invoicesCluster].sort());

    const merged = await admin.api.post(`/spaces/${space.body.id}/change-requests/${rotate}/merge`);
    expect(merged.status).toBe(200);
    const resolved = await clusters(admin, { status: 'resolved' });
    expect(resolved.map((c) => c.id)).toEqual([tokensCluster]);
    expect(resolved[0].stats).toMatchObject({ tasksTotal: 1, tasksStarted: 0, tasksCompleted: 1 });
    // Given up is not resolved.
    expect((await clusters(admin, { status: 'open' })).map((c) => c.id)).toEqual([invoicesCluster]);

    // A new task reopens a resolved cluster.
    await create('Document token scopes', tokensCluster);
    expect(await clusters(admin, { status: 'resolved' })).toEqual([]);
  });
});
