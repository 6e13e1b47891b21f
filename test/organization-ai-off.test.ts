// An organization with `ai: false` sends none of its content to a model: a translation run on a model
// translator fails before anything is sent and says why (a LibreTranslate run goes on), and conversation
// insights are extracted by the heuristic even when the server is set up with a model.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterConversationsHandler, CLUSTER_CONVERSATIONS } from '../server/conversations/cluster.job.js';
import { openAIExtractor } from '../server/conversations/issue-extraction.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { runTranslationHandler, RUN_TRANSLATION } from '../server/translations/run.job.js';
import { libreTranslator, openAITranslator, type Translator } from '../server/translations/translator.js';
import { spaceWithPages } from './published-support.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();
let server: Server;
let base: string;
const modelCalls: string[] = [];
const libreCalls: string[] = [];

beforeAll(async () => {
  // A stand-in model (chat completions) and a stand-in LibreTranslate, both upper-casing.
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      if (req.url === '/v1/chat/completions') {
        modelCalls.push(raw);
        const last = JSON.parse(body.messages.at(-1).content);
        const content = last.texts
          ? JSON.stringify({ translations: last.texts.map((t: string) => t.toUpperCase()) })
          : JSON.stringify({ issues: [{ title: 'From the model', summary: 'A model found this.' }] });
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      }
      if (req.url === '/translate') {
        libreCalls.push(raw);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: body.q.map((t: string) => t.toUpperCase()) }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  modelCalls.length = 0;
  libreCalls.length = 0;
});

const limits = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };
const model = () => openAITranslator({ baseUrl: `${base}/v1`, model: 'stand-in', apiKey: 'sk-test', limits });

async function aiOff(admin: Account) {
  const res = await admin.api.patch(`/orgs/${admin.organizationId}`, { ai: false });
  expect(res.status).toBe(200);
  expect(res.body.ai).toBe(false);
}

async function runWith(admin: Account, id: string, translator: Translator) {
  expect((await admin.api.post(`/orgs/${admin.organizationId}/translations/${id}/run`)).status).toBe(204);
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [RUN_TRANSLATION]: runTranslationHandler(translator) } });
  await runner.drain();
  const res = await admin.api.get(`/orgs/${admin.organizationId}/translations/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('organization ai: false', () => {
  it('fails a translation run on a model translator without sending anything, and says why; LibreTranslate runs go on', async () => {
    const admin = await h.current.newAdmin();
    await aiOff(admin);
    const source = await spaceWithPages(admin, 'Guide', [{ title: 'Intro', markdown: 'Secret roadmap text.' }]);
    const created = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'fr' });
    expect(created.status).toBe(201);

    const refused = await runWith(admin, created.body.id, model());
    expect(modelCalls).toHaveLength(0);
    expect(refused.status).toBe('failed');
    expect(refused.result).toBeUndefined();
    expect(refused.latestRun).toMatchObject({ status: 'failed', provider: 'openai', translatedPages: 0 });
    expect(refused.latestRun.error).toContain('AI features are off for this organization (ai: false)');

    const libre = await runWith(admin, created.body.id, libreTranslator(base, limits));
    expect(libre.status).toBe('completed');
    expect(libre.latestRun).toMatchObject({ status: 'completed', provider: 'libretranslate', translated: true });
    expect(libreCalls.length).toBeGreaterThan(0);

    // With AI features on again, the model is used.
    expect((await admin.api.patch(`/orgs/${admin.organizationId}`, { ai: true })).status).toBe(200);
    const other = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'de' });
    expect(other.status).toBe(201);
    const done = await runWith(admin, other.body.id, model());
    expect(done.status).toBe('completed');
    expect(modelCalls.length).toBeGreaterThan(0);
  });

  it('extracts conversation issues with the heuristic, never the configured model', async () => {
    const extractor = openAIExtractor({ baseUrl: `${base}/v1`, model: 'stand-in', limits });
    const drain = () => createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [CLUSTER_CONVERSATIONS]: clusterConversationsHandler(extractor) } }).drain();
    const issues = async (admin: Account, conversation: string) => {
      const res = await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { conversation, limit: 100 });
      expect(res.status).toBe(200);
      return res.body.items.map((d: { issue: { title: string } }) => d.issue.title);
    };
    const ingest = async (admin: Account, id: string) => {
      const res = await admin.api.post(`/orgs/${admin.organizationId}/conversations`, { id, parts: [{ type: 'message', role: 'user', body: 'Where do I change my avatar?' }] });
      expect(res.status).toBe(204);
    };

    const off = await h.current.newAdmin();
    await aiOff(off);
    await ingest(off, 'ticket-1');
    await drain();
    expect(modelCalls).toHaveLength(0);
    expect(await issues(off, 'ticket-1')).toEqual(['Where do I change my avatar?']);

    const on = await h.current.newAdmin();
    await ingest(on, 'ticket-2');
    await drain();
    expect(modelCalls).toHaveLength(1);
    expect(await issues(on, 'ticket-2')).toEqual(['From the model']);
  });
});
