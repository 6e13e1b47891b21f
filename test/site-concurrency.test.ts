import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSite, newSiteSpace, newSpace, sitePath } from './sites-support.js';

const h = useHarness();

describe('site structure under concurrent writes', () => {
  it('post /orgs/{organizationId}/sites/{siteId}/site-spaces run together keep one default and distinct positions', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const spaces = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => newSpace(admin, `S${n}`)));
    const added = await Promise.all(spaces.map((spaceId) => admin.api.post(`${sitePath(admin, site.id)}/site-spaces`, { spaceId })));
    expect(added.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const listed = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items;
    expect(listed).toHaveLength(6);
    expect(listed.filter((s: { default: boolean }) => s.default)).toHaveLength(1);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move run together leave a consistent order', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const items = [];
    for (const title of ['A', 'B', 'C', 'D']) items.push(await newSiteSpace(admin, site.id, title));
    const [a, b, c, d] = items;
    const move = (id: string, anchor: string) =>
      admin.api.post(`${sitePath(admin, site.id)}/site-spaces/${id}/move`, { position: { after: { type: 'site-space', siteSpace: anchor } } });
    // Both land right after A: whichever commits last is first after A; the other follows it.
    const results = await Promise.all([move(c.id, a.id), move(d.id, a.id)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const order = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items.map((s: { id: string }) => s.id);
    expect(order).toHaveLength(4);
    expect(order[0]).toBe(a.id);
    expect(order[3]).toBe(b.id);
    expect(new Set(order.slice(1, 3))).toEqual(new Set([c.id, d.id]));
  });
});
