// Installing integrations, listing installations and their spaces and sites.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrationInstallations } from '../server/db/schema/index.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

async function newSpace(account: Account, title: string) {
  const res = await account.api.post(`/orgs/${account.organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body as { id: string; title: string };
}

async function newSite(account: Account, title: string) {
  const res = await account.api.post(`/orgs/${account.organizationId}/sites`, { title });
  expect(res.status).toBe(201);
  return res.body as { id: string; title: string };
}

async function eventsOf(owner: Account, name: string) {
  const res = await owner.api.get(`/integrations/${name}/events`);
  expect(res.status).toBe(200);
  return res.body.items as { payload: Record<string, unknown>; installationId?: string }[];
}

async function install(account: Account, name: string, organization = account.organizationId) {
  return account.api.post(`/integrations/${name}/installations`, { organization });
}

describe('integration installations', () => {
  it('post /integrations/{integrationName}/installations installs into an organization, once', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('inst');
    await publishAs(owner, name);
    const first = await install(other, name);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: 'integration-installation',
      status: 'active',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      configuration: {},
      externalIds: [],
      target: { organization: other.organizationId },
    });
    expect(first.body.urls.location).toBe(`https://api.test.example/v1/integrations/${name}/installations/${first.body.id}`);
    const again = await install(other, name);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  it('post /integrations/{integrationName}/installations returns 404 for an unknown integration or organization, 403 without admin', async () => {
    const owner = await h.current.newAdmin();
    const editor = await h.current.newMember(owner.organizationId, 'edit');
    const outsider = await h.current.newAdmin();
    const name = unique('inst');
    await publishAs(owner, name);
    expect((await install(owner, 'no-such-integration')).status).toBe(404);
    expect((await install(owner, name, 'org_unknown')).status).toBe(404);
    expect((await install(outsider, name, owner.organizationId)).status).toBe(404);
    expect((await install(editor, name)).status).toBe(403);
    const privateName = unique('private');
    await publishAs(owner, privateName, { visibility: 'private' });
    expect((await install(outsider, privateName)).status).toBe(404);
    await h.current.addMembership(owner.organizationId, outsider.userId, 'read');
    const res = await install(outsider, privateName);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('private');
    const missing = await owner.api.post(`/integrations/${name}/installations`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.organization');
  });

  it('get /integrations/{integrationName}/installations lists them in creation order, filtered by externalId, paginated', async () => {
    const owner = await h.current.newAdmin();
    const a = await h.current.newAdmin();
    const b = await h.current.newAdmin();
    const name = unique('list');
    await publishAs(owner, name);
    const ids = [(await install(owner, name)).body.id, (await install(a, name)).body.id, (await install(b, name)).body.id];
    await h.current.db.update(integrationInstallations).set({ externalIds: ['acct-7', 'x'] }).where(eq(integrationInstallations.id, ids[1]));
    const all = await owner.api.get(`/integrations/${name}/installations`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: { id: string }) => i.id)).toEqual(ids);
    expect(all.body.count).toBe(3);
    const filtered = await owner.api.get(`/integrations/${name}/installations`, { externalId: 'acct-7' });
    expect(filtered.body.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    expect(filtered.body.items[0].externalIds).toEqual(['acct-7', 'x']);
    const page1 = await owner.api.get(`/integrations/${name}/installations`, { limit: 2 });
    const page2 = await owner.api.get(`/integrations/${name}/installations`, { limit: 2, page: page1.body.next.page });
    expect([...page1.body.items, ...page2.body.items].map((i: { id: string }) => i.id)).toEqual(ids);
  });

  it('get /integrations/{integrationName}/installations returns 403 for non-admins of the owner, 404 for unknown integrations', async () => {
    const owner = await h.current.newAdmin();
    const installer = await h.current.newAdmin();
    const name = unique('deny');
    await publishAs(owner, name);
    await install(installer, name);
    expect((await installer.api.get(`/integrations/${name}/installations`)).status).toBe(403);
    expect((await owner.api.get('/integrations/no-such-one/installations')).status).toBe(404);
  });

  it('installs on spaces through the API: install, list, get, update, uninstall, with events and the lists of the integration', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('spaces');
    await publishAs(owner, name, { configurations: { space: { properties: { dashboard: { type: 'string' } }, required: ['dashboard'] } } });
    const installation = (await install(other, name)).body;
    const base = `/integrations/${name}/installations/${installation.id}/spaces`;
    const spaceA = await newSpace(other, 'A');
    const spaceB = await newSpace(other, 'B');
    const created = await other.api.post(base, { space: spaceA.id });
    expect(created.status).toBe(201);
    const location = `https://api.test.example/v1${base}/${spaceA.id}`;
    expect(created.headers.location).toBe(location);
    expect(created.body).toEqual({
      integration: name,
      installation: installation.id,
      status: 'active',
      configuration: {},
      externalIds: [],
      urls: {
        location,
        publicEndpoint: `https://api.test.example${base}/${spaceA.id}/integration`,
        publicContentEndpoint: `https://api.test.example${base}/${spaceA.id}/integration`,
      },
      space: spaceA.id,
    });
    // Installing again keeps the one there.
    expect((await other.api.post(base, { space: spaceA.id })).body.urls.location).toBe(location);
    expect((await other.api.post(`${base}?extended=true`, { space: spaceB.id })).body.space).toMatchObject({ object: 'space', id: spaceB.id, title: 'B' });

    const updated = await other.api.patch(`${base}/${spaceA.id}`, { configuration: { dashboard: 'weekly' }, externalIds: ['proj-1'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ configuration: { dashboard: 'weekly' }, externalIds: ['proj-1'] });
    const wrongType = await other.api.patch(`${base}/${spaceA.id}`, { configuration: { dashboard: 5 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain('body.configuration.dashboard');
    const missing = await other.api.patch(`${base}/${spaceA.id}`, { configuration: {} });
    expect(missing.status).toBe(400);
    expect((await other.api.get(`${base}/${spaceA.id}`)).body.configuration).toEqual({ dashboard: 'weekly' });

    const listed = await other.api.get(base);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { space: string }) => i.space)).toEqual([spaceA.id, spaceB.id]);
    expect((await owner.api.get(base)).status).toBe(200); // the owner's admins read
    expect((await owner.api.post(base, { space: spaceA.id })).status).toBe(403); // but do not manage

    // The integration's own lists, and the `spaces` count, from the same data.
    const acrossIds = await owner.api.get(`/integrations/${name}/spaces`);
    expect(acrossIds.body.count).toBe(2);
    const filtered = await owner.api.get(`/integrations/${name}/spaces`, { externalId: 'proj-1', extended: true });
    expect(filtered.body.items).toHaveLength(1);
    expect(filtered.body.items[0].space).toMatchObject({ object: 'space', id: spaceA.id, title: 'A' });
    expect((await other.api.get(`/integrations/${name}/installations/${installation.id}`)).body.spaces).toBe(2);

    expect((await other.api.delete(`${base}/${spaceB.id}`)).status).toBe(204);
    expect((await other.api.delete(`${base}/${spaceB.id}`)).status).toBe(204);
    expect((await other.api.get(`${base}/${spaceB.id}`)).status).toBe(404);
    expect((await other.api.get(`/integrations/${name}/installations/${installation.id}`)).body.spaces).toBe(1);

    const types = (await eventsOf(owner, name)).map((e) => [e.payload.type, e.payload.spaceId]);
    expect(types).toEqual([
      ['space_installation_deleted', spaceB.id],
      ['space_installation_setup', spaceA.id],
      ['space_installation_setup', spaceB.id],
      ['space_installation_setup', spaceA.id],
      ['installation_setup', undefined],
    ]);
    const [deleted, setup] = await eventsOf(owner, name);
    expect(deleted.payload.previous).toEqual({ configuration: {} });
    expect(setup.payload).toMatchObject({ status: 'active', previous: { status: 'active', configuration: {} } });
  });

  it('refuses spaces of other organizations, unknown installations, and targets the integration does not allow', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('refuse');
    await publishAs(owner, name, { target: 'site' });
    const installation = (await install(other, name)).body;
    const base = `/integrations/${name}/installations/${installation.id}`;
    const foreignSpace = await newSpace(owner, 'Foreign');
    const wrongTarget = await other.api.post(`${base}/spaces`, { space: (await newSpace(other, 'Mine')).id });
    expect(wrongTarget.status).toBe(400);
    expect(wrongTarget.body.error.message).toContain('target');
    const siteName = unique('any');
    await publishAs(owner, siteName);
    const anyInstallation = (await install(other, siteName)).body;
    expect((await other.api.post(`/integrations/${siteName}/installations/${anyInstallation.id}/spaces`, { space: foreignSpace.id })).status).toBe(404);
    expect((await other.api.post(`/integrations/${siteName}/installations/ins_unknown/spaces`, { space: foreignSpace.id })).status).toBe(404);
    expect((await other.api.post(`/integrations/${siteName}/installations/${anyInstallation.id}/spaces`, {})).status).toBe(400);
    const editor = await h.current.newMember(other.organizationId, 'edit');
    expect((await editor.api.get(`/integrations/${siteName}/installations/${anyInstallation.id}`)).status).toBe(403);
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.get(`/integrations/${siteName}/installations/${anyInstallation.id}`)).status).toBe(404);
    expect((await stranger.api.delete(`/integrations/${siteName}/installations/${anyInstallation.id}`)).status).toBe(204);
    expect((await other.api.get(`/integrations/${siteName}/installations/${anyInstallation.id}`)).status).toBe(200);
  });

  it('installs on sites through the API, with the site lists and externalId filter from real data', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('sites');
    await publishAs(owner, name);
    const installation = (await install(other, name)).body;
    const base = `/integrations/${name}/installations/${installation.id}/sites`;
    expect((await owner.api.get(`/integrations/${name}/sites`)).body).toEqual({ items: [], count: 0 });
    const site = await newSite(other, 'Docs');
    const created = await other.api.post(base, { siteId: site.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ installation: installation.id, status: 'active', site: site.id });
    expect((await other.api.patch(`${base}/${site.id}`, { externalIds: ['site-19'], configuration: { trackingId: 'AC-1' } })).status).toBe(200);
    const ids = await owner.api.get(`/integrations/${name}/sites`);
    expect(ids.body.items).toEqual([
      {
        integration: name,
        installation: installation.id,
        status: 'active',
        configuration: { trackingId: 'AC-1' },
        externalIds: ['site-19'],
        urls: {
          location: `https://api.test.example/v1${base}/${site.id}`,
          publicEndpoint: `https://api.test.example${base}/${site.id}/integration`,
          publicContentEndpoint: `https://api.test.example${base}/${site.id}/integration`,
        },
        site: site.id,
      },
    ]);
    const extended = await owner.api.get(`/integrations/${name}/sites`, { extended: true, externalId: 'site-19' });
    expect(extended.body.items[0].site).toMatchObject({ object: 'site', id: site.id, title: 'Docs' });
    expect((await owner.api.get(`/integrations/${name}/sites`, { externalId: 'nope' })).body.count).toBe(0);
    expect((await other.api.get(`${base}/${site.id}`, { extended: true })).body.site).toMatchObject({ object: 'site', id: site.id });
    expect((await other.api.get(`/integrations/${name}/sites`)).status).toBe(403);
    expect((await owner.api.get('/integrations/no-such-one/sites')).status).toBe(404);
    expect((await owner.api.get(`/integrations/${name}/sites`, { extended: 'yes' })).status).toBe(400);
    expect((await other.api.delete(`${base}/${site.id}`)).status).toBe(204);
    expect((await other.api.get(base)).body.count).toBe(0);
    const types = (await eventsOf(owner, name)).map((e) => e.payload.type);
    expect(types.slice(0, 3)).toEqual(['site_installation_deleted', 'site_installation_setup', 'site_installation_setup']);
  });

  it('updates and uninstalls an installation: configuration checked, selections, externalIds filter, events', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('update');
    await publishAs(owner, name, { configurations: { account: { properties: { plan: { type: 'string', enum: ['free', 'pro'] } }, required: ['plan'] } } });
    const installation = (await install(other, name)).body;
    const path = `/integrations/${name}/installations/${installation.id}`;
    expect((await other.api.patch(path, { configuration: { plan: 'gold' } })).status).toBe(400);
    expect((await other.api.patch(path, { externalIds: ['a', 'b', 'c', 'd', 'e', 'f'] })).status).toBe(400);
    await newSpace(other, 'One');
    await newSpace(other, 'Two');
    const updated = await other.api.patch(path, { configuration: { plan: 'pro' }, externalIds: ['acct-9'], space_selection: 'all' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ configuration: { plan: 'pro' }, externalIds: ['acct-9'], space_selection: 'all', spaces: 2 });
    expect((await owner.api.get(path)).body.configuration).toEqual({ plan: 'pro' });
    expect((await owner.api.patch(path, { externalIds: [] })).status).toBe(403);
    expect((await owner.api.get(`/integrations/${name}/installations`, { externalId: 'acct-9' })).body.items.map((i: { id: string }) => i.id)).toEqual([installation.id]);
    const [setup] = await eventsOf(owner, name);
    expect(setup.payload).toMatchObject({ type: 'installation_setup', status: 'active', previous: { status: 'active', configuration: {} } });

    expect((await other.api.delete(path)).status).toBe(204);
    expect((await other.api.get(path)).status).toBe(404);
    expect((await other.api.delete(path)).status).toBe(204);
    const [deleted] = await eventsOf(owner, name);
    expect(deleted).toMatchObject({ installationId: installation.id, payload: { type: 'installation_deleted', previous: { configuration: { plan: 'pro' } } } });
  });
});
