// The data migration that rewrites every stored Document into GitBook's Document JSON
// (server/data-migrations/gitbook-documents.ts), on a database holding rows as the release before wrote
// them: page Documents (content_documents, under the hash of their old JSON), a revision's reusable content,
// a revision row with its pages inline (older still), a change request's description, a comment, a reply,
// agent instructions and a translation's instructions, all in the old shapes (tables as
// table/table-row/table-cell with data.alignments, an expandable's data.title, leaves without marks,
// blocks without isVoid/data, column widths "50%"). The run is stopped after a few batches and resumed;
// afterwards every Document validates against @gitbook/api's JSONDocument with nothing lost, the pages read
// back through the API, and a second full run rewrites nothing.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { upgradeDocument } from '../server/content/document-upgrade.js';
import { hashDocumentJson } from '../server/content/content-documents.js';
import type { Document } from '../server/content/markdown-document.js';
import { insertRevision } from '../server/content/revisions.store.js';
import type { StoredPage } from '../server/content/revision-content.js';
import { gitbookDocumentsMigration } from '../server/data-migrations/gitbook-documents.js';
import { runDataMigration } from '../server/data-migrations/runner.js';
import { queryRows } from '../server/db/client.js';
import { newId } from '../server/ids.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

// Small batches, so a few dozen rows take several of them in every table that has more than a handful.
const BATCH = 3;
const PAGES = 10;

const oldText = (text: string) => ({ object: 'text', leaves: [{ object: 'leaf', text }] });
const oldParagraph = (key: string, text: string) => ({ object: 'block', type: 'paragraph', key, nodes: [oldText(text)] });
const oldCell = (text: string, wrapped: boolean) => ({
  object: 'block',
  type: 'table-cell',
  nodes: wrapped ? [{ object: 'block', type: 'paragraph', nodes: [oldText(text)] }] : [oldText(text)],
});
const oldRow = (cells: string[], wrapped = false) => ({ object: 'block', type: 'table-row', nodes: cells.map((c) => oldCell(c, wrapped)) });

/** The body rows of test document `n`'s table, in order. */
const tableRows = (n: number) => [
  [`a${n}`, '1', 'first'],
  [`b${n}`, '2', 'second'],
  [`c${n}`, '3', 'third'],
];

/** A Document as the release before this one stored it. */
function oldDocument(n: number): Document {
  return {
    object: 'document',
    nodes: [
      { object: 'block', type: 'heading-1', key: `h${n}`, nodes: [oldText(`Part ${n}`)] },
      {
        object: 'block',
        type: 'paragraph',
        key: `p${n}`,
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'plain ' }, { object: 'leaf', text: 'bold', marks: [{ type: 'bold' }] }] }],
      },
      {
        object: 'block',
        type: 'table',
        key: `t${n}`,
        data: { alignments: ['left', 'center', 'right'] },
        nodes: [oldRow(['Name', 'Count', 'Note']), ...tableRows(n).map((r, i) => oldRow(r, i === 1))],
      },
      { object: 'block', type: 'expandable', key: `e${n}`, data: { title: 'More' }, nodes: [oldParagraph(`eb${n}`, `Hidden ${n}`)] },
      {
        object: 'block',
        type: 'columns',
        key: `c${n}`,
        nodes: [
          { object: 'block', type: 'column', data: { width: '50%' }, nodes: [oldParagraph(`l${n}`, 'Left')] },
          { object: 'block', type: 'column', data: { width: '50%' }, nodes: [oldParagraph(`r${n}`, 'Right')] },
        ],
      },
      { object: 'block', type: 'divider', key: `d${n}` },
    ],
  } as unknown as Document;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const textOf = (nodes: Json[] = []): string => nodes.map((n) => (n.object === 'text' ? n.leaves.map((l: Json) => l.text).join('') : textOf(n.nodes))).join('');

/** Nothing of test document `n` lost: the table's rows as records in order, its header as titles, alignments kept; the rest. */
function expectContentOf(document: Json, n: number) {
  expect(gitbookDocumentErrors(document)).toBeUndefined();
  const [heading, paragraph, table, expandable, columns, divider] = document.nodes as Json[];
  expect(textOf([heading])).toBe(`Part ${n}`);
  expect(paragraph.nodes[0].leaves).toEqual([
    { object: 'leaf', text: 'plain ', marks: [] },
    { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] },
  ]);
  const { view, definition, records } = table.data;
  expect(view.columns.map((c: string) => definition[c].title)).toEqual(['Name', 'Count', 'Note']);
  expect(view.columns.map((c: string) => definition[c].textAlignment)).toEqual(['left', 'center', 'right']);
  const fragments = new Map<string, Json>(table.fragments.map((f: Json) => [f.fragment, f]));
  const rows = (Object.values(records) as Json[])
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1))
    .map((record) => view.columns.map((c: string) => textOf(fragments.get(record.values[c])!.nodes)));
  expect(rows).toEqual(tableRows(n));
  expect(expandable.data.title).toBeUndefined();
  expect(expandable.fragments.map((f: Json) => [f.type, textOf(f.nodes)])).toEqual([
    ['expandable-title', 'More'],
    ['expandable-body', `Hidden ${n}`],
  ]);
  expect(columns.nodes.map((c: Json) => [c.data.width, textOf(c.nodes)])).toEqual([
    [50, 'Left'],
    [50, 'Right'],
  ]);
  expect(divider).toMatchObject({ type: 'divider', isVoid: true, key: `d${n}` });
}

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const rows = await queryRows<{ value: T }>(h.current.db, query);
  expect(rows).toHaveLength(1);
  return rows[0].value;
}

describe('data migration: stored Documents into GitBook Document JSON', () => {
  it('rewrites every Document written in the old shapes, in batches, resuming a stopped run, and a second run changes nothing', async () => {
    const db = h.current.db;
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;

    // Pages and a reusable content, written by the store as the release before wrote them.
    const now = new Date().toISOString();
    const pages: StoredPage[] = Array.from({ length: PAGES }, (_, i) => ({
      id: newId('page'),
      parent: null,
      position: `a${i}`,
      type: 'document',
      title: `Page ${i}`,
      slug: `page-${i}`,
      document: oldDocument(i),
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      createdAt: now,
      updatedAt: now,
    }));
    const ctx = h.current.ctx(admin.userId);
    const [{ revision: parent }] = await queryRows<{ revision: string }>(db, sql`SELECT revision_id AS revision FROM spaces WHERE id = ${spaceId}`);
    const written = await insertRevision(ctx, spaceId, {
      parents: [parent],
      type: 'edits',
      content: { pages, files: [], variables: {}, reusableContents: [{ id: 'rc_old', title: 'Shared', document: oldDocument(100) }] },
    });
    await db.execute(sql`UPDATE spaces SET revision_id = ${written.id} WHERE id = ${spaceId}`);
    // Older still: a revision row holding its pages (with their Documents) inline.
    const inlineId = newId('rev');
    const inlinePage = { ...pages[0], id: newId('page'), document: oldDocument(200) };
    await db.execute(
      sql`INSERT INTO content_revisions (id, space_id, parents, type, content, created_at) VALUES (${inlineId}, ${spaceId}, ${JSON.stringify([parent])}::jsonb, 'edits', ${JSON.stringify({ pages: [inlinePage], files: [], variables: {}, reusableContents: [] })}::jsonb, now())`,
    );

    // A change request's description, a comment, a reply, agent instructions and a translation's
    // instructions: written through the API, then set to the old shapes as the release before stored them.
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
    expect(cr.status).toBe(201);
    const comment = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Question?' } });
    expect(comment.status).toBe(200);
    const reply = await admin.api.post(`/spaces/${spaceId}/comments/${comment.body.id}/replies`, { body: { markdown: 'Answer' } });
    expect(reply.status).toBe(200);
    const instructions = await admin.api.put(`/orgs/${admin.organizationId}/agent-instructions`, {
      instructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [] }] },
    });
    expect(instructions.status).toBe(200);
    const translation = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: spaceId, language: 'en' }, language: 'fr' });
    expect(translation.status).toBe(201);
    const set = (table: string, column: string, key: string, id: string, n: number) =>
      db.execute(sql`UPDATE ${sql.identifier(table)} SET ${sql.identifier(column)} = ${JSON.stringify(oldDocument(n))}::jsonb WHERE ${sql.identifier(key)} = ${id}`);
    await set('change_requests', 'description', 'id', cr.body.id, 300);
    await set('comments', 'document', 'id', comment.body.id, 301);
    await set('comment_replies', 'document', 'id', reply.body.id, 302);
    await set('agent_instructions', 'instructions', 'organization_id', admin.organizationId, 303);
    await set('translations', 'instructions', 'id', translation.body.id, 304);

    // The rows in the old shapes: each page's Document, the revision with the reusable content, the inline
    // revision, and the five Documents above.
    const oldRows = PAGES + 2 + 5;
    const hashes = pages.map((_, i) => hashDocumentJson(JSON.stringify(oldDocument(i))));
    expect(await one<unknown>(sql`SELECT document AS value FROM content_documents WHERE hash = ${hashes[3]}`)).toEqual(oldDocument(3));

    // A run stopped after its third batch (a crash between two batches)…
    let batches = 0;
    let visited = 0;
    const stop = new Error('stopped');
    await expect(
      runDataMigration(db, gitbookDocumentsMigration, {
        batchSize: BATCH,
        onBatch: (p) => {
          visited += p.rows;
          if (++batches === 3) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    const stopped = await one<{ step: number; after: string | null }>(sql`SELECT position AS value FROM data_migrations WHERE name = ${gitbookDocumentsMigration.name}`);
    expect(stopped.step).toBe(0);
    expect(stopped.after).not.toBeNull();
    const changedBefore = await one<number>(sql`SELECT rows_changed AS value FROM data_migrations WHERE name = ${gitbookDocumentsMigration.name}`);

    // …resumes where it stopped: it visits only the rows the first did not, and finishes.
    let resumedFirst: { step: number; table: string } | undefined;
    const resumed = await runDataMigration(db, gitbookDocumentsMigration, {
      batchSize: BATCH,
      onBatch: (p) => {
        resumedFirst ??= { step: p.step, table: p.table };
        visited += p.rows;
      },
    });
    expect(resumed.alreadyDone).toBe(false);
    expect(resumedFirst).toEqual({ step: 0, table: 'content_documents' });
    expect(changedBefore + resumed.changed).toBe(oldRows);
    expect(await one<boolean>(sql`SELECT finished_at IS NOT NULL AS value FROM data_migrations WHERE name = ${gitbookDocumentsMigration.name}`)).toBe(true);
    expect((await runDataMigration(db, gitbookDocumentsMigration)).alreadyDone).toBe(true);

    // Every Document is in GitBook's shapes, with nothing lost, and equal to what the read path made of it.
    for (const [i, hash] of hashes.entries()) {
      const stored = await one<Json>(sql`SELECT document AS value FROM content_documents WHERE hash = ${hash}`);
      expectContentOf(stored, i);
      expect(stored).toEqual(upgradeDocument(oldDocument(i)));
    }
    const revision = await one<Json>(sql`SELECT content AS value FROM content_revisions WHERE id = ${written.id}`);
    expectContentOf(revision.reusableContents[0].document, 100);
    const inline = await one<Json>(sql`SELECT content AS value FROM content_revisions WHERE id = ${inlineId}`);
    expectContentOf(inline.pages[0].document, 200);
    expect(inline.pages[0].title).toBe(inlinePage.title);
    expectContentOf(await one<Json>(sql`SELECT description AS value FROM change_requests WHERE id = ${cr.body.id}`), 300);
    expectContentOf(await one<Json>(sql`SELECT document AS value FROM comments WHERE id = ${comment.body.id}`), 301);
    expectContentOf(await one<Json>(sql`SELECT document AS value FROM comment_replies WHERE id = ${reply.body.id}`), 302);
    expectContentOf(await one<Json>(sql`SELECT instructions AS value FROM agent_instructions WHERE organization_id = ${admin.organizationId}`), 303);
    expectContentOf(await one<Json>(sql`SELECT instructions AS value FROM translations WHERE id = ${translation.body.id}`), 304);

    // The pages read back through the API, under the hashes their revision names.
    for (const i of [0, PAGES - 1]) {
      const page = await admin.api.get(`/spaces/${spaceId}/content/page/${pages[i].id}`, { format: 'document' });
      expect(page.status).toBe(200);
      expectContentOf(page.body.document, i);
    }

    // A second full run (its record removed) visits the same rows and rewrites none.
    const before = await queryRows<{ hash: string; document: string }>(db, sql`SELECT hash, document::text AS document FROM content_documents ORDER BY hash`);
    await db.execute(sql`DELETE FROM data_migrations WHERE name = ${gitbookDocumentsMigration.name}`);
    let again = 0;
    const second = await runDataMigration(db, gitbookDocumentsMigration, { batchSize: BATCH, onBatch: (p) => void (again += p.rows) });
    expect(second.changed).toBe(0);
    expect(again).toBe(visited);
    expect(await queryRows(db, sql`SELECT hash, document::text AS document FROM content_documents ORDER BY hash`)).toEqual(before);
  });
});
