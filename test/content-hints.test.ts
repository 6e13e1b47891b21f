// GitBook hints end to end: written as Markdown or as a document in a change request, read back in both
// formats (a `hint` block with `data.style` and a key), merged, and rendered by the published site as a
// sanitized aside with its style's class.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();

const hintPage = 'Intro.\n\n{% hint style="warning" %}\nMind the **gap**.\n\n- one\n- two\n{% endhint %}\n\nAfter.';

describe('hint blocks', () => {
  it('a page with a hint reads back as a hint block and as the same Markdown; a hint given as a document is stored', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceWithPages(admin, 'Guides', [{ title: 'Guide', markdown: hintPage }]);
    const pages = await admin.api.get(`/spaces/${spaceId}/content/pages`);
    expect(pages.status).toBe(200);
    const pageId = pages.body.pages[0].id as string;

    const asMarkdown = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
    expect(asMarkdown.status).toBe(200);
    expect(asMarkdown.body.markdown).toBe(hintPage);
    const asDocument = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    expect(asDocument.status).toBe(200);
    const hint = asDocument.body.document.nodes[1];
    expect(hint).toMatchObject({ object: 'block', type: 'hint', data: { style: 'warning' }, key: expect.any(String) });
    expect(hint.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'list-unordered']);

    // The document read is sent back with a new hint: the keys of the blocks it kept stay, the new one is stored.
    const cr = (await admin.api.post(`/spaces/${spaceId}/change-requests`)).body;
    const nodes = [
      ...asDocument.body.document.nodes,
      { object: 'block', type: 'hint', data: { style: 'success' }, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Done.', marks: [] }] }] }] },
    ];
    const updated = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: pageId, document: { document: { object: 'document', data: {}, nodes } } }],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const crMarkdown = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'markdown' });
    expect(crMarkdown.status).toBe(200);
    expect(crMarkdown.body.markdown).toBe(`${hintPage}\n\n{% hint style="success" %}\nDone.\n{% endhint %}`);
    const crDocument = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    expect(crDocument.body.document.nodes[1].key).toBe(hint.key);
    expect(crDocument.body.document.nodes[3]).toMatchObject({ type: 'hint', data: { style: 'success' } });

    // A comment can anchor on the hint block.
    const comment = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Too loud?' }, page: pageId, node: hint.key });
    expect(comment.status).toBe(200);
    const merged = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const after = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    expect(after.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'hint', 'paragraph', 'hint']);
  });

  it('the published site renders a hint as an aside with its style class, its content sanitized', async () => {
    const admin = await h.current.newAdmin();
    const markdown = '{% hint style="danger" %}\nNever run **this** [here](javascript:alert(1)).\n\n<script>alert(1)</script>\n{% endhint %}';
    const spaceId = await spaceWithPages(admin, 'Guides', [{ title: 'Careful', markdown }]);
    const site = await newSite(admin, { title: 'Docs', spaces: [spaceId] });
    const url = (await publish(admin, site.id)).urls.published;
    const res = await open(h.current, url);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<aside class="hint hint-danger" role="note">\s*<p>Never run <strong>this<\/strong> <a>here<\/a>\.<\/p>\s*<\/aside>/);
    expect(res.text).not.toContain('alert(1)');
    expect(res.text).not.toContain('{% hint');
  });
});
