// Space creations that arrive together in one organization go in as one batch (server/spaces/space-inserts.ts):
// each still gets its own key after the ones before it under its parent, in the order they were asked, and a
// creation that fails fails alone.
import { describe, expect, it } from 'vitest';
import { insertSpace, type NewSpace } from '../server/spaces/space-inserts.js';
import { newId } from '../server/ids.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('space creations batched per organization', () => {
  it('creations at once at the top level and in two collections: distinct keys, in the order asked, under each parent', async () => {
    const admin = await h.current.newAdmin();
    const parents: (string | undefined)[] = [undefined];
    for (const title of ['A', 'B']) {
      const res = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title });
      expect(res.status).toBe(201);
      parents.push(res.body.id as string);
    }
    const created = await Promise.all(
      Array.from({ length: 15 }, (_, i) => admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: `S${i}`, parent: parents[i % 3] })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(15).fill(201));
    for (const [n, parent] of parents.entries()) {
      // Ids grow in the order the creations were asked (one process), so the keys must grow with them.
      const ids = created.filter((_, i) => i % 3 === n).map((r) => r.body.id as string).sort();
      const keys = await h.current.positionsOf(ids);
      expect(new Set(keys).size).toBe(5);
      expect([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(keys);
      const listed = parent ? await admin.api.get(`/collections/${parent}/spaces`, { limit: 100 }) : undefined;
      if (listed) expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual(ids);
    }
  });

  it('a creation that fails in a batch fails alone; the others are inserted', async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    const now = new Date();
    const space = (title: string | null): NewSpace => ({
      id: newId('spc'),
      organizationId: admin.organizationId,
      parentId: null,
      title: title as string, // null breaks the NOT NULL constraint of spaces.title
      emoji: '',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      visibility: 'private',
      revisionId: newId('rev'),
      createdAt: now,
      updatedAt: now,
    });
    // The first goes alone (nothing is waiting); the other two wait for it and go in together, then one by one.
    const outcomes = await Promise.allSettled([insertSpace(ctx, space('first')), insertSpace(ctx, space(null)), insertSpace(ctx, space('third'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const inserted = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(inserted.map((row) => row.title)).toEqual(['first', 'third']);
    expect(new Set(inserted.map((row) => row.position)).size).toBe(2);
  });
});
