// The hybrid mock: the real server for what it implements, Prism for what answers 501. One handler is
// swapped for the 501 stub, as an operation whose handler does not exist yet: Prism answers it with its
// documented example, while the server answers the others from the demo data, in the same run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { startMockMode, type RunningMock } from '../mock/modes.js';
import { DEMO_OWNER } from '../server/demo/data.js';
import { handlers } from '../server/handlers.js';
import { notImplemented } from '../server/http/not-implemented.js';
import { findOperation } from './support/spec.js';

const lines: string[] = [];
let mock: RunningMock;
beforeAll(async () => {
  const withStub = { ...handlers, ...notImplemented(['getAuthenticatedUser']) };
  mock = await startMockMode('hybrid', { handlers: withStub, log: (line) => lines.push(line) });
});
afterAll(async () => mock?.stop());

describe('hybrid mock', () => {
  it('answers a not-implemented operation with Prism and the others with the server', async () => {
    const api = createClient({ baseUrl: mock.baseUrl, token: mock.token });
    const user = await api.GET('/user');
    expect(user.response.status).toBe(200);
    // The documented example, not the demo owner the token belongs to.
    const example = findOperation('get', '/v1/user')!.operation.responses['200'].content['application/json'].example;
    expect(user.data).toEqual(example);
    expect(user.data!.email).not.toBe(DEMO_OWNER.email);

    const organizationId = mock.organizationId!;
    const org = await api.GET('/orgs/{organizationId}', { params: { path: { organizationId } } });
    expect(org.response.status).toBe(200);
    expect(org.data!.id).toBe(organizationId);
    const created = await api.POST('/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Hybrid space' } });
    expect(created.response.status).toBe(201);
    expect((await api.GET('/spaces/{spaceId}', { params: { path: { spaceId: created.data!.id } } })).data?.title).toBe('Hybrid space');

    expect(lines.some((l) => l.startsWith('GET /v1/user 200 ') && l.endsWith('(prism)'))).toBe(true);
    expect(lines.some((l) => l.startsWith(`GET /v1/orgs/${organizationId} 200 `) && l.endsWith('(server)'))).toBe(true);
  });

  it('leaves the server\'s own errors to the server (a bad token is 401 before any handler runs)', async () => {
    const res = await fetch(`${mock.baseUrl}/user`, { headers: { Authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(401);
    expect(lines.some((l) => l.startsWith('GET /v1/user 401 ') && l.endsWith('(server)'))).toBe(true);
  });
});
