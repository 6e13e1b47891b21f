// Readers of GitBook's Document find what a table's cells and an expandable's body hold (their fragments):
// the space search finds a word only a cell has, and the link checker lists a link only a cell or an
// expandable's body has.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('readers of tables and fragments', () => {
  it('search finds a word of a table cell, and the link checker lists links in cells and in an expandable body', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`, { subject: 'Table' });
    expect(cr.status).toBe(201);
    const markdown = [
      'Intro.',
      '| Name | Where |\n| --- | --- |\n| quetzalcoatl | [cell link](https://example.com/in-cell) |',
      '<details>\n<summary>More</summary>\n\nSee [body link](https://example.com/in-body).\n\n</details>',
    ].join('\n\n');
    const written = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Table page', document: { markdown } }],
    });
    expect(written.status).toBe(200);
    const pageId = written.body.changes[0].page.id as string;
    expect((await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const doc = await admin.api.get(`/spaces/${space.body.id}/content/page/${pageId}`, { format: 'document' });
    expect(doc.status).toBe(200);
    expect(doc.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'table', 'expandable']);

    const found = await admin.api.get(`/spaces/${space.body.id}/search`, { query: 'quetzalcoatl' });
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { id: string }) => i.id)).toEqual([pageId]);

    const links = await admin.api.get(`/spaces/${space.body.id}/content/page/${pageId}/links`);
    expect(links.status).toBe(200);
    expect(links.body.items.map((i: { targetReference: unknown }) => i.targetReference)).toEqual(
      expect.arrayContaining([
        { kind: 'url', url: 'https://example.com/in-cell' },
        { kind: 'url', url: 'https://example.com/in-body' },
      ]),
    );
  });
});
