// The check the GitBook-dialect tests make of each fixture (test/content-markdown-gitbook-*.test.ts): its
// Document validates against GitBook's JSONDocument, no text leaf holds tag or HTML syntax, the Markdown
// written back is the fixture, and reading it again gives the same Document.
import { expect } from 'vitest';
import { documentToMarkdown, markdownToDocument, type Document } from '../../server/content/markdown-document.js';
import { gitbookDocumentErrors } from './gitbook-document.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every text leaf of a document, in its blocks, inlines and fragments. */
export function leavesOf(nodes: Json[] = []): string[] {
  return nodes.flatMap((n) => (n.object === 'text' ? n.leaves.map((l: Json) => l.text as string) : [...leavesOf(n.nodes), ...(n.fragments ?? []).flatMap((f: Json) => leavesOf(f.nodes))]));
}

export const rawSyntax = /\{%|<\/?[a-z][a-z0-9-]*(?:[\s>/]|$)/i;

/** The Document of `markdown`, checked: GitBook's schema, no raw syntax in a leaf, written back as `markdown`, read back the same. */
export function readChecked(markdown: string): Document {
  const document = markdownToDocument(markdown);
  expect(gitbookDocumentErrors(document)).toBeUndefined();
  expect(leavesOf(document.nodes).filter((t) => rawSyntax.test(t))).toEqual([]);
  const written = documentToMarkdown(document);
  expect(written).toBe(markdown);
  expect(markdownToDocument(written)).toEqual(document);
  return document;
}
