// Markdown written through the API reads into GitBook's own Document: every entry of a corpus of
// GitBook-flavoured Markdown (test/support/gitbook-markdown-corpus.ts), written as a page, reads back as a
// Document that validates against @gitbook/api's JSONDocument (Ajv over GitBook's spec). Blocks nested
// where GitBook's Document does not let them be are brought out in order, nothing dropped
// (server/content/gitbook-nesting.ts); a file given by URL is a link to it.
import { describe, expect, it } from 'vitest';
import { gitbookDocumentErrors } from './support/gitbook-document.js';
import { gitbookMarkdownCorpus } from './support/gitbook-markdown-corpus.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const textOf = (node: Json): string => {
  if (node.object === 'text') return node.leaves.map((l: Json) => l.text).join('');
  return [...(node.nodes ?? []), ...(node.fragments ?? [])].map(textOf).join(' ');
};
const outline = (nodes: Json[]) => nodes.map((b) => b.type);

describe('Markdown into GitBook Documents', () => {
  it('every page written from the GitBook-flavoured Markdown corpus reads back as a Document that validates against @gitbook/api JSONDocument', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Corpus' });
    expect(space.status).toBe(201);
    const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`, { subject: 'Corpus' });
    expect(cr.status).toBe(201);
    const names = Object.keys(gitbookMarkdownCorpus);
    const pageIds: string[] = [];
    // In batches of 50, the most one write takes.
    for (let at = 0; at < names.length; at += 50) {
      const batch = names.slice(at, at + 50);
      const written = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
        changes: batch.map((name) => ({ operation: 'insert_page', title: name, document: { markdown: gitbookMarkdownCorpus[name] } })),
      });
      expect(written.status, JSON.stringify(written.body).slice(0, 500)).toBe(200);
      pageIds.push(...written.body.changes.map((c: Json) => c.page.id as string));
    }
    const documents = new Map<string, Json>();
    const read = async (name: string, i: number) => {
      const page = await admin.api.get(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content/page/${pageIds[i]}`, { format: 'document' });
      expect(page.status).toBe(200);
      documents.set(name, page.body.document);
    };
    for (let at = 0; at < names.length; at += 16) await Promise.all(names.slice(at, at + 16).map((name, j) => read(name, at + j)));
    const invalid = [...documents].filter(([, document]) => gitbookDocumentErrors(document)).map(([name]) => name);
    expect(invalid).toEqual([]);

    // What GitBook does not let a block hold comes out of it, in order, with its text.
    const codeInHint = documents.get('codeInHint')!.nodes;
    expect(outline(codeInHint)).toEqual(['hint', 'code']);
    expect(textOf(codeInHint[0])).toBe('Run:');
    expect(codeInHint[0].data.style).toBe('info');
    expect(textOf(codeInHint[1])).toBe('npm i');
    const nested = documents.get('nestedDetails')!.nodes;
    expect(outline(nested)).toEqual(['expandable', 'expandable']);
    expect(textOf(nested[0])).toContain('Outer');
    expect(textOf(nested[0])).toContain('Body');
    expect(textOf(nested[1])).toContain('Inner');
    expect(textOf(nested[1])).toContain('Inner body');
    const tabs = documents.get('tableInTabs')!.nodes;
    expect(outline(tabs)).toEqual(['tabs', 'table']);
    expect(tabs[0].nodes[0].data.title).toBe('A');
    const list = documents.get('detailsInList')!.nodes;
    expect(outline(list)).toEqual(['list-unordered', 'expandable']);
    // A file given by URL is a link to it, its caption the link's text.
    const file = documents.get('fileUrl')!.nodes;
    expect(outline(file)).toEqual(['paragraph']);
    expect(file[0].nodes.find((n: Json) => n.type === 'link')).toMatchObject({ data: { ref: { kind: 'url', url: 'https://example.com/a.pdf' } } });
    expect(textOf(file[0])).toBe('Caption');
  });
});
