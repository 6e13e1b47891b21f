// Installing integrations, listing installations and their spaces and sites.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, sites, spaces } from '../server/db/schema/index.js';
import { newId } from '../server/ids.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

// Spaces and sites are inserted as rows: this file tests the integration lists, not those areas' creation.
async function insertSpace(organizationId: string, title: string) {
  const now = new Date();
  const [row] = await h.current.db
    .insert(spaces)
    .values({
      id: newId('spc'),
      organizationId,
      title,
      emoji: '',
      visibility: 'private',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      revisionId: newId('rev'),
      position: `a${++n}`,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row;
}

async function insertSite(organizationId: string, title: string) {
  const now = new Date();
  const [row] = await h.current.db
    .insert(sites)
    .values({ id: newId('site'), organizationId, type: 'basic', title, visibility: 'public', shareKey: 'k', createdAt: now, updatedAt: now })
    .returning();
  return row;
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

  it('get /integrations/{integrationName}/spaces lists space installations, as ids or Space objects with extended', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('spaces');
    await publishAs(owner, name);
    const installation = (await install(other, name)).body;
    const spaceA = await insertSpace(other.organizationId, 'A');
    const spaceB = await insertSpace(other.organizationId, 'B');
    for (const [space, externalIds] of [[spaceA, ['proj-1']], [spaceB, []]] as const) {
      await h.current.db.insert(integrationSpaceInstallations).values({
        id: newId('isi'),
        installationId: installation.id,
        integrationName: name,
        spaceId: space.id,
        status: 'active',
        configuration: { dashboard: space.title },
        externalIds: [...externalIds],
        createdAt: new Date(),
      });
    }
    const ids = await owner.api.get(`/integrations/${name}/spaces`);
    expect(ids.status).toBe(200);
    expect(ids.body.count).toBe(2);
    expect(ids.body.items[0]).toEqual({
      integration: name,
      installation: installation.id,
      status: 'active',
      configuration: { dashboard: 'A' },
      externalIds: ['proj-1'],
      urls: {
        location: `https://api.test.example/v1/integrations/${name}/installations/${installation.id}/spaces/${spaceA.id}`,
        publicEndpoint: `https://api.test.example/v1/integrations/${name}/installations/${installation.id}/spaces/${spaceA.id}/integration`,
      },
      space: spaceA.id,
    });
    const extended = await owner.api.get(`/integrations/${name}/spaces`, { extended: true, externalId: 'proj-1' });
    expect(extended.body.items).toHaveLength(1);
    expect(extended.body.items[0].space).toMatchObject({ object: 'space', id: spaceA.id, title: 'A' });
    expect((await owner.api.get(`/integrations/${name}/installations`)).body.items[0].spaces).toBe(2);
    expect((await other.api.get(`/integrations/${name}/spaces`)).status).toBe(403);
    expect((await owner.api.get('/integrations/no-such-one/spaces')).status).toBe(404);
    expect((await owner.api.get(`/integrations/${name}/spaces`, { extended: 'yes' })).status).toBe(400);
  });

  it('get /integrations/{integrationName}/sites lists site installations, as ids or Site objects with extended', async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const name = unique('sites');
    await publishAs(owner, name);
    const installation = (await install(other, name)).body;
    expect((await owner.api.get(`/integrations/${name}/sites`)).body).toEqual({ items: [], count: 0 });
    const site = await insertSite(other.organizationId, 'Docs');
    await h.current.db.insert(integrationSiteInstallations).values({
      id: newId('iti'),
      installationId: installation.id,
      integrationName: name,
      siteId: site.id,
      status: 'active',
      configuration: { trackingId: 'AC-1' },
      externalIds: ['site-19'],
      createdAt: new Date(),
    });
    const ids = await owner.api.get(`/integrations/${name}/sites`);
    expect(ids.status).toBe(200);
    expect(ids.body.items).toEqual([
      {
        integration: name,
        installation: installation.id,
        status: 'active',
        configuration: { trackingId: 'AC-1' },
        externalIds: ['site-19'],
        urls: {
          location: `https://api.test.example/v1/integrations/${name}/installations/${installation.id}/sites/${site.id}`,
          publicEndpoint: `https://api.test.example/v1/integrations/${name}/installations/${installation.id}/sites/${site.id}/integration`,
        },
        site: site.id,
      },
    ]);
    const extended = await owner.api.get(`/integrations/${name}/sites`, { extended: true, externalId: 'site-19' });
    expect(extended.body.items[0].site).toMatchObject({ object: 'site', id: site.id, title: 'Docs' });
    expect((await owner.api.get(`/integrations/${name}/sites`, { externalId: 'nope' })).body.count).toBe(0);
    expect((await other.api.get(`/integrations/${name}/sites`)).status).toBe(403);
    expect((await owner.api.get('/integrations/no-such-one/sites')).status).toBe(404);
  });
});
