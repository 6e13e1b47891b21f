// A Document as a Git Sync file's Markdown: GitBook-flavoured Markdown with the bullets GitBook's own Git Sync
// writes (`*`, and `-` for a list right after another), so a page the space added reads in a repository as
// GitBook would have written it. The read compares a file with this text to know a page unchanged (read.ts).
import { documentToMarkdown, type Block } from '../../content/markdown-document.js';
import type { MarkdownRefs } from '../../content/markdown-refs.js';

export function gitMarkdown(document: { nodes: Block[] }, refs: MarkdownRefs): string {
  return documentToMarkdown(document, refs, { bullet: '*' });
}
