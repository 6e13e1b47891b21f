import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('keyset pagination', () => {
  it('get /orgs/{organizationId}/spaces walks every item once across pages, unaffected by inserts behind the cursor', async () => {
    const admin = await h.current.newAdmin();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: `S${i}` })).body.id);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await admin.api.get(`/orgs/${admin.organizationId}/spaces`, { limit: 3, ...(page && { page }) });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(seen.length === 0 ? 7 : 8);
      seen.push(...res.body.items.map((s: { id: string }) => s.id));
      page = res.body.next?.page;
      if (seen.length === 3) created.push((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {})).body.id);
    } while (page);
    expect(seen).toEqual(created);
  });

  it('get /collections/{collectionId}/spaces pages on (position, id)', async () => {
    const admin = await h.current.newAdmin();
    const c = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, {})).body;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { parent: c.id })).body.id);
    const first = await admin.api.get(`/collections/${c.id}/spaces`, { limit: 2 });
    const second = await admin.api.get(`/collections/${c.id}/spaces`, { limit: 2, page: first.body.next.page });
    expect([...first.body.items, ...second.body.items].map((s: { id: string }) => s.id)).toEqual(ids);
    expect(second.body.next).toBeUndefined();
  });

  it('returns 400 for a page identifier the list did not issue, and for limit 0', async () => {
    const admin = await h.current.newAdmin();
    const bad = await admin.api.get(`/orgs/${admin.organizationId}/spaces`, { page: 'not-a-cursor' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('query.page');
    const zero = await admin.api.get(`/orgs/${admin.organizationId}/spaces`, { limit: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.error.message).toContain('query.limit');
  });

  it('accepts the maximum limit of 1000', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.get(`/orgs/${admin.organizationId}/spaces`, { limit: 1000 });
    expect(res.status).toBe(200);
  });

  it('refuses a forged cursor whose timestamp key is not a timestamp (found by the fuzz test: it was a 500 on PostgreSQL)', async () => {
    const admin = await h.current.newAdmin();
    const forged = Buffer.from(JSON.stringify([0, 0])).toString('base64url');
    for (const path of [`/orgs/${admin.organizationId}/members`, `/orgs/${admin.organizationId}/change-requests`]) {
      const res = await admin.api.get(path, { page: forged });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toContain('query.page');
    }
  });
});
