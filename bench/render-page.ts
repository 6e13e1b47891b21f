// CPU per render of one published page, in process, by stage: the Markdown renderer of the published site
// (server/published/render-markdown.ts) on the 1 kB page bench/published-site.ts changes by merges, each
// render a new text (as after a merge: the page cache never answers). Shows where a first view's render goes.
//   npx tsx bench/render-page.ts [--renders 300]
// Run under `node --cpu-prof --import tsx bench/render-page.ts`, then `npx tsx bench/profile-summary.ts <file>`.
import { parseArgs } from 'node:util';
import { fromMarkdown } from 'mdast-util-from-markdown';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { documentToMarkdown, documentToMarkdownTree, markdownToDocument } from '../server/content/markdown-document.js';
import { renderMarkdownPage, renderMdast } from '../server/published/render-markdown.js';
import { pageMarkdown } from './support/page-markdown.js';

const { values: opts } = parseArgs({ options: { renders: { type: 'string', default: '300' } } });
const renders = Number(opts.renders);
const markdown = (i: number) => `Revised ${i}.\n\n${pageMarkdown(12)}`;

async function cpuPerCall(name: string, f: (i: number) => unknown): Promise<void> {
  for (let i = 0; i < 30; i++) await f(i); // JIT and the highlighter's grammar
  const start = process.cpuUsage();
  for (let i = 0; i < renders; i++) await f(i);
  const used = process.cpuUsage(start);
  console.log(`${name.padEnd(44)} ${((used.user + used.system) / 1000 / renders).toFixed(2)} ms CPU`);
}

const remark = unified().use(remarkParse).freeze();
const remarkWithGfm = unified().use(remarkParse).use(remarkGfm).freeze();
console.log(`${renders} renders of ${markdown(0).length} bytes of Markdown each`);
await cpuPerCall('micromark alone (mdast-util-from-markdown)', (i) => fromMarkdown(markdown(i)));
await cpuPerCall('remark-parse', (i) => remark.parse(markdown(i)));
await cpuPerCall('remark-parse + remark-gfm', (i) => remarkWithGfm.runSync(remarkWithGfm.parse(markdown(i))));
const documents = Array.from({ length: renders + 30 }, (_, i) => markdownToDocument(markdown(i)));
await cpuPerCall('documentToMarkdown (site, all anchors)', (i) => documentToMarkdown(documents[i], undefined, { site: true, allAnchors: true }));
await cpuPerCall('renderMarkdownPage (whole)', (i) => renderMarkdownPage(markdown(i)));
await cpuPerCall('documentToMarkdownTree (site, all anchors)', (i) => documentToMarkdownTree(documents[i], undefined, { site: true, allAnchors: true }));
// What a first view renders since issue 52: the Document's tree, not its Markdown parsed back.
await cpuPerCall('renderMdast of the tree (whole, as served)', (i) => renderMdast(documentToMarkdownTree(documents[i], undefined, { site: true, allAnchors: true })));
