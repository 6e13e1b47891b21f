// Every part of a Document survives (docs/content.md): Documents generated from GitBook's own JSON schemas
// (@gitbook/api's spec: every block type, inline type and mark, table definitions and records, fragments,
// every `ref` kind of ContentRef, block keys), each valid against GitBook's `JSONDocument`, are written through a change request,
// merged, and read back equal in the `document` format, from the change request and from the space. What
// cannot be stored is a 400 naming the node's path; comments, replies and descriptions keep their Documents.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document } from '../contract/document.js';
import { gitbookDocument } from './support/gitbook-arbitrary.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

// --- generators, from GitBook's own schemas (test/support/gitbook-arbitrary.ts) --------------------------

const document = gitbookDocument;

// --- helpers -------------------------------------------------------------------------------------------

async function newSpace(admin: Account): Promise<string> {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function openChangeRequest(admin: Account, spaceId: string): Promise<string> {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Write' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function readDocument(admin: Account, path: string) {
  const res = await admin.api.get(path, { format: 'document' });
  expect(res.status).toBe(200);
  return res.body.document;
}

/** What a client sent, as the server received it (JSON). */
const sent = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('every part of a Document survives', () => {
  it("documents generated from GitBook's schemas are accepted by the contract", () => {
    fc.assert(fc.property(document, (doc) => void Document.parse(doc)), { numRuns: 200 });
  });

  it('post …/content then …/merge: documents generated from the contract read back equal, from the change request and from the space', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    await fc.assert(
      fc.asyncProperty(fc.array(document, { minLength: 1, maxLength: 3 }), async (documents) => {
        const cr = await openChangeRequest(admin, spaceId);
        const written = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
          changes: documents.map((doc, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { document: doc } })),
        });
        expect(written.status).toBe(200);
        const pages: string[] = written.body.changes.map((c: { page: { id: string } }) => c.page.id);
        for (const [i, id] of pages.entries()) {
          expect(await readDocument(admin, `/spaces/${spaceId}/change-requests/${cr}/content/page/${id}`)).toEqual(sent(documents[i]));
        }
        expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
        for (const [i, id] of pages.entries()) {
          expect(await readDocument(admin, `/spaces/${spaceId}/content/page/${id}`)).toEqual(sent(documents[i]));
          // The Markdown view of any document can be read.
          const md = await admin.api.get(`/spaces/${spaceId}/content/page/${id}`, { format: 'markdown' });
          expect(md.status).toBe(200);
          expect(typeof md.body.markdown).toBe('string');
        }
      }),
      { numRuns: 15 },
    );
  }, 300_000);

  it('update_page with a document, then a Markdown edit of another block: what Markdown cannot say stays in the blocks it left alone', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const paragraph = (key: string, words: string, data?: Record<string, unknown>) => ({
      object: 'block',
      type: 'paragraph',
      key,
      ...(data && { data }),
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: words, marks: [] }] }],
    });
    const given = {
      object: 'document',
      data: { schemaVersion: 1, layout: 'wide' },
      nodes: [
        paragraph('a', 'Centred words.', { align: 'center' }),
        {
          object: 'block',
          type: 'paragraph',
          key: 'b',
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Ask ', marks: [] }] },
            { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'usr_01ABCDEFGHJK' } } },
            { object: 'text', leaves: [{ object: 'leaf', text: ' about ', marks: [] }] },
            // Markdown's footnote says which word it follows, not that the note is of two words.
            {
              object: 'inline',
              type: 'annotation',
              isVoid: false,
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'two words', marks: [] }] }],
              fragments: [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [paragraph('n', 'A note.')] }],
            },
            { object: 'text', leaves: [{ object: 'leaf', text: '.', marks: [] }] },
          ],
        },
        paragraph('c', 'Plain words.'),
      ],
    };
    const inserted = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Guide', document: { document: given } }],
    });
    expect(inserted.status).toBe(200);
    const pageId = inserted.body.changes[0].page.id;
    const path = `/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`;
    const md = await admin.api.get(path, { format: 'markdown' });
    expect(md.status).toBe(200);
    // A centred paragraph is written as GitBook writes it, in HTML (markdown-html-aligned.ts); a note of two words has no Markdown.
    expect(md.body.markdown).toBe('<p align="center">Centred words.</p>\n\nAsk [usr_01ABCDEFGHJK](usr_01ABCDEFGHJK "mention") about two words[^1].\n\nPlain words.\n\n[^1]: A note.');
    const edited = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: md.body.markdown.replace('Plain words.', 'Plain words, edited.') } }],
    });
    expect(edited.status).toBe(200);
    const after = await readDocument(admin, path);
    expect(after.data).toEqual({ schemaVersion: 1, layout: 'wide' });
    expect(after.nodes[0]).toEqual(given.nodes[0]);
    expect(after.nodes[1]).toEqual(given.nodes[1]);
    expect(after.nodes[2]).toMatchObject({ key: 'c', nodes: [{ leaves: [{ text: 'Plain words, edited.' }] }] });
  });

  it('post …/content answers 400 naming the node path for what cannot be stored, and writes nothing', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const doc = (leafText: string, keys: [string, string]) => ({
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', key: keys[0], nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'fine', marks: [] }] }] },
        { object: 'block', type: 'hint', key: keys[1], data: { style: 'info' }, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: leafText, marks: [] }] }] }] },
      ],
    });
    const nul = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'ok' } }, { operation: 'insert_page', title: 'B', document: { document: doc('a\u0000b', ['x', 'y']) } }],
    });
    expect(nul.status).toBe(400);
    expect(nul.body.error.message).toContain('body.changes.1.document.document.nodes.1.nodes.0.nodes.0.leaves.0.text');
    const surrogate = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'ok' } }, { operation: 'insert_page', title: 'B', document: { document: doc('a\uDC00b', ['x', 'y']) } }],
    });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error.message).toContain('body.changes.1.document.document.nodes.1.nodes.0.nodes.0.leaves.0.text');
    const twice = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'B', document: { document: doc('b', ['x', 'x']) } }],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toContain('body.changes[0].document.document.nodes[1].key');
    const pages = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr}/content/pages`);
    expect(pages.status).toBe(200);
    expect(pages.body.pages).toEqual([]);
    // Descriptions are Documents too.
    const bad = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'S', description: doc('\uD800', ['p', 'q']) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.description.nodes.1.nodes.0.nodes.0.leaves.0.text');
    const deep = { object: 'block', type: 'blockquote', nodes: [] as unknown[] };
    let inner = deep;
    for (let i = 0; i < 70; i++) {
      const next = { object: 'block', type: 'blockquote', nodes: [] as unknown[] };
      inner.nodes.push(next);
      inner = next;
    }
    const tooDeep = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'C', document: { document: { object: 'document', data: {}, nodes: [deep] } } }],
    });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error.message).toMatch(/^body\.changes\[0\]\.document\.document\.nodes(\[0\]\.nodes)+: blocks nested more than 64 deep/);
  });

  it('comments, replies and change-request descriptions read back the Documents they were given', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    await fc.assert(
      fc.asyncProperty(document, document, async (a, b) => {
        const comment = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { document: a } });
        expect(comment.status).toBe(200);
        const readComment = await admin.api.get(`/spaces/${spaceId}/comments/${comment.body.id}`, { format: 'document' });
        expect(readComment.status).toBe(200);
        expect(readComment.body.body.document).toEqual(sent(a));
        const reply = await admin.api.post(`/spaces/${spaceId}/comments/${comment.body.id}/replies`, { body: { document: b } });
        expect(reply.status).toBe(200);
        const readReply = await admin.api.get(`/spaces/${spaceId}/comments/${comment.body.id}/replies/${reply.body.id}`, { format: 'document' });
        expect(readReply.status).toBe(200);
        expect(readReply.body.body.document).toEqual(sent(b));
        const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'S', description: b });
        expect(cr.status).toBe(201);
        const readCr = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.body.id}`);
        expect(readCr.status).toBe(200);
        expect(readCr.body.description).toEqual(sent(b));
      }),
      { numRuns: 10 },
    );
  }, 300_000);
});
