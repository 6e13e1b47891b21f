// A space transferred to another organization leaves nothing of itself in the old one: the old
// organization's sites stop publishing it, its integrations are no longer installed on it, and no event
// about it reaches them, neither one queued before the move nor any after. A collection transfer does the
// same for every space it holds.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrationEvents } from '../server/db/schema/index.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { mergeChanges, newSite, sitePath } from './sites-support.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
let n = 0;

/** An integration of `owner`, installed in its organization; returns its name and installation. */
async function installed(owner: Account) {
  const name = `leave-${Date.now().toString(36)}-${++n}`;
  await publishAs(owner, name, { script: 'export default { fetch() { return new Response("ok") } }' });
  const res = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
  expect(res.status).toBe(200);
  return { name, installation: res.body.id as string };
}

async function eventsAbout(name: string, spaceId: string) {
  const rows = await h.current.db.select().from(integrationEvents).where(eq(integrationEvents.integrationName, name));
  return rows.filter((r) => r.payload.spaceId === spaceId);
}

describe('transfers leave nothing behind', () => {
  it('post /spaces/{spaceId}/transfer removes the old organization\'s site spaces and space installations, and its pending events', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const moving = await spaceWithPages(admin, 'Moving', [{ title: 'Leaving', markdown: 'Soon elsewhere.' }]);
    const staying = await spaceWithPages(admin, 'Staying', [{ title: 'Here', markdown: 'Still here.' }]);
    const site = await newSite(admin, { title: 'Old docs', spaces: [moving, staying] });
    const url = (await publish(admin, site.id)).urls.published;
    expect((await open(h.current, `${url}/moving`)).text).toContain('Soon elsewhere.');

    const { name, installation } = await installed(admin);
    expect((await admin.api.post(`/integrations/${name}/installations/${installation}/spaces`, { space: moving })).status).toBe(201);
    // A merge queues an event for the installation; the space moves before it is delivered.
    await mergeChanges(admin, moving, [{ operation: 'insert_page', title: 'More', document: { markdown: 'More text.' } }]);
    const before = await eventsAbout(name, moving);
    expect(before.map((e) => e.payload.type)).toContain('space_content_updated');
    expect(before.every((e) => e.status === 'pending')).toBe(true);

    const moved = await admin.api.post(`/spaces/${moving}/transfer`, { organization: target.organizationId });
    expect(moved.status).toBe(200);
    expect(moved.body.organization).toBe(target.organizationId);

    const siteSpaces = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
    expect(siteSpaces.status).toBe(200);
    expect(siteSpaces.body.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([staying]);
    const siteNow = await admin.api.get(sitePath(admin, site.id));
    expect(siteNow.body.siteSpaces).toBe(1);
    expect((await open(h.current, `${url}/moving`)).text).not.toContain('Soon elsewhere.');
    expect((await open(h.current, url)).text).toContain('Still here.');

    const onSpaces = await admin.api.get(`/integrations/${name}/installations/${installation}/spaces`);
    expect(onSpaces.status).toBe(200);
    expect(onSpaces.body.items).toEqual([]);
    const queued = await eventsAbout(name, moving);
    expect(queued).toHaveLength(before.length);
    for (const event of queued) {
      expect(event.status).toBe('failed');
      expect(event.logs.at(-1)?.message).toContain('the space moved to another organization');
    }

    // Edits in its new organization reach none of the old organization's integrations.
    await mergeChanges(target, moving, [{ operation: 'insert_page', title: 'New home', document: { markdown: 'Settled.' } }]);
    expect(await eventsAbout(name, moving)).toHaveLength(before.length);
  });

  it('post /collections/{collectionId}/transfer does the same for the spaces of the collection', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const collection = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Handbooks' });
    expect(collection.status).toBe(201);
    const inside = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Inside', parent: collection.body.id });
    expect(inside.status).toBe(201);
    const site = await newSite(admin, { spaces: [inside.body.id] });
    const { name, installation } = await installed(admin);
    expect((await admin.api.post(`/integrations/${name}/installations/${installation}/spaces`, { space: inside.body.id })).status).toBe(201);

    const moved = await admin.api.post(`/collections/${collection.body.id}/transfer`, { organization: target.organizationId });
    expect(moved.status).toBe(200);
    expect((await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items).toEqual([]);
    expect((await admin.api.get(`/integrations/${name}/installations/${installation}/spaces`)).body.items).toEqual([]);
  });
});
