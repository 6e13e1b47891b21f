// What a docs renderer reads (docs/headless-reads.md): any revision of a space by id, pages by id and by
// path, their documents, files and reusable contents, documents by id, computed documents and users. The
// workflow: content merged twice; the first revision keeps answering what it held, the current one what
// was merged last, and a document id always names the same content.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { contentRevisions } from '../server/db/schema/index.js';
import { forgetRevision, loadRevision } from '../server/content/revisions.store.js';
import { drainOpenAPIJobs, petstoreYaml } from './support/matrix/openapi.js';
import { plantReusableContent } from './support/matrix/headless-reads.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';

import { mergeChanges as merge, ok } from './support/content-writes.js';

const h = useHarness();

/** A space with "Getting started" > "Quickstart" and a file, merged; then Quickstart rewritten and merged again. */
async function twoRevisions() {
  const admin = await h.current.newAdmin();
  const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' }), 201);
  // The file first, so that the page's link to it is read as a reference to it.
  const files = await merge(admin, space.id, [{ operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] }]);
  const first = await merge(admin, space.id, [
    { operation: 'insert_page', ref: 'gs', title: 'Getting started', slug: 'getting-started', document: { markdown: 'Welcome.' } },
    { operation: 'insert_page', into: 'gs', title: 'Quickstart', slug: 'quickstart', document: { markdown: 'Install it. See [the notes](../.gitbook/assets/notes.txt).' } },
  ]);
  const quickstartId: string = first.changes[1].page.id;
  const r1 = await ok(admin.api.get(`/spaces/${space.id}/content`));
  const pagesThen = await ok(admin.api.get(`/spaces/${space.id}/content/pages`));
  await merge(admin, space.id, [{ operation: 'update_page', page: quickstartId, document: { markdown: 'Install version 2.' } }]);
  const r2 = await ok(admin.api.get(`/spaces/${space.id}/content`));
  return { admin, spaceId: space.id as string, quickstartId, r1, r2, pagesThen, fileId: files.insertedFiles[0].id as string };
}

describe('revisions by id', () => {
  it('answer what the revision held, after later merges, as the current-revision reads answered it then', async () => {
    const { admin, spaceId, quickstartId, r1, r2, pagesThen, fileId } = await twoRevisions();
    expect(r1.id).not.toBe(r2.id);
    const base = `/spaces/${spaceId}/revisions`;

    // The revision and its page tree, as getCurrentRevision and listPages gave them when it was current.
    expect(await ok(admin.api.get(`${base}/${r1.id}`))).toEqual(r1);
    expect(await ok(admin.api.get(`${base}/${r2.id}`))).toEqual(r2);
    expect(await ok(admin.api.get(`${base}/${r1.id}/pages`))).toEqual(pagesThen);

    // A page by id: the old content in the first revision, the new in the current one.
    const old = await ok(admin.api.get(`${base}/${r1.id}/page/${quickstartId}`, { format: 'markdown' }));
    expect(old.markdown).toBe('Install it. See [the notes](../.gitbook/assets/notes.txt).');
    const now = await ok(admin.api.get(`${base}/${r2.id}/page/${quickstartId}`, { format: 'markdown' }));
    expect(now.markdown).toBe('Install version 2.');
    // The current revision by id answers as getPageById does.
    expect(await ok(admin.api.get(`${base}/${r2.id}/page/${quickstartId}`))).toEqual(await ok(admin.api.get(`/spaces/${spaceId}/content/page/${quickstartId}`)));

    // Stable references: the file by its id instead of its relative path.
    const stable = await ok(admin.api.get(`${base}/${r1.id}/page/${quickstartId}`, { format: 'markdown', 'format.markdown.refs': 'stable' }));
    expect(stable.markdown).toBe(`Install it. See [the notes](${fileId}).`);

    // The document of the page equals the page's `document`.
    const page = await ok(admin.api.get(`${base}/${r1.id}/page/${quickstartId}`));
    expect(await ok(admin.api.get(`${base}/${r1.id}/page/${quickstartId}/document`))).toEqual(page.document);
    expect(JSON.stringify(page.document)).toContain('Install it.');

    // Files, with a download link that answers.
    const files = await ok(admin.api.get(`${base}/${r1.id}/files`));
    expect(files.items.map((f: { id: string }) => f.id)).toEqual([fileId]);
    const file = await ok(admin.api.get(`${base}/${r1.id}/files/${fileId}`));
    expect(file).toMatchObject({ id: fileId, name: 'notes.txt', size: 5 });
    const download = await request(h.current.app).get(file.downloadURL.slice(PUBLIC_URL.length));
    expect(download.status).toBe(200);
    expect(download.text).toBe('notes');
  });

  it('find a page by its path, in a revision or the current content', async () => {
    const { admin, spaceId, quickstartId, r1 } = await twoRevisions();
    const byPath = await ok(admin.api.get(`/spaces/${spaceId}/revisions/${r1.id}/path/${encodeURIComponent('getting-started/quickstart')}`, { format: 'markdown' }));
    expect(byPath).toMatchObject({ id: quickstartId, path: 'getting-started/quickstart', markdown: 'Install it. See [the notes](../.gitbook/assets/notes.txt).' });
    // Slashes around the path are ignored; a parent is found with its children.
    const parent = await ok(admin.api.get(`/spaces/${spaceId}/revisions/${r1.id}/path/${encodeURIComponent('/getting-started/')}`));
    expect(parent.pages.map((p: { id: string }) => p.id)).toEqual([quickstartId]);

    const current = await ok(admin.api.get(`/spaces/${spaceId}/content/path/${encodeURIComponent('getting-started/quickstart')}`));
    expect(current).toEqual(await ok(admin.api.get(`/spaces/${spaceId}/content/page/${quickstartId}`)));

    const missing = await admin.api.get(`/spaces/${spaceId}/content/path/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('path.pagePath');
    expect((await admin.api.get(`/spaces/${spaceId}/revisions/${r1.id}/path/getting-started%2Fnowhere`)).status).toBe(404);
  });

  it('read a change request\'s revision, and refuse revisions of other spaces and unknown ids (404)', async () => {
    const { admin, spaceId, r1 } = await twoRevisions();
    const cr = await ok(admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Draft' }), 201);
    await ok(admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Soon.' } }] }));
    const draft = await ok(admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content`));
    const byId = await ok(admin.api.get(`/spaces/${spaceId}/revisions/${draft.id}`));
    const titles = (pages: { title: string; pages?: unknown[] }[]): unknown[] => pages.map((p) => [p.title, titles((p.pages ?? []) as never)]);
    expect(byId.id).toBe(draft.id);
    expect(titles(byId.pages)).toEqual(titles(draft.pages));
    expect(titles(byId.pages)).toContainEqual(['Draft', []]);

    const other = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Other' }), 201);
    const foreign = await admin.api.get(`/spaces/${other.id}/revisions/${r1.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toContain('path.revisionId');
    expect((await admin.api.get(`/spaces/${spaceId}/revisions/rev_nothing/pages`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${spaceId}/revisions/${r1.id}/page/pag_nothing`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${spaceId}/revisions/${r1.id}/files/fil_nothing`)).status).toBe(404);

    // A new space's current revision has no row yet: it is the empty revision.
    const empty = await ok(admin.api.get(`/spaces/${other.id}/content`));
    expect(await ok(admin.api.get(`/spaces/${other.id}/revisions/${empty.id}`))).toEqual(empty);

    // Someone who cannot read the space finds nothing.
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/spaces/${spaceId}/revisions/${r1.id}`)).status).toBe(404);
  });

  it('refuse, naming the field, the query values this server cannot fill (400)', async () => {
    const { admin, spaceId, quickstartId, r1 } = await twoRevisions();
    const page = `/spaces/${spaceId}/revisions/${r1.id}/page/${quickstartId}`;
    for (const [query, field] of [
      [{ evaluated: 'sometimes' }, 'query.evaluated'],
      [{ dereferenced: 'everything' }, 'query.dereferenced'],
      [{ format: 'html' }, 'format'],
      [{ 'format.markdown.refs': 'absolute' }, 'format.markdown.refs'],
    ] as const) {
      for (const path of [page, `${page}/document`, `/spaces/${spaceId}/content/path/getting-started%2Fquickstart`]) {
        if (path.endsWith('/document') && String(field).startsWith('format')) continue;
        const res = await admin.api.get(path, query);
        expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
    }
    // What is served: every value of evaluated and dereferenced, metadata, computed, cachedMetadata.
    await ok(admin.api.get(page, { evaluated: 'false', metadata: 'false', computed: 'false', cachedMetadata: 'true', dereferenced: 'false' }));
    await ok(admin.api.get(page, { evaluated: 'true', dereferenced: 'true' }));
    await ok(admin.api.get(`${page}/document`, { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' }));
  });
});

describe('documents', () => {
  it('a page\'s documentId names its content in that revision, for good', async () => {
    const { admin, spaceId, quickstartId, r1, r2 } = await twoRevisions();
    const old = await ok(admin.api.get(`/spaces/${spaceId}/revisions/${r1.id}/page/${quickstartId}`));
    const now = await ok(admin.api.get(`/spaces/${spaceId}/content/page/${quickstartId}`));
    expect(old.documentId).toMatch(/^doc_/);
    expect(now.documentId).not.toBe(old.documentId);
    // Every page read and tree carries it (groups have none).
    const tree = await ok(admin.api.get(`/spaces/${spaceId}/revisions/${r2.id}/pages`));
    expect(tree.pages[0].pages[0].documentId).toBe(now.documentId);

    expect(await ok(admin.api.get(`/spaces/${spaceId}/documents/${old.documentId}`))).toEqual(old.document);
    expect(await ok(admin.api.get(`/spaces/${spaceId}/documents/${now.documentId}`, { schema: 'next' }))).toEqual(now.document);

    // Not a document of this space: another space's, a forged or a malformed id.
    const other = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Other' }), 201);
    for (const [space, id] of [
      [other.id, old.documentId],
      [spaceId, `doc_${Buffer.from(`${r1.id}:pag_nothing`).toString('base64url')}`],
      [spaceId, `doc_${Buffer.from(`rev_nothing:${quickstartId}`).toString('base64url')}`],
      [spaceId, 'doc_!!'],
      [spaceId, quickstartId],
    ]) {
      const res = await admin.api.get(`/spaces/${space}/documents/${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.message).toContain('path.documentId');
    }
  });

  it('reusable contents: read, their documents, and expanded into a page with dereferenced=reusable-contents', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Snippets' }), 201);
    await merge(admin, space.id, [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Before.' } }]);
    const revision = await ok(admin.api.get(`/spaces/${space.id}/content`));
    // A page including the reusable content, and the content, stored as an import would have (no API writes them).
    const world = { h: h.current, admin, outsider: admin, members: {} as never };
    await plantReusableContent(world, revision.id, 'rsc_snippet');
    const { eq } = await import('drizzle-orm');
    // The row is rewritten as rows were before pages and Documents were stored apart (content_documents):
    // its page list inline, the page's Document in it. Such rows must keep reading (revisions.store.ts).
    const stored = (await loadRevision(h.current.db, revision.id, new Date())).content;
    const [page] = stored.pages;
    const pageDocument = structuredClone(page.document!) as { nodes: unknown[] };
    pageDocument.nodes.push({ object: 'block', type: 'reusable-content', key: 'inc1', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'rsc_snippet' } } });
    const content = { ...stored, pages: [{ ...page, document: pageDocument }] };
    await h.current.db.update(contentRevisions).set({ content }).where(eq(contentRevisions.id, revision.id));
    forgetRevision(revision.id);

    const base = `/spaces/${space.id}/revisions/${revision.id}`;
    const reusable = await ok(admin.api.get(`${base}/reusable-contents/rsc_snippet`));
    expect(reusable).toMatchObject({ id: 'rsc_snippet', title: 'Matrix snippet' });
    const doc = await ok(admin.api.get(`${base}/reusable-contents/rsc_snippet/document`));
    expect(JSON.stringify(doc)).toContain('Shared words.');
    expect(await ok(admin.api.get(`/spaces/${space.id}/documents/${reusable.document}`))).toEqual(doc);
    expect((await ok(admin.api.get(`${base}`))).reusableContents).toEqual([reusable]);
    expect((await admin.api.get(`${base}/reusable-contents/rsc_nothing`)).status).toBe(404);

    const pageId = revision.pages[0].id;
    const plain = await ok(admin.api.get(`${base}/page/${pageId}/document`));
    expect(plain.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'reusable-content']);
    const expanded = await ok(admin.api.get(`${base}/page/${pageId}/document`, { dereferenced: 'reusable-contents' }));
    expect(expanded.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'paragraph']);
    expect(JSON.stringify(expanded.nodes[1])).toContain('Shared words.');
    const markdown = await ok(admin.api.get(`${base}/page/${pageId}`, { format: 'markdown', dereferenced: 'reusable-contents' }));
    expect(markdown.markdown).toBe('Before.\n\nShared words.');
  });

  it('computes the blocks and pages of an OpenAPI specification (builtin:openapi), and refuses other sources naming the field', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'API' }), 201);
    const spec = `openapi: 3.1.0
info:
  title: Pet store
  version: 2.0.0
  description: Pets, adopted.
tags:
  - name: pets
    description: Everything about pets.
paths:
  /pets:
    get:
      tags: [pets]
      responses: { '200': { description: ok } }
    post:
      tags: [pets]
      responses: { '201': { description: made } }
components:
  schemas:
    Pet: { type: object }
    Owner: { type: object }
`;
    await ok(admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'pets', source: { text: spec } }), 201);
    await drainOpenAPIJobs(h.current);
    const compute = (props: object, extra: object = {}) =>
      admin.api.post(`/spaces/${space.id}/content/computed/document`, {
        source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props, ...extra },
        seed: 'seed-1',
      });
    const ref = { kind: 'openapi', spec: 'pets' };

    const operation = await ok(compute({ doc: 'operation', page: '/pets', method: 'post' }));
    expect(operation.nodes).toEqual([{ object: 'block', type: 'openapi-operation', key: expect.any(String), isVoid: true, data: { ref, path: '/pets', method: 'post' } }]);
    // The same seed gives the same keys.
    expect(await ok(compute({ doc: 'operation', page: '/pets', method: 'post' }))).toEqual(operation);

    const tag = await ok(compute({ doc: 'tag', page: 'pets' }));
    expect(tag.nodes.map((n: { type: string; data?: { method?: string } }) => n.data?.method ?? n.type)).toEqual(['heading-1', 'paragraph', 'get', 'post']);
    const models = await ok(compute({ doc: 'models' }));
    expect(models.nodes[0].data).toEqual({ ref, schemas: ['Pet', 'Owner'], grouped: false });
    const info = await ok(compute({ doc: 'info', page: 'x' }));
    expect(JSON.stringify(info)).toContain('Version 2.0.0');

    // The pages of a revision: by tag (the default) a page per tag, by operation a group per tag; `models` adds a page.
    // Each page computes its document from the source it carries.
    const pagesOf = (props: object, seed = 'seed-1') =>
      admin.api.post(`/spaces/${space.id}/content/computed/revision`, {
        source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props },
        seed,
      });
    const byTag = await ok(pagesOf({ models: true }));
    expect(byTag.files).toEqual([]);
    expect(byTag.reusableContents).toEqual([]);
    expect(byTag.pages.map((p: { type: string; title: string; path: string; computed: { props: object } }) => [p.type, p.title, p.path, p.computed.props])).toEqual([
      ['document', 'pets', 'pets', { doc: 'operations', page: 'pets' }],
      ['document', 'Models', 'models', { doc: 'models' }],
    ]);
    const tagPage = await ok(admin.api.post(`/spaces/${space.id}/content/computed/document`, { source: byTag.pages[0].computed, seed: byTag.pages[0].computedSeed }));
    expect(tagPage.nodes.map((n: { type: string; data?: { method?: string } }) => n.data?.method ?? n.type)).toEqual(['heading-1', 'paragraph', 'get', 'post']);
    expect(await ok(pagesOf({ models: true }))).toEqual(byTag);
    expect((await ok(pagesOf({ models: true }, 'seed-2'))).pages[0].id).not.toBe(byTag.pages[0].id);
    const byOperation = await ok(pagesOf({ models: false, grouping: 'by-operation' }));
    expect(byOperation.pages).toHaveLength(1);
    expect(byOperation.pages[0]).toMatchObject({ type: 'group', title: 'pets', path: 'pets' });
    expect(byOperation.pages[0].pages.map((p: { title: string; path: string; computed: { props: object } }) => [p.title, p.path, p.computed.props])).toEqual([
      ['GET /pets', 'pets/get-pets', { doc: 'operation', page: '/pets', method: 'get' }],
      ['POST /pets', 'pets/post-pets', { doc: 'operation', page: '/pets', method: 'post' }],
    ]);
    const noModels = await pagesOf({});
    expect(noModels.status).toBe(400);
    expect(noModels.body.error.message).toContain('body.source.props.models');

    for (const [body, field] of [
      [{ doc: 'operation', page: '/cats', method: 'get' }, 'body.source.props.page'],
      [{ doc: 'operation', page: '/pets', method: 'fly' }, 'body.source.props.method'],
      [{ doc: 'tag', page: 'cats' }, 'body.source.props.page'],
      [{ doc: 'everything' }, 'body.source.props.doc'],
    ] as const) {
      const res = await compute(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    const translation = await admin.api.post(`/spaces/${space.id}/content/computed/document`, { source: { type: 'builtin:translation', props: {} }, seed: 's' });
    expect(translation.status).toBe(400);
    expect(translation.body.error.message).toContain('body.source.type');
    const unknownSpec = await admin.api.post(`/spaces/${space.id}/content/computed/document`, {
      source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } }, props: { doc: 'models' } },
      seed: 's',
    });
    expect(unknownSpec.status).toBe(400);
    expect(unknownSpec.body.error.message).toContain('body.source.dependencies.spec');

    // A private specification is read by members with a role, not by a guest given the space.
    const guest = await h.current.newMember(admin.organizationId, null);
    await ok(admin.api.patch(`/spaces/${space.id}/permissions/users/${guest.userId}`, { role: 'read' }), 204);
    const byGuest = await guest.api.post(`/spaces/${space.id}/content/computed/document`, {
      source: { type: 'builtin:openapi', dependencies: { spec: { ref } }, props: { doc: 'models' } },
      seed: 's',
    });
    expect(byGuest.status).toBe(400);
    await ok(admin.api.patch(`/orgs/${admin.organizationId}/openapi/pets`, { visibility: 'public' }));
    await ok(guest.api.post(`/spaces/${space.id}/content/computed/document`, { source: { type: 'builtin:openapi', dependencies: { spec: { ref } }, props: { doc: 'models' } }, seed: 's' }));
  });
});

describe('users', () => {
  it('reads oneself and the people of one\'s organizations; a guest or an outsider finds no one (404)', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const guest = await h.current.newMember(admin.organizationId, null);
    const outsider = await h.current.newAdmin();

    const me = await ok(admin.api.get('/user'));
    expect(await ok(admin.api.get(`/users/${admin.userId}`))).toEqual(me);
    // urls.location is this read.
    expect(me.urls.location).toBe(`${PUBLIC_URL}/v1/users/${admin.userId}`);

    const readerSelf = await ok(reader.api.get('/user'));
    expect(await ok(admin.api.get(`/users/${reader.userId}`))).toEqual(readerSelf);
    expect(await ok(reader.api.get(`/users/${admin.userId}`))).toEqual(me);
    // Members read guests; a guest reads only themself.
    await ok(reader.api.get(`/users/${guest.userId}`));
    await ok(guest.api.get(`/users/${guest.userId}`));
    expect((await guest.api.get(`/users/${admin.userId}`)).status).toBe(404);
    expect((await outsider.api.get(`/users/${admin.userId}`)).status).toBe(404);
    const unknown = await admin.api.get(`/users/usr_${randomUUID().replaceAll('-', '')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('path.userId');
  });
});
