// The stateful mock: the real server on an in-memory database holding the demo workspace. What a client
// writes, it reads back; the docs are served; every request is logged with its status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../client/index.js';
import { startMockMode, type RunningMock } from '../mock/modes.js';
import { DEMO_SPACES } from '../server/demo/data.js';

const TOKEN = 'stateful-mock-test-token-0123456789';
const lines: string[] = [];
let mock: RunningMock;
let api: ApiClient;
beforeAll(async () => {
  mock = await startMockMode('stateful', { token: TOKEN, log: (line) => lines.push(line) });
  api = createClient({ baseUrl: mock.baseUrl, token: TOKEN });
});
afterAll(async () => mock?.stop());

describe('stateful mock', () => {
  it('starts with the demo workspace, reachable with the fixed token', async () => {
    expect(mock.token).toBe(TOKEN);
    const organizationId = mock.organizationId!;
    const { data, response } = await api.GET('/orgs/{organizationId}/spaces', { params: { path: { organizationId } } });
    expect(response.status).toBe(200);
    // Every demo space, and the French translation of "Getting started" (a space of its own, "Premiers pas").
    const titles = data!.items.map((s) => s.title);
    for (const space of DEMO_SPACES) expect(titles).toContain(space.title);
    expect(data!.items.find((s) => s.title === 'Premiers pas' && s.language === 'fr')).toBeDefined();
  });

  it('reads back what a client writes, and logs each request with its status', async () => {
    const organizationId = mock.organizationId!;
    const created = await api.POST('/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Written through the mock' } });
    expect(created.response.status).toBe(201);
    const read = await api.GET('/spaces/{spaceId}', { params: { path: { spaceId: created.data!.id } } });
    expect(read.data?.title).toBe('Written through the mock');
    const list = await api.GET('/orgs/{organizationId}/spaces', { params: { path: { organizationId } } });
    expect(list.data!.items.map((s) => s.id)).toContain(created.data!.id);
    expect(lines).toContain(lines.find((l) => l.startsWith(`POST /v1/orgs/${organizationId}/spaces 201 `) && l.endsWith('(server)')));
    expect(lines.some((l) => l.startsWith(`GET /v1/spaces/${created.data!.id} 200 `))).toBe(true);
  });

  it('refuses a bad request with the field named', async () => {
    const organizationId = mock.organizationId!;
    const res = await fetch(`${mock.baseUrl}/orgs/${organizationId}/spaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 5 }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('body.title');
  });

  it('serves the published document and the reference, without a token, with CORS', async () => {
    const doc = await fetch(`${mock.baseUrl}/openapi.json`, { headers: { Origin: 'http://app.example' } });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('access-control-allow-origin')).toBe('*');
    expect((await doc.json()).info.title).toBe('Documentation Workspace Management API');
    const docs = await fetch(mock.baseUrl.replace(/\/v1$/, '/docs'));
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/scalar.js');
  });
});
