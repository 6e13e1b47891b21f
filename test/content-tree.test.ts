// Unit tests of the ordering rules of the content tree, on a real database but without HTTP.
import { describe, expect, it } from 'vitest';
import { keyBetween } from '../server/content/order-keys.js';
import { lastKey, placeNextToSpace } from '../server/content/tree.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('content tree order keys', () => {
  it('places items between a space and its neighbours, or past the ends', async () => {
    const admin = await h.current.newAdmin();
    const spaces = [];
    for (const title of ['one', 'two']) spaces.push((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title })).body);
    const ctx = h.current.ctx(admin.userId);
    const [first, second] = await h.current.positionsOf(spaces.map((s) => s.id));
    expect(first < second).toBe(true);
    const last = await lastKey(ctx, admin.organizationId, null);
    expect(last > second).toBe(true);
    const before = await placeNextToSpace(ctx, admin.organizationId, spaces[0].id, 'before');
    expect(before.parentId).toBeNull();
    expect(before.position < first).toBe(true);
    const between = await placeNextToSpace(ctx, admin.organizationId, spaces[0].id, 'after');
    expect(between.position > first && between.position < second).toBe(true);
    const after = await placeNextToSpace(ctx, admin.organizationId, spaces[1].id, 'after');
    expect(after.position > second).toBe(true);
    await expect(placeNextToSpace(ctx, admin.organizationId, 'spc_missing', 'before')).rejects.toThrow(/not found/);
  });

  it('always finds a key between two keys, however many moves land in the same gap', () => {
    let low = 'a0';
    const high = 'a1';
    for (let i = 0; i < 1000; i++) {
      const key = keyBetween(low, high);
      expect(key > low && key < high).toBe(true);
      low = key;
    }
  });
});
