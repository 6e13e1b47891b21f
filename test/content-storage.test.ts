// How revisions are stored (docs/content.md, "How revisions are stored"): page Documents and chunks of the
// page list apart from the revision row, by hash, so a write stores what it changed; rows written before
// (pages and Documents inline) keep reading; a revision's mutable `git` is never served from the cache.
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { contentRevisions } from '../server/db/schema/index.js';
import { forgetRevision, loadRevision } from '../server/content/revisions.store.js';
import { send } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';

import { mergeChanges as merge, ok } from './support/content-writes.js';

const h = useHarness();

const storedValues = async () => Number(((await h.current.db.execute(sql`SELECT count(*)::int AS n FROM content_documents`)) as unknown as { rows: { n: number }[] }).rows[0].n);

describe('revision storage', () => {
  it('stores each page Document once, by hash, and a one-page edit adds only that page\'s Document and its chunk', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Stored' }), 201);
    const pages = Array.from({ length: 40 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Text of page ${i}.` } }));
    const inserted = await merge(admin, space.id, pages);
    const ids: string[] = inserted.changes.map((c: { page: { id: string } }) => c.page.id);
    const current = await ok(admin.api.get(`/spaces/${space.id}/content`));
    const [row] = await h.current.db.select().from(contentRevisions).where(eq(contentRevisions.id, current.id));
    const stored = row.content as { pageChunks?: string[]; pages?: unknown };
    expect(stored.pages).toBeUndefined();
    expect(stored.pageChunks!.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain('Text of page');

    const before = await storedValues();
    await merge(admin, space.id, [{ operation: 'update_page', page: ids[7], document: { markdown: 'Text of page 7, edited.' } }]);
    // The edited Document, and the chunk of the page list holding the page.
    expect(await storedValues()).toBe(before + 2);
    const page = await ok(admin.api.get(`/spaces/${space.id}/content/page/${ids[7]}?format=markdown`));
    expect(page.markdown).toContain('edited');
    const other = await ok(admin.api.get(`/spaces/${space.id}/content/page/${ids[8]}?format=markdown`));
    expect(other.markdown).toContain('Text of page 8.');
    // A read after the caches are gone reads the same content from the rows.
    const latest = await ok(admin.api.get(`/spaces/${space.id}/content`));
    forgetRevision(latest.id);
    const reread = await loadRevision(h.current.db, latest.id, new Date());
    expect(reread.content.pages).toHaveLength(40);
    expect(JSON.stringify(reread.content.pages.find((p) => p.id === ids[7])!.document)).toContain('edited');
  });

  it('reads a row written with its pages and Documents inline, and stores them by hash at the next write', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Legacy' }), 201);
    const inserted = await merge(admin, space.id, [{ operation: 'insert_page', title: 'Old', document: { markdown: 'Old words.' } }, { operation: 'insert_page', title: 'Markdown', document: { markdown: 'x' } }]);
    const [oldId, markdownId] = inserted.changes.map((c: { page: { id: string } }) => c.page.id);
    const current = await ok(admin.api.get(`/spaces/${space.id}/content`));
    const content = (await loadRevision(h.current.db, current.id, new Date())).content;
    // As rows were written before: the page list inline, one page's Document inline, one page as legacy Markdown.
    const legacy = {
      ...content,
      pages: content.pages.map((p) => (p.id === markdownId ? { ...p, document: undefined, markdown: 'Legacy *Markdown* page.' } : p)),
    };
    await h.current.db.update(contentRevisions).set({ content: JSON.parse(JSON.stringify(legacy)) }).where(eq(contentRevisions.id, current.id));
    forgetRevision(current.id);

    expect((await ok(admin.api.get(`/spaces/${space.id}/content/page/${oldId}?format=markdown`))).markdown).toContain('Old words.');
    expect((await ok(admin.api.get(`/spaces/${space.id}/content/page/${markdownId}?format=markdown`))).markdown).toContain('Legacy *Markdown* page.');
    const document = await ok(admin.api.get(`/spaces/${space.id}/revisions/${current.id}/page/${oldId}/document`));
    expect(JSON.stringify(document)).toContain('Old words.');

    await merge(admin, space.id, [{ operation: 'update_page', page: markdownId, title: 'Renamed' }]);
    const next = await ok(admin.api.get(`/spaces/${space.id}/content`));
    const [row] = await h.current.db.select().from(contentRevisions).where(eq(contentRevisions.id, next.id));
    expect((row.content as { pageChunks?: string[] }).pageChunks).toBeDefined();
    expect((await ok(admin.api.get(`/spaces/${space.id}/content/page/${oldId}?format=markdown`))).markdown).toContain('Old words.');
    expect((await ok(admin.api.get(`/spaces/${space.id}/content/page/${markdownId}?format=markdown`))).markdown).toContain('Legacy *Markdown* page.');
  });

  it('reads a revision\'s git metadata from its row, not from the cache', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Git' }), 201);
    await merge(admin, space.id, [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Hi.' } }]);
    const current = await ok(admin.api.get(`/spaces/${space.id}/content`));
    expect(current.git).toBeUndefined();
    const git = { commit: { oid: 'a'.repeat(40), message: 'Exported', createdByGitBook: true }, blobs: {} };
    await h.current.db.update(contentRevisions).set({ git }).where(eq(contentRevisions.id, current.id));
    const again = await ok(admin.api.get(`/spaces/${space.id}/revisions/${current.id}`));
    expect(again.git).toMatchObject({ oid: 'a'.repeat(40), message: 'Exported' });
  });

  it('reads content in one statement when this process does not hold the revision, and answers the same', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Cold' }), 201);
    const inserted = await merge(admin, space.id, Array.from({ length: 30 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Words ${i}.` } })));
    const pageId: string = inserted.changes[3].page.id;
    const current = await ok(admin.api.get(`/spaces/${space.id}/content`));
    const counted: number[] = [];
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (_id, statements) => counted.push(statements) });
    const read = async (path: string) => {
      const res = await send(app, 'get', `/v1${path}`, { token: admin.token });
      expect(res.status, path).toBe(200);
      return { body: res.body as unknown, statements: counted.at(-1) };
    };
    for (const path of [`/spaces/${space.id}/content/page/${pageId}`, `/spaces/${space.id}/revisions/${current.id}`, `/spaces/${space.id}/content/path/page-3`]) {
      const warm = await read(path);
      forgetRevision(current.id);
      const cold = await read(path);
      expect(cold, path).toEqual({ body: warm.body, statements: 1 });
      expect(warm.statements, path).toBe(1);
    }
    // A space nobody wrote to has no revision row: the empty revision, still in the grant's statement.
    const empty = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Empty' }), 201);
    expect(await read(`/spaces/${empty.id}/content/files`)).toEqual({ body: expect.objectContaining({ items: [] }), statements: 1 });
  });
});
