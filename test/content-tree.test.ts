// Unit tests of the ordering rules of the content tree, on a real database but without HTTP.
import { describe, expect, it } from 'vitest';
import { lastPosition, placeNextToSpace } from '../server/content/tree.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('content tree positions', () => {
  it('places items between a space and its neighbours, or past the ends', async () => {
    const admin = await h.current.newAdmin();
    const ids: string[] = [];
    for (const title of ['one', 'two']) {
      ids.push((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title })).body.id);
    }
    const db = h.current.db;
    expect(await lastPosition(db, admin.organizationId, null)).toBe(3);
    expect(await placeNextToSpace(db, admin.organizationId, ids[0], 'before')).toEqual({ parentId: null, position: 0 });
    expect(await placeNextToSpace(db, admin.organizationId, ids[0], 'after')).toEqual({ parentId: null, position: 1.5 });
    expect(await placeNextToSpace(db, admin.organizationId, ids[1], 'after')).toEqual({ parentId: null, position: 3 });
    await expect(placeNextToSpace(db, admin.organizationId, 'spc_missing', 'before')).rejects.toThrow(/not found/);
  });
});
