// Documents stored apart from revisions (server/content/content-documents.ts): a Document read from a row is
// written by hash alone afterwards; one a write made is written whole by every write, even after a read named
// it, since a process may write to several databases and a read proves only that its own holds it.
import { describe, expect, it } from 'vitest';
import { cacheStored, hydratePages, storablePages } from '../../server/content/content-documents.js';
import type { Document } from '../../server/content/markdown-document.js';
import type { StoredPage } from '../../server/content/revision-content.js';

const page = (extra: Partial<StoredPage>): StoredPage =>
  ({ id: 'pag_documents', parent: null, position: 'a0', type: 'document', title: 'Page', slug: 'page', hidden: false, noIndex: false, noRobotsIndex: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...extra }) as StoredPage;
const documentOf = (text: string): Document =>
  ({ object: 'document', data: { schemaVersion: 1 }, nodes: [{ object: 'block', type: 'paragraph', key: 'k1', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] }) as unknown as Document;
// Every Document below is cached by hash, so reading them needs no query: no database is given.
const noDatabase = undefined as never;

describe('storablePages', () => {
  it("writes a Document a write made with every write, even once a read named it; one read from a row by its hash alone", async () => {
    const made = documentOf(`Made by a write ${Math.random()}`);
    const first = storablePages([page({ document: made })]);
    expect(first.newDocuments).toHaveLength(1);
    const read = page({ documentHash: first.pages[0].documentHash });
    await hydratePages(noDatabase, [read]);
    expect(read.document).toBe(made); // the very object the write cached
    expect(storablePages([page({ document: read.document })]).newDocuments).toHaveLength(1);

    const json = JSON.stringify(documentOf(`Read from a row ${Math.random()}`));
    const hash = `row-${Math.random()}`;
    cacheStored(hash, json);
    const fromRow = page({ documentHash: hash });
    await hydratePages(noDatabase, [fromRow]);
    const again = storablePages([page({ document: fromRow.document })]);
    expect(again.newDocuments).toEqual([]);
    expect(again.pages[0].documentHash).toBe(hash);
  });
});
