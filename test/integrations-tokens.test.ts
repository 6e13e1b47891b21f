// Installation tokens (createIntegrationInstallationToken): a request made with one acts as the
// installation, within its integration's scopes (403 naming the scope outside them) and on what the
// installation covers; uninstalling revokes them (401). A script gets one in `env` and calls the API back.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationInstallationTokens, users } from '../server/db/schema/index.js';
import { setScriptUrls } from '../server/runtime/script-runtime.js';
import { createUrls } from '../server/urls.js';
import { apiClient } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

interface Setup {
  owner: Account;
  name: string;
  installationId: string;
  /** A space the installation is installed on, and one of the same organization it is not. */
  covered: string;
  uncovered: string;
}

async function setUp(scopes: string[], extra: Record<string, unknown> = {}): Promise<Setup> {
  const owner = await h.current.newAdmin();
  const name = unique('tokens');
  await publishAs(owner, name, { scopes, ...extra });
  const installed = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
  expect(installed.status).toBe(200);
  const space = async (title: string) => {
    const res = await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const covered = await space('Covered');
  const uncovered = await space('Not covered');
  expect((await owner.api.post(`/integrations/${name}/installations/${installed.body.id}/spaces`, { space: covered })).status).toBe(201);
  return { owner, name, installationId: installed.body.id, covered, uncovered };
}

async function tokenOf(s: Setup): Promise<string> {
  const res = await s.owner.api.post(`/integrations/${s.name}/installations/${s.installationId}/tokens`);
  expect(res.status).toBe(200);
  expect(res.body.token).toMatch(/^dwit_/);
  expect(new Date(res.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 50 * 60 * 1000);
  return res.body.token;
}

describe('createIntegrationInstallationToken', () => {
  it('is for the admins of the organization owning the integration; 403 for others, 404 for an unknown installation', async () => {
    const s = await setUp(['space:content:read']);
    await tokenOf(s);
    const editor = await h.current.newMember(s.owner.organizationId, 'edit');
    expect((await editor.api.post(`/integrations/${s.name}/installations/${s.installationId}/tokens`)).status).toBe(403);
    // An admin of the organization it is installed in, not of the owner, cannot mint one either.
    const other = await h.current.newAdmin();
    const public_ = unique('public');
    await publishAs(s.owner, public_, { visibility: 'public' });
    const elsewhere = await other.api.post(`/integrations/${public_}/installations`, { organization: other.organizationId });
    expect(elsewhere.status).toBe(200);
    expect((await other.api.post(`/integrations/${public_}/installations/${elsewhere.body.id}/tokens`)).status).toBe(403);
    expect((await s.owner.api.post(`/integrations/${public_}/installations/${elsewhere.body.id}/tokens`)).status).toBe(200);
    expect((await s.owner.api.post(`/integrations/${s.name}/installations/ins_unknown/tokens`)).status).toBe(404);
    expect((await s.owner.api.post(`/integrations/${s.name}/installations/${elsewhere.body.id}/tokens`)).status).toBe(404);
    expect((await s.owner.api.post(`/integrations/no-such-integration/installations/${s.installationId}/tokens`)).status).toBe(404);
  });

  it('mints tokens that act as one user, made with the first even when they are minted at once; a new one removes the expired ones', async () => {
    const s = await setUp(['space:content:read']);
    const mint = () => s.owner.api.post(`/integrations/${s.name}/installations/${s.installationId}/tokens`);
    for (const res of await Promise.all([mint(), mint(), mint()])) expect(res.status).toBe(200);
    const tokensOf = () =>
      h.current.db
        .select({ userId: integrationInstallationTokens.userId, expiresAt: integrationInstallationTokens.expiresAt })
        .from(integrationInstallationTokens)
        .where(eq(integrationInstallationTokens.installationId, s.installationId));
    const minted = await tokensOf();
    expect(minted).toHaveLength(3);
    expect(new Set(minted.map((t) => t.userId)).size).toBe(1);
    await h.current.db
      .update(integrationInstallationTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrationInstallationTokens.installationId, s.installationId));
    expect((await mint()).status).toBe(200);
    const left = await tokensOf();
    expect(left).toHaveLength(1);
    expect(left[0].userId).toBe(minted[0].userId);
    expect(left[0].expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('a request with an installation token', () => {
  it('is allowed inside the scopes on what the installation covers, 403 naming the missing scope outside them', async () => {
    const s = await setUp(['space:content:read', 'space:metadata:read']);
    const api = apiClient(h.current.app, await tokenOf(s));
    const space = await api.get(`/spaces/${s.covered}`);
    expect(space.status).toBe(200);
    expect(space.body.id).toBe(s.covered);
    expect((await api.get(`/spaces/${s.covered}/content`)).status).toBe(200);
    expect((await api.get(`/spaces/${s.covered}/content/pages`)).status).toBe(200);
    expect((await api.get(`/spaces/${s.covered}/change-requests`)).status).toBe(200);

    const write = await api.patch(`/spaces/${s.covered}`, { title: 'Renamed' });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('space:metadata:write');
    const cr = await api.post(`/spaces/${s.covered}/change-requests`, { subject: 'From the integration' });
    expect(cr.status).toBe(403);
    expect(cr.body.error.message).toContain('space:content:write');
    // Operations no scope allows.
    for (const path of ['/user', `/orgs/${s.owner.organizationId}/members`, `/orgs/${s.owner.organizationId}/spaces`]) {
      const refused = await api.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.message).toContain('cannot call');
    }
    // A space of its organization it is not installed on: 403; another organization's: 404.
    const uncovered = await api.get(`/spaces/${s.uncovered}`);
    expect(uncovered.status).toBe(403);
    expect(uncovered.body.error.message).toContain('not installed on the space');
    const stranger = await h.current.newAdmin();
    const foreign = await stranger.api.post(`/orgs/${stranger.organizationId}/spaces`, { title: 'Foreign' });
    expect((await api.get(`/spaces/${foreign.body.id}`)).status).toBe(404);

    // space_selection all covers every space of the organization.
    expect((await s.owner.api.patch(`/integrations/${s.name}/installations/${s.installationId}`, { space_selection: 'all' })).status).toBe(200);
    expect((await api.get(`/spaces/${s.uncovered}`)).status).toBe(200);
    expect((await api.get(`/spaces/${foreign.body.id}`)).status).toBe(404);
  });

  it('reads a site it is installed on with site:metadata:read; 403 for a site it is not installed on', async () => {
    const s = await setUp(['site:metadata:read']);
    const site = async (title: string) => {
      const res = await s.owner.api.post(`/orgs/${s.owner.organizationId}/sites`, { title });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const installed = await site('Installed');
    const other = await site('Other');
    expect((await s.owner.api.post(`/integrations/${s.name}/installations/${s.installationId}/sites`, { siteId: installed })).status).toBe(201);
    const api = apiClient(h.current.app, await tokenOf(s));
    const read = await api.get(`/orgs/${s.owner.organizationId}/sites/${installed}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(installed);
    expect((await api.get(`/orgs/${s.owner.organizationId}/sites/${installed}/sections`)).status).toBe(200);
    const refused = await api.get(`/orgs/${s.owner.organizationId}/sites/${other}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('not installed on the site');
    const write = await api.patch(`/orgs/${s.owner.organizationId}/sites/${installed}`, { title: 'Renamed' });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('cannot call updateSiteById');
    // Its spaces: no space scope.
    const space = await api.get(`/spaces/${s.covered}`);
    expect(space.status).toBe(403);
    expect(space.body.error.message).toContain('space:metadata:read');
  });

  it('writes with space:content:write as the installation, signed by its own user', async () => {
    const s = await setUp(['space:content:read', 'space:content:write']);
    const api = apiClient(h.current.app, await tokenOf(s));
    const cr = await api.post(`/spaces/${s.covered}/change-requests`, { subject: 'From the integration' });
    expect(cr.status).toBe(201);
    const written = await api.post(`/spaces/${s.covered}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Synced\n\nFrom the integration.' } }],
    });
    expect(written.status).toBe(200);
    const merged = await api.post(`/spaces/${s.covered}/change-requests/${cr.body.id}/merge`);
    expect(merged.status).toBe(200);
    const pages = await api.get(`/spaces/${s.covered}/content/pages`);
    expect(pages.status).toBe(200);
    expect(JSON.stringify(pages.body)).toContain('Synced');
    // The author is the installation's user, named after the integration, and the same for its next token.
    const [{ userId }] = await h.current.db.select({ userId: integrationInstallationTokens.userId }).from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, s.installationId));
    const [user] = await h.current.db.select().from(users).where(eq(users.id, userId));
    expect(user.displayName).toBe('Matrix');
    expect(cr.body.createdBy?.id ?? userId).toBe(userId);
    await tokenOf(s);
    const owners = await h.current.db.select({ userId: integrationInstallationTokens.userId }).from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, s.installationId));
    expect(new Set(owners.map((o) => o.userId))).toEqual(new Set([userId]));
  });

  it('is refused (401) once the integration is uninstalled, or once expired', async () => {
    const s = await setUp(['space:metadata:read']);
    const token = await tokenOf(s);
    const api = apiClient(h.current.app, token);
    expect((await api.get(`/spaces/${s.covered}`)).status).toBe(200);
    expect((await s.owner.api.delete(`/integrations/${s.name}/installations/${s.installationId}`)).status).toBe(204);
    const after = await api.get(`/spaces/${s.covered}`);
    expect(after.status).toBe(401);

    // A token past its expiry (made so in the database before its first use).
    const t = await setUp(['space:metadata:read']);
    const expiring = apiClient(h.current.app, await tokenOf(t));
    await h.current.db
      .update(integrationInstallationTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrationInstallationTokens.installationId, t.installationId));
    expect((await expiring.get(`/spaces/${t.covered}`)).status).toBe(401);
  });
});

describe('a script calling the API back with env.apiTokens.installation', () => {
  let server: Server;
  beforeAll(async () => {
    // The script's fetch goes over the network: the app listens, and is the API scripts are told about.
    server = h.current.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    setScriptUrls(createUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
  afterAll(async () => {
    setScriptUrls(createUrls(PUBLIC_URL));
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads within its scopes (200) and is refused outside them (403)', async () => {
    const script = `export default { async fetch(request, env) {
      const url = new URL(request.url);
      const call = (path, init = {}) => fetch(env.apiEndpoint + path, { ...init, headers: { authorization: 'Bearer ' + env.apiTokens.installation, 'content-type': 'application/json' } });
      const read = await call('/spaces/' + url.searchParams.get('space'));
      const write = await call('/spaces/' + url.searchParams.get('space'), { method: 'PATCH', body: JSON.stringify({ title: 'x' }) });
      return Response.json({ read: read.status, title: (await read.json()).title, write: write.status, why: (await write.json()).error.message, endpoint: env.apiEndpoint });
    } }`;
    const s = await setUp(['space:metadata:read'], { script });
    const endpoint = `/integrations/${s.name}/installations/${s.installationId}/integration`;
    const res = await request(h.current.app).get(`${endpoint}?space=${s.covered}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ read: 200, title: 'Covered', write: 403, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    expect(res.body.why).toContain('space:metadata:write');
    // A space it is not installed on is refused to the script too.
    const outside = await request(h.current.app).get(`${endpoint}?space=${s.uncovered}`);
    expect(outside.status).toBe(200);
    expect(outside.body.read).toBe(403);
  });
});
