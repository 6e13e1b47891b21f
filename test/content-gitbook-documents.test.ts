// Pages, comments and reusable content in GitBook's own Document JSON, end to end: every Document the API
// answers validates against @gitbook/api's `JSONDocument` (Ajv over GitBook's spec); a Document GitBook
// produces (a table with records and cell fragments, an expandable) is stored and read back equal, its
// fragments kept; a Document that is not GitBook's is a 400 naming the node and the rule; two writers
// editing different cells of one table merge.
import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';

const h = useHarness();

const richMarkdown = [
  '# Guide',
  'Intro with **bold**, `code`, a [link](https://example.com) and $$x^2$$.',
  '| Name | Value |\n| :-: | --: |\n| a | **1** |\n| b | 2 |',
  '{% hint style="warning" %}\nCareful.\n{% endhint %}',
  '{% tabs %}\n{% tab title="npm" %}\nRun it.\n{% endtab %}\n{% endtabs %}',
  '<details>\n<summary>More</summary>\n\nHidden body.\n\n</details>',
  '{% stepper %}\n{% step %}\n### One\n{% endstep %}\n{% endstepper %}',
  '{% columns %}\n{% column width="50%" %}\nLeft\n{% endcolumn %}\n\n{% column width="50%" %}\nRight\n{% endcolumn %}\n{% endcolumns %}',
  '$$\nE = mc^2\n$$',
  '{% embed url="https://youtu.be/x" %}',
  '<figure><img src="https://example.com/a.png" alt="A"><figcaption><p>Caption</p></figcaption></figure>',
  '- one\n- two\n\n1. first\n\n- [x] done',
  '> quoted',
  '```js\nrun();\n```',
  '---',
].join('\n\n');

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(value)] });

/** A table as GitBook writes it: `rows` × 2 text columns, each cell a fragment. */
function gitbookTable(rows: number, cell: (r: number, c: number) => string) {
  const records: Record<string, unknown> = {};
  const fragments: unknown[] = [];
  for (let r = 0; r < rows; r++) {
    const values: Record<string, string> = {};
    for (const c of [0, 1]) {
      values[`d${c}`] = `f${r}-${c}`;
      fragments.push({ object: 'fragment', fragment: `f${r}-${c}`, nodes: [{ ...paragraph(cell(r, c)), key: `k${r}-${c}` }] });
    }
    records[`r${r}`] = { orderIndex: `a${String(r).padStart(4, '0')}`, values };
  }
  return {
    object: 'block',
    type: 'table',
    key: 'tbl',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: ['d0', 'd1'], hideHeader: false },
      definition: { d0: { id: 'd0', title: 'Name', type: 'text', textAlignment: 'left' }, d1: { id: 'd1', title: 'Value', type: 'text', textAlignment: 'right' } },
      records,
    },
    fragments,
  };
}

const expandable = {
  object: 'block',
  type: 'expandable',
  key: 'exp',
  isVoid: true,
  data: { defaultExpanded: true },
  fragments: [
    { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [{ ...paragraph('Details'), key: 'ext' }] },
    { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [{ ...paragraph('The body.'), key: 'exb' }] },
  ],
};

async function newSpace(admin: Account) {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function openCr(admin: Account, spaceId: string) {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function change(admin: Account, spaceId: string, crId: string, changes: unknown[]) {
  return admin.api.post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });
}

async function pageDocument(admin: Account, spaceId: string, pageId: string) {
  const res = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
  expect(res.status).toBe(200);
  return res.body.document;
}

describe("Documents in GitBook's Document JSON", () => {
  it('every Document read from Markdown pages, comments and reusable content validates against @gitbook/api JSONDocument', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openCr(admin, spaceId);
    const wrote = await change(admin, spaceId, cr, [{ operation: 'insert_page', title: 'Guide', document: { markdown: richMarkdown } }]);
    expect(wrote.status).toBe(200);
    const pageId = wrote.body.changes[0].page.id as string;
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);

    const documents: { what: string; document: unknown }[] = [];
    documents.push({ what: 'page', document: await pageDocument(admin, spaceId, pageId) });
    const content = await admin.api.get(`/spaces/${spaceId}/content`, { format: 'document' });
    expect(content.status).toBe(200);
    const comment = await admin.api.post(`/spaces/${spaceId}/comments`, { page: pageId, body: { markdown: 'Is **this** | right? [x](https://example.com)' } });
    expect(comment.status).toBe(200);
    const comments = await admin.api.get(`/spaces/${spaceId}/comments`, { format: 'document' });
    expect(comments.status).toBe(200);
    for (const c of comments.body.items) documents.push({ what: `comment ${c.id}`, document: c.body.document });

    expect(documents.length).toBeGreaterThanOrEqual(2);
    const types = (documents[0].document as { nodes: { type: string }[] }).nodes.map((n) => n.type);
    expect(types).toEqual(expect.arrayContaining(['table', 'hint', 'tabs', 'expandable', 'stepper', 'columns', 'math', 'embed', 'images', 'code', 'divider']));
    for (const { what, document } of documents) expect({ what, errors: gitbookDocumentErrors(document) }).toEqual({ what, errors: undefined });
  });

  it('a table and an expandable written as GitBook Documents are stored with their fragments and read back equal', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openCr(admin, spaceId);
    const document = { object: 'document', data: {}, nodes: [gitbookTable(2, (r, c) => `cell ${r}.${c}`), expandable] };
    expect(gitbookDocumentErrors(document)).toBeUndefined();
    const wrote = await change(admin, spaceId, cr, [{ operation: 'insert_page', title: 'Table', document: { document } }]);
    expect(wrote.status).toBe(200);
    const pageId = wrote.body.changes[0].page.id as string;
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
    const back = await pageDocument(admin, spaceId, pageId);
    expect(back.nodes).toEqual(document.nodes);
    expect(gitbookDocumentErrors(back)).toBeUndefined();
    // The Markdown view shows the cells and the expandable's title and body.
    const md = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
    expect(md.status).toBe(200);
    expect(md.body.markdown).toContain('| Name');
    expect(md.body.markdown).toContain('cell 1.1');
    expect(md.body.markdown).toContain('<details open>\n<summary>Details</summary>');
    expect(md.body.markdown).toContain('The body.');
  });

  it('a Document that is not GitBook\'s is a 400 naming the node path and the rule, and nothing is written', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openCr(admin, spaceId);
    const table = gitbookTable(1, () => 'x') as { data: Record<string, unknown> };
    delete table.data.records;
    const bad = { object: 'document', data: {}, nodes: [paragraph('a'), paragraph('b'), paragraph('c'), table] };
    const res = await change(admin, spaceId, cr, [{ operation: 'insert_page', title: 'Bad', document: { document: bad } }]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/nodes\.3\.data\.records/);
    const noMarks = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x' }] }] }] };
    const res2 = await change(admin, spaceId, cr, [{ operation: 'insert_page', title: 'Bad', document: { document: noMarks } }]);
    expect(res2.status).toBe(400);
    expect(res2.body.error.message).toMatch(/nodes\.0\.nodes\.0\.leaves\.0\.marks/);
    const legacyExpandable = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'expandable', isVoid: true, data: { title: 'Old' }, fragments: [] }] };
    const res3 = await change(admin, spaceId, cr, [{ operation: 'insert_page', title: 'Bad', document: { document: legacyExpandable } }]);
    expect(res3.status).toBe(400);
    expect(res3.body.error.message).toMatch(/nodes\.0\.data\.title: unknown field/);
    const content = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr}/content`);
    expect(content.status).toBe(200);
    expect(content.body.pages).toEqual([]);
  });

  it('two writers editing different cells of one 200-row table merge, and the same cell edited twice is a 409', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr0 = await openCr(admin, spaceId);
    const base = { object: 'document', data: {}, nodes: [gitbookTable(200, (r, c) => `v${r}.${c}`)] };
    const wrote = await change(admin, spaceId, cr0, [{ operation: 'insert_page', title: 'Big table', document: { document: base } }]);
    expect(wrote.status).toBe(200);
    const pageId = wrote.body.changes[0].page.id as string;
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr0}/merge`)).status).toBe(200);

    const edited = (cells: Record<string, string>) => {
      const doc = structuredClone(base) as { nodes: { fragments: { fragment: string; nodes: { nodes: unknown[] }[] }[] }[] };
      for (const f of doc.nodes[0].fragments) if (cells[f.fragment] !== undefined) f.nodes[0].nodes = [text(cells[f.fragment])];
      return doc;
    };
    const [a, b, c] = [await openCr(admin, spaceId), await openCr(admin, spaceId), await openCr(admin, spaceId)];
    expect((await change(admin, spaceId, a, [{ operation: 'update_page', page: pageId, document: { document: edited({ 'f3-0': 'first writer' }) } }])).status).toBe(200);
    expect((await change(admin, spaceId, b, [{ operation: 'update_page', page: pageId, document: { document: edited({ 'f150-1': 'second writer' }) } }])).status).toBe(200);
    expect((await change(admin, spaceId, c, [{ operation: 'update_page', page: pageId, document: { document: edited({ 'f3-0': 'third writer' }) } }])).status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${a}/merge`)).status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${b}/merge`)).status).toBe(200);
    const merged = await pageDocument(admin, spaceId, pageId);
    const cellText = (name: string) => merged.nodes[0].fragments.find((f: { fragment: string }) => f.fragment === name).nodes[0].nodes[0].leaves[0].text;
    expect(cellText('f3-0')).toBe('first writer');
    expect(cellText('f150-1')).toBe('second writer');
    expect(cellText('f7-1')).toBe('v7.1');
    expect(gitbookDocumentErrors(merged)).toBeUndefined();
    const conflict = await admin.api.post(`/spaces/${spaceId}/change-requests/${c}/merge`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toMatch(/fragment f3-0|Block k3-0/);
  });

  it('a relative .md link to a page of the space is a page reference, written back relative', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openCr(admin, spaceId);
    const first = await change(admin, spaceId, cr, [{ operation: 'insert_page', title: 'Configuration', document: { markdown: 'Settings.' } }]);
    expect(first.status).toBe(200);
    const target = first.body.changes[0].page.id as string;
    const second = await change(admin, spaceId, cr, [
      { operation: 'insert_page', title: 'Start', document: { markdown: 'See [Configuration](configuration.md) and [a section](configuration.md#keys).' } },
      { operation: 'insert_page', title: 'Later', document: { markdown: 'Back to [Start](start.md).' } },
    ]);
    expect(second.status).toBe(200);
    const start = second.body.changes[0].page.id as string;
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
    const doc = await pageDocument(admin, spaceId, start);
    const links = doc.nodes[0].nodes.filter((n: { type?: string }) => n.type === 'link').map((n: { data: unknown }) => n.data);
    expect(links).toEqual([{ ref: { kind: 'page', page: target } }, { ref: { kind: 'anchor', anchor: 'keys', page: target } }]);
    const md = await admin.api.get(`/spaces/${spaceId}/content/page/${start}`, { format: 'markdown' });
    expect(md.status).toBe(200);
    expect(md.body.markdown).toBe('See [Configuration](configuration.md) and [a section](configuration.md#keys).');
  });
});
