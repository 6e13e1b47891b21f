// Concurrent writes to the content tree keep its invariants: no cycle from crossing moves, a distinct
// order key for every item created or moved into the same place at once. On PostgreSQL the requests
// really run in parallel (a pool of connections); on PGlite they interleave on one connection.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function newCollection(admin: Account, body: object = {}) {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'C', ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The chain of parents from a collection up to the top level; throws on a cycle. */
async function ancestry(admin: Account, collectionId: string): Promise<string[]> {
  const chain: string[] = [];
  for (let id: string | undefined = collectionId; id; ) {
    if (chain.includes(id)) throw new Error(`cycle through ${chain.join(' -> ')} -> ${id}`);
    chain.push(id);
    id = (await admin.api.get(`/collections/${id}`)).body.parent;
  }
  return chain;
}

describe('concurrent changes to the content tree', () => {
  it('crossing moves (A into B, B into A) at once: one succeeds, the other is a conflict, and no cycle forms', async () => {
    const admin = await h.current.newAdmin();
    for (let round = 0; round < 5; round++) {
      const a = await newCollection(admin);
      const b = await newCollection(admin);
      const [intoB, intoA] = await Promise.all([
        admin.api.post(`/collections/${a}/move`, { parent: b }),
        admin.api.post(`/collections/${b}/move`, { parent: a }),
      ]);
      expect([intoB.status, intoA.status].sort()).toEqual([200, 409]);
      expect(await ancestry(admin, a)).toBeDefined();
      expect(await ancestry(admin, b)).toBeDefined();
    }
  });

  it('creates in the same collection at once: every item gets its own key, listed in creation order', async () => {
    const admin = await h.current.newAdmin();
    const parent = await newCollection(admin);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: `S${i}`, parent })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = created.map((r) => r.body.id as string);
    const keys = await h.current.positionsOf(ids);
    expect(new Set(keys).size).toBe(20);
    const listed = await admin.api.get(`/collections/${parent}/spaces`, { limit: 100 });
    expect(listed.body.count).toBe(20);
    expect(listed.body.items.map((s: { id: string }) => s.id).sort()).toEqual([...ids].sort());
  });

  it('moves next to the same space at once: every moved item gets its own key between its neighbours', async () => {
    const admin = await h.current.newAdmin();
    const first = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'first' })).body.id as string;
    const last = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'last' })).body.id as string;
    const moving = await Promise.all(Array.from({ length: 10 }, () => newCollection(admin)));
    const moved = await Promise.all(
      moving.map((id) => admin.api.post(`/collections/${id}/move`, { position: { after: { type: 'space', space: first } } })),
    );
    expect(moved.map((r) => r.status)).toEqual(Array(10).fill(200));
    const [firstKey, lastKey, ...movedKeys] = await h.current.positionsOf([first, last, ...moving]);
    expect(new Set(movedKeys).size).toBe(10);
    for (const key of movedKeys) expect(key > firstKey && key < lastKey).toBe(true);
  });

  it.each(Array.from({ length: 5 }, (_, i) => i))('a transfer and a move of the same collection at once: the transfer succeeds and the child ends whole in one organization (round %i)', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const root = await newCollection(admin);
    const child = await newCollection(admin, { parent: root });
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { parent: child })).body.id as string;
    const other = await newCollection(admin);
    const [transfer, move] = await Promise.all([
      admin.api.post(`/collections/${root}/transfer`, { organization: target.organizationId }),
      admin.api.post(`/collections/${child}/move`, { parent: other }),
    ]);
    const [rootNow, childNow, spaceNow, otherNow] = await Promise.all([
      admin.api.get(`/collections/${root}`),
      admin.api.get(`/collections/${child}`),
      admin.api.get(`/spaces/${space}`),
      admin.api.get(`/collections/${other}`),
    ]);
    for (const read of [rootNow, childNow, spaceNow, otherNow]) expect(read.status).toBe(200);
    // Nothing stands in the way of the transfer: it succeeds whichever runs first.
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
    expect(rootNow.body.organization).toBe(target.organizationId);
    expect(otherNow.body.organization).toBe(admin.organizationId);
    if (move.status === 200) {
      // The move ran first: the child left the tree before it was transferred and stayed behind.
      expect(childNow.body.parent).toBe(other);
      expect(childNow.body.organization).toBe(admin.organizationId);
    } else {
      // The transfer ran first: the child went with its parent, and the move into a collection of the
      // organization it left is refused (never applied across organizations).
      expect(move.status, JSON.stringify(move.body)).toBeGreaterThanOrEqual(400);
      expect(move.status).toBeLessThan(500);
      expect(childNow.body.parent).toBe(root);
      expect(childNow.body.organization).toBe(target.organizationId);
    }
    // Whichever ran first, the space is in its collection's organization.
    expect(spaceNow.body.organization).toBe(childNow.body.organization);
  });
});
