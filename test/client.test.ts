// The typed client (client/) against the real server listening on a port: a walk through each implemented
// area, a few calls each, with typed paths, bodies and replies; errors come back as the error body.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../client/index.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();
let server: Server;
let baseUrl: string;
let admin: Account;
let api: ApiClient;
beforeAll(async () => {
  server = h.current.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  admin = await h.current.newAdmin();
  api = createClient({ baseUrl, token: admin.token });
});
afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

describe('typed client', () => {
  it('users and organizations: reads the caller and their organization, renames it', async () => {
    const user = await api.GET('/user');
    expect(user.data?.id).toBe(admin.userId);
    const organizationId = admin.organizationId;
    const renamed = await api.PATCH('/orgs/{organizationId}', { params: { path: { organizationId } }, body: { title: 'Client walk' } });
    expect(renamed.data?.title).toBe('Client walk');
    const mine = await api.GET('/orgs', {});
    expect(mine.data?.items.map((o) => o.id)).toContain(organizationId);
  });

  it('members, teams and agent instructions', async () => {
    const organizationId = admin.organizationId;
    const member = await h.current.newMember(organizationId, 'read');
    const updated = await api.PATCH('/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId, userId: member.userId } }, body: { role: 'edit' } });
    expect(updated.response.status).toBe(200);
    const members = await api.GET('/orgs/{organizationId}/members', { params: { path: { organizationId }, query: { limit: 10 } } });
    expect(members.data?.items.find((m) => m.user.id === member.userId)?.role).toBe('edit');
    const team = await api.PUT('/orgs/{organizationId}/teams', { params: { path: { organizationId } }, body: { title: 'Writers', members: [member.userId] } });
    expect(team.data?.title).toBe('Writers');
    const instructions = { object: 'document', data: { schemaVersion: 1 }, nodes: [] } as never;
    const put = await api.PUT('/orgs/{organizationId}/agent-instructions', { params: { path: { organizationId } }, body: { instructions } });
    expect(put.response.ok).toBe(true);
  });

  it('collections, spaces, content, change requests and comments', async () => {
    const organizationId = admin.organizationId;
    const collection = await api.POST('/orgs/{organizationId}/collections', { params: { path: { organizationId } }, body: { title: 'Docs' } });
    const space = await api.POST('/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Guide', parent: collection.data!.id } });
    expect(space.response.status).toBe(201);
    const spaceId = space.data!.id;
    const inCollection = await api.GET('/collections/{collectionId}/spaces', { params: { path: { collectionId: collection.data!.id } } });
    expect(inCollection.data?.items.map((s) => s.id)).toEqual([spaceId]);

    const cr = await api.POST('/spaces/{spaceId}/change-requests', { params: { path: { spaceId } }, body: { subject: 'First page' } });
    const path = { spaceId, changeRequestId: cr.data!.id };
    const content = await api.POST('/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
      params: { path },
      body: { changes: [{ operation: 'insert_page', title: 'Hello', document: { markdown: '# Hello\n\nWorld.' } }] },
    });
    expect(content.response.ok).toBe(true);
    const merged = await api.POST('/spaces/{spaceId}/change-requests/{changeRequestId}/merge', { params: { path } });
    expect(merged.data?.result).toBe('merge');
    const pages = await api.GET('/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } });
    expect(pages.data?.pages.map((p) => p.title)).toEqual(['Hello']);

    const comment = await api.POST('/spaces/{spaceId}/comments', { params: { path: { spaceId } }, body: { body: { markdown: 'Nice page' } } });
    const reply = await api.POST('/spaces/{spaceId}/comments/{commentId}/replies', {
      params: { path: { spaceId, commentId: comment.data!.id } },
      body: { body: { markdown: 'Thanks' } },
    });
    expect(reply.data?.id).toBeDefined();
    const search = await api.GET('/spaces/{spaceId}/search', { params: { path: { spaceId }, query: { query: 'World' } } });
    expect(search.response.status).toBe(200);
  });

  it('sites, integrations, OpenAPI specifications, translations, SSO and conversations', async () => {
    const organizationId = admin.organizationId;
    const org = { params: { path: { organizationId } } };
    const space = await api.POST('/orgs/{organizationId}/spaces', { ...org, body: { title: 'Published' } });
    const site = await api.POST('/orgs/{organizationId}/sites', { ...org, body: { title: 'Docs site', spaces: [space.data!.id] } });
    const published = await api.POST('/orgs/{organizationId}/sites/{siteId}/publish', { params: { path: { organizationId, siteId: site.data!.id } } });
    expect(published.response.ok).toBe(true);

    const name = `client-walk-${organizationId.slice(-6).toLowerCase()}`;
    const integration = await api.POST('/integrations/{integrationName}', {
      params: { path: { integrationName: name } },
      body: { title: 'Walk', description: 'A test integration.', scopes: [], organization: organizationId, script: 'export default {}' },
    });
    expect(integration.response.ok).toBe(true);
    const installed = await api.POST('/integrations/{integrationName}/installations', { params: { path: { integrationName: name } }, body: { organization: organizationId } });
    expect(installed.response.ok).toBe(true);

    const spec = await api.POST('/orgs/{organizationId}/openapi', {
      ...org,
      body: { slug: 'walk', source: { text: 'openapi: 3.1.0\ninfo: { title: Walk, version: "1" }\npaths: {}\n' } },
    });
    expect(spec.data?.slug).toBe('walk');
    const translation = await api.POST('/orgs/{organizationId}/translations', { ...org, body: { source: { space: space.data!.id, language: 'en' }, language: 'de' } });
    expect(translation.data?.language).toBe('de');
    const saml = await api.POST('/orgs/{organizationId}/saml', { ...org, body: { label: 'Okta' } });
    expect(saml.data?.label).toBe('Okta');
    const ingested = await api.POST('/orgs/{organizationId}/conversations', { ...org, body: { id: 'walk-1', parts: [{ type: 'message', role: 'user', body: 'Where is the API key?' }] } });
    expect(ingested.response.ok).toBe(true);
    const conversations = await api.GET('/orgs/{organizationId}/conversations', org);
    expect(conversations.data?.items).toHaveLength(1);
  });

  it('types errors as the error body', async () => {
    const missing = await api.GET('/spaces/{spaceId}', { params: { path: { spaceId: 'spc_00000000000000000000000000' } } });
    expect(missing.data).toBeUndefined();
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe(404);
    expect(missing.error?.error.message).toMatch(/not found/i);
    const anonymous = await createClient({ baseUrl }).GET('/user');
    expect(anonymous.error?.error.code).toBe(401);
  });
});
