// Commands on the content tree: collections and spaces created, renamed, moved, deleted and restored, and
// the spaces a collection lists.
import fc from 'fast-check';
import { expect } from 'vitest';
import { always, command, expectStatus, live, newSpaceItem, pick, subtree, title, type Cmd, type Model, type Real, type SpaceItem, type TreeItem } from './model.js';

export async function expectSpace(r: Real, s: TreeItem): Promise<void> {
  const res = await r.admin.api.get(`/spaces/${s.id}`);
  if (s.deleted) return expectStatus(res, 404, `GET deleted space ${s.id}`);
  expectStatus(res, 200, `GET space ${s.id}`);
  expect(res.body.title).toBe(s.title);
  expect(res.body.parent ?? null).toBe(s.parent);
}

async function expectCollection(r: Real, c: TreeItem): Promise<void> {
  const res = await r.admin.api.get(`/collections/${c.id}`);
  if (c.deleted) return expectStatus(res, 404, `GET deleted collection ${c.id}`);
  expectStatus(res, 200, `GET collection ${c.id}`);
  expect(res.body.title).toBe(c.title);
  expect(res.body.parent ?? null).toBe(c.parent);
}

/** The organization's spaces as listed, against the model's live ones. */
export async function expectSpaceList(m: Model, r: Real): Promise<void> {
  const res = await r.admin.api.get(`/orgs/${r.admin.organizationId}/spaces`, { limit: 1000 });
  expectStatus(res, 200, 'listSpaces');
  expect(res.body.items.map((s: { id: string }) => s.id).sort()).toEqual(live(m.spaces).map((s) => s.id).sort());
  expect(res.body.count).toBe(live(m.spaces).length);
}

const hasCollections = (m: Readonly<Model>) => m.collections.length > 0;
const hasSpaces = (m: Readonly<Model>) => m.spaces.length > 0;

export const treeCommands: fc.Arbitrary<Cmd>[] = [
  fc.record({ title: fc.option(title, { nil: undefined }), parent: fc.option(fc.nat(), { nil: undefined }) }).map(({ title: t, parent }) =>
    command(`createCollection(${JSON.stringify(t)}, parent #${parent})`, always, async (m, r) => {
      const into = parent === undefined ? undefined : pick(live(m.collections), parent);
      const res = await r.admin.api.post(`/orgs/${r.admin.organizationId}/collections`, { ...(t !== undefined && { title: t }), ...(into && { parent: into.id }) });
      expectStatus(res, 201, 'createCollection');
      const item: TreeItem = { id: res.body.id, title: t ?? 'Untitled', parent: into?.id ?? null, deleted: false, defaultLevel: 'inherit' };
      m.collections.push(item);
      await expectCollection(r, item);
    }),
  ),
  fc.record({ title: fc.option(title, { nil: undefined }), parent: fc.option(fc.nat(), { nil: undefined }) }).map(({ title: t, parent }) =>
    command(`createSpace(${JSON.stringify(t)}, parent #${parent})`, always, async (m, r) => {
      const into = parent === undefined ? undefined : pick(live(m.collections), parent);
      const res = await r.admin.api.post(`/orgs/${r.admin.organizationId}/spaces`, { ...(t !== undefined && { title: t }), ...(into && { parent: into.id }) });
      expectStatus(res, 201, 'createSpace');
      const item: SpaceItem = newSpaceItem(res.body.id, t ?? 'Untitled', into?.id ?? null);
      m.spaces.push(item);
      await expectSpace(r, item);
      await expectSpaceList(m, r);
    }),
  ),
  fc.tuple(fc.nat(), title).map(([n, t]) =>
    command(`updateSpace(#${n}, title ${JSON.stringify(t)})`, hasSpaces, async (m, r) => {
      const s = pick(m.spaces, n)!;
      const res = await r.admin.api.patch(`/spaces/${s.id}`, { title: t });
      expectStatus(res, s.deleted ? 404 : 200, 'updateSpaceById');
      if (!s.deleted) s.title = t;
      await expectSpace(r, s);
    }),
  ),
  fc.tuple(fc.nat(), title).map(([n, t]) =>
    command(`updateCollection(#${n}, title ${JSON.stringify(t)})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      const res = await r.admin.api.patch(`/collections/${c.id}`, { title: t });
      expectStatus(res, c.deleted ? 404 : 200, 'updateCollectionById');
      if (!c.deleted) c.title = t;
      await expectCollection(r, c);
    }),
  ),
  fc.tuple(fc.nat(), fc.option(fc.nat(), { nil: null })).map(([n, target]) =>
    command(`moveCollection(#${n}, into #${target})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      const into = target === null ? undefined : pick(live(m.collections), target);
      const res = await r.admin.api.post(`/collections/${c.id}/move`, { parent: into?.id ?? null });
      const expected = c.deleted ? 404 : into && subtree(m, c.id).has(into.id) ? 409 : 200;
      expectStatus(res, expected, 'moveCollection');
      if (expected === 200) c.parent = into?.id ?? null;
      await expectCollection(r, c);
    }),
  ),
  fc.nat().map((n) =>
    command(`deleteSpace(#${n})`, hasSpaces, async (m, r) => {
      const s = pick(m.spaces, n)!;
      expectStatus(await r.admin.api.delete(`/spaces/${s.id}`), 204, 'deleteSpaceById');
      s.deleted = true;
      await expectSpace(r, s);
      await expectSpaceList(m, r);
    }),
  ),
  fc.nat().map((n) =>
    command(`restoreSpace(#${n})`, hasSpaces, async (m, r) => {
      const s = pick(m.spaces, n)!;
      expectStatus(await r.admin.api.post(`/spaces/${s.id}/restore`), 200, 'restoreSpace');
      // Back in its collection if that still exists, at the top level otherwise.
      if (s.deleted && s.parent && !live(m.collections).some((c) => c.id === s.parent)) s.parent = null;
      s.deleted = false;
      await expectSpace(r, s);
      await expectSpaceList(m, r);
    }),
  ),
  fc.nat().map((n) =>
    command(`deleteCollection(#${n})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      expectStatus(await r.admin.api.delete(`/collections/${c.id}`), 204, 'deleteCollectionById');
      if (!c.deleted) {
        const gone = subtree(m, c.id);
        for (const x of m.collections) if (gone.has(x.id)) x.deleted = true;
        // Their spaces go to the trash, at the top level.
        for (const s of m.spaces) {
          if (s.parent && gone.has(s.parent)) {
            s.deleted = true;
            s.parent = null;
          }
        }
      }
      await expectCollection(r, c);
      await expectSpaceList(m, r);
    }),
  ),
  fc.nat().map((n) =>
    command(`listSpacesInCollection(#${n})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      const res = await r.admin.api.get(`/collections/${c.id}/spaces`, { limit: 1000 });
      expectStatus(res, c.deleted ? 404 : 200, 'listSpacesInCollectionById');
      if (c.deleted) return;
      const expected = live(m.spaces).filter((s) => s.parent === c.id);
      expect(res.body.items.map((s: { id: string }) => s.id).sort()).toEqual(expected.map((s) => s.id).sort());
      expect(res.body.count).toBe(expected.length);
    }),
  ),
];
