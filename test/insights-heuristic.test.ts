// Conversation insights say how each issue was found (`extraction`): by the configured model, or by the
// heuristic and why: the organization's AI features are off (`ai: false`), the server has no model
// configured, or the model found no issue in the conversation. The reason is given in every answer that
// shows the issue (the list and the single read).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterConversationsHandler, CLUSTER_CONVERSATIONS } from '../server/conversations/cluster.job.js';
import { heuristicExtractor, openAIExtractor, type IssueExtractor } from '../server/conversations/issue-extraction.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();
let server: Server;
let base: string;
const modelCalls: string[] = [];

beforeAll(async () => {
  // A stand-in model: it finds one issue, or none when the conversation says "nothing to report".
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      modelCalls.push(raw);
      const issues = raw.includes('nothing to report') ? [] : [{ title: 'Avatar settings are hard to find', summary: 'The user looked for the avatar setting.' }];
      const content = JSON.stringify({ issues });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const model = () => openAIExtractor({ baseUrl: `${base}/v1`, model: 'stand-in', limits: { timeoutMs: 5_000, maxBytes: 1024 * 1024 } });
const drain = (extractor: IssueExtractor) =>
  createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [CLUSTER_CONVERSATIONS]: clusterConversationsHandler(extractor) } }).drain();

async function ingest(admin: Account, id: string, body: string) {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id, parts: [{ type: 'message', role: 'user', body }] });
  expect(res.status).toBe(204);
}

/** The issues of a conversation as listed, each checked against its single read. */
async function issuesOf(admin: Account, conversation: string) {
  const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { conversation, limit: 100 });
  expect(res.status).toBe(200);
  const issues = res.body.items.map((d: { issue: { id: string; title: string; extraction?: unknown } }) => d.issue);
  for (const issue of issues) {
    const one = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues/${issue.id}`);
    expect(one.status).toBe(200);
    expect(one.body.issue.extraction).toEqual(issue.extraction);
  }
  return issues as { title: string; extraction?: { method: string; heuristicReason?: string } }[];
}

describe('insights say when the heuristic was used, and why', () => {
  it('ai: false: the heuristic, with heuristicReason ai-disabled, and no call to the configured model', async () => {
    const admin = await h.current.newAdmin();
    const off = await admin.api.patch(`/orgs/${admin.organizationId}`, { ai: false });
    expect(off.status).toBe(200);
    await ingest(admin, 'ticket-off', 'Where do I change my avatar?');
    const calls = modelCalls.length;
    await drain(model());
    expect(modelCalls.length).toBe(calls);
    expect(await issuesOf(admin, 'ticket-off')).toEqual([
      expect.objectContaining({ title: 'Where do I change my avatar?', extraction: { method: 'heuristic', heuristicReason: 'ai-disabled' } }),
    ]);

    // Turned back on, a re-ingested conversation goes to the model, and says so.
    expect((await admin.api.patch(`/orgs/${admin.organizationId}`, { ai: true })).status).toBe(200);
    await ingest(admin, 'ticket-off', 'Where do I change my avatar? I looked everywhere.');
    await drain(model());
    expect(modelCalls.length).toBe(calls + 1);
    expect(await issuesOf(admin, 'ticket-off')).toEqual([expect.objectContaining({ title: 'Avatar settings are hard to find', extraction: { method: 'model' } })]);
  });

  it('no model configured: the heuristic, with heuristicReason no-model-configured', async () => {
    const admin = await h.current.newAdmin();
    await ingest(admin, 'ticket-plain', 'The export fails with error 500. Also, where do I change my avatar?');
    await drain(heuristicExtractor);
    const issues = await issuesOf(admin, 'ticket-plain');
    expect(issues).toHaveLength(2);
    for (const issue of issues) expect(issue.extraction).toEqual({ method: 'heuristic', heuristicReason: 'no-model-configured' });
  });

  it('a model that finds nothing: the heuristic’s first issue, with heuristicReason model-found-none', async () => {
    const admin = await h.current.newAdmin();
    await ingest(admin, 'ticket-quiet', 'Hello, nothing to report, the import is broken though.');
    await drain(model());
    const issues = await issuesOf(admin, 'ticket-quiet');
    expect(issues).toHaveLength(1);
    expect(issues[0].extraction).toEqual({ method: 'heuristic', heuristicReason: 'model-found-none' });
  });
});
