// A page read attaches to its grant's statement the revision it reads and the Documents it shows
// (server/content/revision-attached.ts, page-documents-attached.ts): a process that does not hold the
// revision has the statement find the page, and for a subtree its subpages, in the revision's page list;
// one that holds it and its Documents is sent neither. A site token's reader of a space some of whose pages
// have a condition reads every page's Document (space-content.ts `readerView`). On either storage.
import { describe, expect, it } from 'vitest';
import { readSpaceGrant } from '../server/auth/grants.js';
import { currentPageAttached, currentRevisionAttached, namedRevisionAttached } from '../server/content/revision-attached.js';
import { forgetRevision, loadRevision } from '../server/content/revisions.store.js';
import { mergeChanges, ok } from './support/content-writes.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

/** A space whose page Parent has a subpage Child, beside a page Other; its revision, and each page's Document hash. */
async function spaceWithSubpage(admin: Account) {
  const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Attached' }), 201);
  const top = await mergeChanges(admin, space.id, [
    { operation: 'insert_page', title: 'Parent', document: { markdown: 'Parent words.' } },
    { operation: 'insert_page', title: 'Other', document: { markdown: 'Other words.' } },
  ]);
  const [parent, other] = top.changes.map((c: { page: { id: string } }) => c.page.id);
  const under = await mergeChanges(admin, space.id, [{ operation: 'insert_page', title: 'Child', into: parent, document: { markdown: 'Child words.' } }]);
  const child: string = under.changes[0].page.id;
  const revisionId: string = (await ok(admin.api.get(`/spaces/${space.id}/content`))).id;
  const pages = (await loadRevision(h.current.db, revisionId, new Date(), { documents: false })).content.pages;
  const hash = (id: string) => pages.find((p) => p.id === id)!.documentHash!;
  return { spaceId: space.id as string, revisionId, parent, hashes: { parent: hash(parent), child: hash(child), other: hash(other) } };
}

describe('revision attached', () => {
  it("finds a page's Document, or its subtree's, in the page list of a revision this process does not hold", async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, revisionId, parent, hashes } = await spaceWithSubpage(admin);
    const ctx = h.current.ctx(admin.userId);
    const attachedDocuments = async (which: 'page' | 'subtree') => {
      forgetRevision(revisionId);
      const read = namedRevisionAttached(false, which)({ spaceId, revisionId, pageId: parent }, ctx, {})!;
      const attached = (await readSpaceGrant(ctx.db, spaceId, admin.userId, false, read))!.attached!;
      expect(attached.rev_content).toEqual(expect.any(String));
      return ((attached.rev_documents as [string, string][] | null) ?? []).map(([hash]) => hash).sort();
    };
    expect(await attachedDocuments('page')).toEqual([hashes.parent]);
    expect(await attachedDocuments('subtree')).toEqual([hashes.parent, hashes.child].sort());
  });

  it("finds the subtree's Documents of the current revision's page for a read of the page by id", async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, revisionId, parent, hashes } = await spaceWithSubpage(admin);
    const ctx = h.current.ctx(admin.userId);
    forgetRevision(revisionId);
    const read = currentPageAttached({ spaceId, pageId: parent }, ctx, {})!;
    const attached = (await readSpaceGrant(ctx.db, spaceId, admin.userId, false, read))!.attached!;
    expect(attached.rev_looked).toBe(revisionId);
    expect(((attached.rev_documents as [string, string][] | null) ?? []).map(([hash]) => hash).sort()).toEqual([hashes.parent, hashes.child].sort());
    // And the read answers the subtree from them.
    const page = await ok(admin.api.get(`/spaces/${spaceId}/content/page/${parent}`));
    expect(page.pages.map((p: { title: string }) => p.title)).toEqual(['Child']);
  });

  it('sends neither the content nor the Documents of a revision this process holds with them', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, revisionId, parent } = await spaceWithSubpage(admin);
    const ctx = h.current.ctx(admin.userId);
    // Held: read here, its Documents with it.
    await loadRevision(h.current.db, revisionId, new Date());
    const read = namedRevisionAttached(true, 'subtree')({ spaceId, revisionId, pageId: parent }, ctx, {})!;
    const attached = (await readSpaceGrant(ctx.db, spaceId, admin.userId, false, read))!.attached!;
    expect(attached.rev_looked).toBe(revisionId);
    expect(attached.rev_content).toBeNull();
    expect(attached.rev_documents).toBeNull();
  });

  it("gives a site token's reader every page's Document when some page has a condition, and none otherwise", async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, revisionId, parent, hashes } = await spaceWithSubpage(admin);
    const ctx = h.current.ctx(admin.userId);
    const reader = { ...ctx, caller: { ...ctx.caller, site: { claims: {} } } } as unknown as typeof ctx;
    const readerDocuments = async (current: string) => {
      forgetRevision(current);
      const attached = (await readSpaceGrant(ctx.db, spaceId, admin.userId, false, currentRevisionAttached({ spaceId }, reader, {})))!.attached!;
      expect(attached.rev_looked).toBe(current);
      return ((attached.rev_documents as [string, string][] | null) ?? []).map(([hash]) => hash).sort();
    };
    expect(await readerDocuments(revisionId)).toEqual([]);
    // The condition leaves the Documents as they were.
    await mergeChanges(admin, spaceId, [{ operation: 'update_page', page: parent, condition: 'visitor.claims.isBetaUser' }]);
    const conditioned: string = (await ok(admin.api.get(`/spaces/${spaceId}/content`))).id;
    expect(await readerDocuments(conditioned)).toEqual(Object.values(hashes).sort());
  });
});
