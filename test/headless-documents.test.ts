// Document reads shaped for their reader (docs/headless-reads.md): `evaluated` (expressions and `if` blocks,
// with the revision's variables and a site token's claims) and `dereferenced=true` (reusable contents, of
// other spaces too when the caller may read them).
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import type { SpaceGrant } from '../server/auth/access.js';
import { createCtx, type Ctx } from '../server/context.js';
import { otherSpaceContents } from '../server/revisions/other-spaces-attached.js';
import { createUrls } from '../server/urls.js';
import { apiClient } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { publish } from './published-support.js';
import { enableAdaptiveContent, newSite, signVisitorToken, sitePath } from './sites-support.js';
import { forgetRevision } from '../server/content/revisions.store.js';

import { mergeChanges as merge, ok } from './support/content-writes.js';

const h = useHarness();

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const paragraph = (...nodes: object[]) => ({ object: 'block', type: 'paragraph', nodes });
const ifBlock = (expression: string, words: string) => ({ object: 'block', type: 'if', data: { expression }, nodes: [paragraph(text(words))] });
const expression = (e: string) => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression: e }, nodes: [text(e)] });
const include = (reusableContent: string, space?: string) => ({
  object: 'block',
  type: 'reusable-content',
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent, ...(space && { space }) } },
});

/** Space "Shared" with a reusable content; space "Guides" with a page reading variables, claims and both contents. */
async function world() {
  const admin = await h.current.newAdmin();
  const shared = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Shared' }), 201);
  const { reusableContents: [sharedCreated] } = await merge(admin, shared.id, [{ operation: 'insert_reusable_content', title: 'Legal', document: { markdown: 'Legal words.' } }]);
  const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Guides' }), 201);
  const { changes } = await merge(admin, space.id, [
    { operation: 'insert_reusable_content', ref: 'note', title: 'Note', document: { markdown: 'Local note.' } },
    {
      operation: 'insert_page',
      title: 'Home',
      slug: 'home',
      document: {
        document: {
          object: 'document',
          data: {},
          nodes: [
            paragraph(text('Version '), expression('space.vars.version'), text(' for '), expression('visitor.claims.isBetaUser ? "beta" : "everyone"')),
            ifBlock('space.vars.edition == "pro"', 'Pro only.'),
            ifBlock('visitor.claims.isBetaUser', 'Beta only.'),
            include('note'),
            include(sharedCreated.reusableContent, shared.id),
          ],
        },
      },
    },
  ]);
  const revision = await ok(admin.api.get(`/spaces/${space.id}/content`));
  // Variables: nothing in the API writes them (they come with imported content); planted in the stored revision.
  await h.current.db.execute(sql`UPDATE content_revisions SET content = jsonb_set(content, '{variables}', ${JSON.stringify({ version: '2.1', edition: 'pro' })}::jsonb) WHERE id = ${revision.id}`);
  // Revisions are immutable, so this process caches them: the row changed in place is read again.
  forgetRevision(revision.id);
  const page = changes[0].page.id as string;
  return { admin, shared: shared.id, space: space.id, revision: revision.id as string, page, base: `/spaces/${space.id}/revisions/${revision.id}/page/${page}` };
}

/** The text of the document, its leaves joined (a check of what a reader would read), with the raw JSON after it. */
const words = (doc: { nodes: unknown[] }): string => {
  const leaves: string[] = [];
  const walk = (n: any): void => {
    if (n?.object === 'leaf') leaves.push(n.text);
    for (const child of [...(n?.nodes ?? []), ...(n?.leaves ?? [])]) walk(child);
  };
  walk(doc);
  return `${leaves.join('')}\n${JSON.stringify(doc)}`;
};
const types = (doc: { nodes: { type: string }[] }) => doc.nodes.map((n) => n.type);

describe('document reads for their reader', () => {
  it('evaluated=true substitutes variables and resolves if blocks; deterministic-only leaves what reads the visitor', async () => {
    const { admin, base, space, page } = await world();
    const raw = await ok(admin.api.get(`${base}/document`));
    expect(types(raw)).toEqual(['paragraph', 'if', 'if', 'reusable-content', 'reusable-content']);

    const evaluated = await ok(admin.api.get(`${base}/document`, { evaluated: 'true' }));
    expect(types(evaluated)).toEqual(['paragraph', 'paragraph', 'reusable-content', 'reusable-content']);
    expect(words(evaluated)).toContain('Version 2.1 for everyone');
    expect(words(evaluated)).toContain('Pro only.');
    expect(words(evaluated)).not.toContain('Beta only.');
    expect(words(evaluated)).not.toContain('"expression"');

    const deterministic = await ok(admin.api.get(`${base}/document`, { evaluated: 'deterministic-only' }));
    expect(types(deterministic)).toEqual(['paragraph', 'paragraph', 'if', 'reusable-content', 'reusable-content']);
    expect(words(deterministic)).toContain('Version ');
    expect(words(deterministic)).toContain('2.1');
    expect(words(deterministic)).toContain('visitor.claims.isBetaUser ? ');

    // The page reads (by id, by path, the current page) and Markdown take it too.
    const markdown = await ok(admin.api.get(base, { format: 'markdown', evaluated: 'true' }));
    expect(markdown.markdown).toContain('Version 2.1 for everyone');
    expect(markdown.markdown).toContain('Pro only.');
    expect(markdown.markdown).not.toContain('Beta only.');
    const byPath = await ok(admin.api.get(`/spaces/${space}/content/path/home`, { evaluated: 'true' }));
    expect(byPath.document).toEqual(evaluated);
    const current = await ok(admin.api.get(`/spaces/${space}/content/page/${page}`, { evaluated: 'true' }));
    expect(current.document).toEqual(evaluated);
    // Unevaluated reads are unchanged.
    expect(await ok(admin.api.get(`${base}/document`))).toEqual(raw);
  });

  it('dereferenced=true expands reusable contents of the revision and of other spaces the caller may read', async () => {
    const { admin, base } = await world();
    const own = await ok(admin.api.get(`${base}/document`, { dereferenced: 'reusable-contents' }));
    expect(types(own)).toEqual(['paragraph', 'if', 'if', 'paragraph', 'reusable-content']);
    expect(words(own)).toContain('Local note.');
    const all = await ok(admin.api.get(`${base}/document`, { dereferenced: 'true' }));
    expect(types(all)).toEqual(['paragraph', 'if', 'if', 'paragraph', 'paragraph']);
    expect(words(all)).toContain('Legal words.');
    const both = await ok(admin.api.get(`${base}/document`, { dereferenced: 'true', evaluated: 'true' }));
    expect(types(both)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph']);
    const markdown = await ok(admin.api.get(base, { format: 'markdown', dereferenced: 'true' }));
    expect(markdown.markdown).toContain('Legal words.');
  });

  // Which other spaces a read expands is decided per space by the caller's own access to it (the role rule
  // of docs/permissions.md), at every level of inclusion: pinned for both page reads of a revision.
  it('dereferenced=true expands another space only for a caller who may read it, at every level', async () => {
    const { admin, shared, space } = await world();
    // Shared's "Wrapper" includes the content of "Deep", a third space: Deep is reached through Shared.
    const deep = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Deep' }), 201);
    const { reusableContents: [deepCreated] } = await merge(admin, deep.id, [{ operation: 'insert_reusable_content', title: 'Fine print', document: { markdown: 'Deep words.' } }]);
    const { reusableContents: [wrapper] } = await merge(admin, shared, [
      {
        operation: 'insert_reusable_content',
        title: 'Wrapper',
        document: { document: { object: 'document', data: {}, nodes: [paragraph(text('Wrapper words.')), include(deepCreated.reusableContent, deep.id)] } },
      },
    ]);
    const legal = (await ok(admin.api.get(`/spaces/${shared}/content`))).reusableContents.find((r: { title: string }) => r.title === 'Legal');
    const wrapped = await merge(admin, space, [
      {
        operation: 'insert_page',
        title: 'Nested',
        slug: 'nested',
        document: { document: { object: 'document', data: {}, nodes: [include(legal.id, shared), include(wrapper.reusableContent, shared)] } },
      },
    ]);
    const nestedPage = wrapped.changes[0].page.id as string;
    const current = (await ok(admin.api.get(`/spaces/${space}/content`))).id as string;
    const reads = (pageId: string) => [`/spaces/${space}/revisions/${current}/page/${pageId}/document`, `/spaces/${space}/revisions/${current}/page/${pageId}`];
    const expanded = async (who: Account, pageId: string) => {
      const found: string[][] = [];
      for (const path of reads(pageId)) {
        const res = await who.api.get(path, { dereferenced: 'true' });
        expect(res.status, path).toBe(200);
        const doc = path.endsWith('/document') ? res.body : res.body.document;
        found.push(['Legal words.', 'Wrapper words.', 'Deep words.'].filter((w) => words(doc).includes(w)));
      }
      // Both reads expand the same.
      expect(found[1]).toEqual(found[0]);
      return found[0];
    };
    expect(await expanded(admin, nestedPage)).toEqual(['Legal words.', 'Wrapper words.', 'Deep words.']);
    // Shared and Deep closed to members: a reader of the organization sees their blocks as references.
    for (const id of [shared, deep.id]) expect((await admin.api.patch(`/spaces/${id}`, { defaultLevel: null })).status).toBe(200);
    const reader = await h.current.newMember(admin.organizationId, 'read');
    expect(await expanded(reader, nestedPage)).toEqual([]);
    // Granted Shared alone: its contents expand, Deep's inside them stays a reference.
    expect((await admin.api.post(`/spaces/${shared}/permissions`, { role: 'read', users: [reader.userId] })).status).toBe(204);
    expect(await expanded(reader, nestedPage)).toEqual(['Legal words.', 'Wrapper words.']);
    // A guest given Guides, then Deep: Deep is reached only through Shared, which they cannot read; then Shared too.
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await admin.api.post(`/spaces/${space}/permissions`, { role: 'read', users: [guest.userId] })).status).toBe(204);
    expect(await expanded(guest, nestedPage)).toEqual([]);
    expect((await admin.api.post(`/spaces/${deep.id}/permissions`, { role: 'read', users: [guest.userId] })).status).toBe(204);
    expect(await expanded(guest, nestedPage)).toEqual([]);
    expect((await admin.api.post(`/spaces/${shared}/permissions`, { role: 'read', users: [guest.userId] })).status).toBe(204);
    expect(await expanded(guest, nestedPage)).toEqual(['Legal words.', 'Wrapper words.', 'Deep words.']);
    // A deleted space is not read.
    expect((await admin.api.delete(`/spaces/${deep.id}`)).status).toBe(204);
    expect(await expanded(admin, nestedPage)).toEqual(['Legal words.', 'Wrapper words.']);
    expect(await expanded(guest, nestedPage)).toEqual(['Legal words.', 'Wrapper words.']);
    // An admin of another organization who is a reader of this one reads as that reader.
    const outsider = await h.current.newAdmin();
    await h.current.addMembership(admin.organizationId, outsider.userId, 'read');
    expect(await expanded(outsider, nestedPage)).toEqual([]);
  });

  /** A space closed to members (defaultLevel none) holding the reusable content `Secret`, and `Legal` of the shared space. */
  async function closedBeside(admin: Account, shared: string, title: string) {
    const closed = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title }), 201);
    const { reusableContents: [secret] } = await merge(admin, closed.id, [{ operation: 'insert_reusable_content', title: 'Secret', document: { markdown: 'Secret words.' } }]);
    expect((await admin.api.patch(`/spaces/${closed.id}`, { defaultLevel: null })).status).toBe(200);
    const legal = (await ok(admin.api.get(`/spaces/${shared}/content`))).reusableContents.find((r: { title: string }) => r.title === 'Legal');
    return { closed, secret, legal };
  }

  // The other spaces are checked and read in the read's own statement (server/revisions/other-spaces-attached.ts):
  // one statement whatever the page includes, whether this process holds the revision read or not.
  it('dereferenced=true reads the other spaces in the read\'s one statement, each checked for the caller', async () => {
    const { admin, shared, space } = await world();
    const { closed, secret, legal } = await closedBeside(admin, shared, 'Closed');
    const both = [include(legal.id, shared), include(secret.reusableContent, closed.id)];
    const { changes } = await merge(admin, space, [{ operation: 'insert_page', title: 'Folder', slug: 'folder', document: { markdown: 'Folder.' } }]);
    const folder = changes[0].page.id as string;
    const { changes: [inserted] } = await merge(admin, space, [
      { operation: 'insert_page', title: 'Both', slug: 'both', into: folder, document: { document: { object: 'document', data: {}, nodes: [paragraph(text('Both words.')), ...both] } } },
    ]);
    const page = inserted.page.id as string;
    const revision = (await ok(admin.api.get(`/spaces/${space}/content`))).id as string;
    // A reusable content including both, in a space of its own (Guides' own reusable contents name no other
    // space: the page reads find the spaces in the page's Document).
    const library = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Library' }), 201);
    const { reusableContents: [wrapper] } = await merge(admin, library.id, [
      { operation: 'insert_reusable_content', title: 'Both', document: { document: { object: 'document', data: {}, nodes: both } } },
    ]);
    const libraryRevision = (await ok(admin.api.get(`/spaces/${library.id}/content`))).id as string;

    const seen: { statements?: number } = {};
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (_id, statements) => (seen.statements = statements) });
    const base = `/spaces/${space}/revisions/${revision}`;
    const reads: [string, (body: any) => { nodes: any[] }][] = [
      [`${base}/page/${page}`, (body) => body.document],
      [`${base}/page/${page}/document`, (body) => body],
      [`${base}/path/${encodeURIComponent('folder/both')}`, (body) => body.document],
      [`/spaces/${space}/content/path/${encodeURIComponent('/folder/both/')}`, (body) => body.document],
      [`/spaces/${library.id}/revisions/${libraryRevision}/reusable-contents/${wrapper.reusableContent}/document`, (body) => body],
    ];
    const expanded = async (who: Account, cold = false) => {
      const found: { read: string; words: string[]; statements?: number }[] = [];
      for (const [path, documentOf] of reads) {
        // Nothing held in this process: the statement finds the revision's page itself, by id or path.
        if (cold) for (const id of [revision, libraryRevision]) forgetRevision(id);
        seen.statements = undefined;
        const res = await apiClient(app, who.token).get(path, { dereferenced: 'true' });
        expect(res.status, path).toBe(200);
        const doc = documentOf(res.body);
        found.push({ read: path, words: ['Legal words.', 'Secret words.'].filter((w) => words(doc).includes(w)), statements: seen.statements });
        // A content the caller cannot read stays a reference to it.
        const kept = doc.nodes.filter((n: any) => n.type === 'reusable-content').map((n: any) => n.data.ref.space);
        expect(kept, path).toEqual(found.at(-1)!.words.includes('Secret words.') ? [] : [closed.id]);
      }
      return found;
    };
    const each = (words: string[]) => reads.map(([read]) => ({ read, words, statements: 1 }));
    // The admin reads both other spaces; a reader of the organization reads Shared, not Closed.
    expect(await expanded(admin)).toEqual(each(['Legal words.', 'Secret words.']));
    const reader = await h.current.newMember(admin.organizationId, 'read');
    expect(await expanded(reader)).toEqual(each(['Legal words.']));
    expect(await expanded(reader, true)).toEqual(each(['Legal words.']));
    // Granted Closed: read in the same one statement.
    expect((await admin.api.post(`/spaces/${closed.id}/permissions`, { role: 'read', users: [reader.userId] })).status).toBe(204);
    expect(await expanded(reader)).toEqual(each(['Legal words.', 'Secret words.']));
    expect(await expanded(reader, true)).toEqual(each(['Legal words.', 'Secret words.']));
  });

  // No installation scope allows these reads (installation-scopes.ts); the rule an installation reads other spaces
  // by is still the one a request to each applies (installation-caller.ts), pinned here on the statement run alone (no grant's to join).
  it('reads the other spaces alone when the grant did not bring them, by the caller\'s rule: a user, an installation, a site token', async () => {
    const { admin, shared, space } = await world();
    const { closed, secret, legal } = await closedBeside(admin, shared, 'Not covered');
    const { changes } = await merge(admin, space, [
      { operation: 'insert_page', title: 'Both', document: { document: { object: 'document', data: {}, nodes: [include(legal.id, shared), include(secret.reusableContent, closed.id)] } } },
    ]);
    const revision = (await ok(admin.api.get(`/spaces/${space}/content`))).id as string;
    const grant = { row: { id: space } } as SpaceGrant;
    const read = async (caller: Ctx['caller']) => {
      const ctx = createCtx({ caller, db: h.current.db, now: () => new Date(), urls: createUrls(PUBLIC_URL), log: pino({ level: 'silent' }) });
      return [...(await otherSpaceContents(ctx, grant, revision, 'id', changes[0].page.id)).keys()];
    };
    const reader = await h.current.newMember(admin.organizationId, 'read');
    expect(await read({ userId: admin.userId })).toEqual([shared, closed.id]);
    expect(await read({ userId: reader.userId })).toEqual([shared]);
    const installation = {
      id: 'ins_test',
      integrationName: 'test',
      organizationId: admin.organizationId,
      scopes: ['space:content:read'],
      spaceSelection: 'selected',
      siteSelection: 'selected',
      spaceIds: [space, shared],
      siteIds: [],
    };
    const as = (changed: Partial<typeof installation>) => read({ userId: reader.userId, installation: { ...installation, ...changed } });
    expect(await as({})).toEqual([shared]);
    expect(await as({ spaceIds: [space, shared, closed.id] })).toEqual([shared, closed.id]);
    expect(await as({ spaceSelection: 'all', spaceIds: [] })).toEqual([shared, closed.id]);
    // Without the scope that reads content, or for another organization's installation: none.
    expect(await as({ spaceSelection: 'all', scopes: ['space:metadata:read'] })).toEqual([]);
    expect(await as({ spaceSelection: 'all', organizationId: (await h.current.newAdmin()).organizationId })).toEqual([]);
    // A site token: the spaces it names that a site space of its published site has.
    const site = await newSite(admin, { title: 'Docs', spaces: [space, shared] });
    await publish(admin, site.id);
    const token = { siteId: site.id, organizationId: admin.organizationId, spaceIds: [space, shared, closed.id], expiresAt: Date.now() + 60_000 };
    const bySite = (changed: Partial<typeof token>) => read({ userId: reader.userId, site: { ...token, ...changed } });
    expect(await bySite({})).toEqual([shared]);
    expect(await bySite({ spaceIds: [space] })).toEqual([]);
    expect(await bySite({ expiresAt: Date.now() - 1 })).toEqual([]);
    // A deleted space is not read.
    expect((await admin.api.delete(`/spaces/${closed.id}`)).status).toBe(204);
    expect(await as({ spaceSelection: 'all' })).toEqual([shared]);
  });

  it('reads 10 other spaces at most: the first met, level by level, each level in the order its documents name them', async () => {
    const { admin, space } = await world();
    const others: { space: string; content: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const other = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: `Other ${i}` }), 201);
      const { reusableContents: [made] } = await merge(admin, other.id, [{ operation: 'insert_reusable_content', title: `Part ${i}`, document: { markdown: `Part ${i}.` } }]);
      others.push({ space: other.id, content: made.reusableContent });
    }
    // Level 1: the page names 0, then 2..11 (11 spaces, one too many); 1 is named only by 0's content (level 2).
    const { reusableContents: [wrapper] } = await merge(admin, others[0].space, [
      { operation: 'insert_reusable_content', title: 'Wrapper', document: { document: { object: 'document', data: {}, nodes: [include(others[1].content, others[1].space)] } } },
    ]);
    const named = [include(wrapper.reusableContent, others[0].space), ...others.slice(2).map((o) => include(o.content, o.space))];
    const { changes } = await merge(admin, space, [{ operation: 'insert_page', title: 'Many', document: { document: { object: 'document', data: {}, nodes: named } } }]);
    const revision = (await ok(admin.api.get(`/spaces/${space}/content`))).id as string;
    const ctx = createCtx({ caller: { userId: admin.userId }, db: h.current.db, now: () => new Date(), urls: createUrls(PUBLIC_URL), log: pino({ level: 'silent' }) });
    const read = [...(await otherSpaceContents(ctx, { row: { id: space } } as SpaceGrant, revision, 'id', changes[0].page.id)).keys()];
    expect(read).toEqual([others[0].space, ...others.slice(2, 11).map((o) => o.space)]);
    // The read expands those, and leaves the rest as references.
    const doc = await ok(admin.api.get(`/spaces/${space}/revisions/${revision}/page/${changes[0].page.id}/document`, { dereferenced: 'true' }));
    expect(doc.nodes.filter((n: any) => n.type === 'reusable-content').map((n: any) => n.data.ref.space)).toEqual([others[1].space, others[11].space]);
  });

  it('through a site token: the visitor\'s claims are evaluated, and a space the site does not publish is not expanded', async () => {
    const { admin, space, base } = await world();
    const site = await newSite(admin, { title: 'Docs', spaces: [space] });
    await enableAdaptiveContent(admin, site.id);
    const url: string = (await publish(admin, site.id)).urls.published;
    const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const beta = await ok(admin.api.get('/urls/published', { url: `${url}/guides/home`, visitorAuthToken: await signVisitorToken({ isBetaUser: true }, key) }));
    const anonymous = await ok(admin.api.get('/urls/published', { url: `${url}/guides/home` }));

    const asBeta = await ok(apiClient(h.current.app, beta.apiToken).get(`${base}/document`, { evaluated: 'true', dereferenced: 'true' }));
    expect(words(asBeta)).toContain('Beta only.');
    expect(words(asBeta)).toContain('Version 2.1 for beta');
    expect(words(asBeta)).toContain('Local note.');
    // The shared space is not the site's: its block stays a reference.
    expect(types(asBeta).at(-1)).toBe('reusable-content');
    const asAnyone = await ok(apiClient(h.current.app, anonymous.apiToken).get(`${base}/document`, { evaluated: 'true' }));
    expect(words(asAnyone)).not.toContain('Beta only.');
    expect(words(asAnyone)).toContain('Version 2.1 for everyone');
  });
});
