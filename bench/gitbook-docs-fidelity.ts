// How closely Git Sync's format writes back a repository GitBook wrote (issue 50 item 2), on a local clone
// of GitBook's public documentation (github.com/GitbookIO/public-docs), no network, no database:
//   - whole rewrite: the folder read (`readRepository`) and written again (`writeRepository`) with nothing
//     changed, every Markdown file in this server's own words (no branch text kept): how many files come
//     back identical, and how many of the source's lines each written file still holds;
//   - an edit: on the first `pages` pages with a bullet list, a paragraph linking an asset whose name has a
//     space and a new two-item list added after that list, the page written in the branch's own words
//     (`keepSourceText`, as an export does): on how many pages only the added lines change.
// Timings are not taken (see bench/git-format.ts for those).
//
//   npx tsx bench/gitbook-docs-fidelity.ts --git <path to the repository's git directory> [--folder documentation] [--pages 25]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { markdownToDocument } from '../server/content/markdown-document.js';
import { readRepository, writeRepository } from '../server/git-sync/format/index.js';
import { formatLimits } from '../server/git-sync/format/limits.js';
import { writtenReadRefs } from '../server/git-sync/format/refs.js';
import { keepSourceText } from '../server/git-sync/format/source-blocks.js';

const { values } = parseArgs({ options: { git: { type: 'string' }, folder: { type: 'string', default: 'documentation' }, pages: { type: 'string', default: '25' } } });
if (!values.git) throw new Error('--git <path> is required');
const git = (...args: string[]) => execFileSync('git', [`--git-dir=${values.git}`, ...args], { maxBuffer: 1 << 28 });
// The assets are not what is measured: a stand-in of 4 bytes each, and the limits raised for the rest.
Object.assign(formatLimits, { maxAssetBytes: 1e9, maxDocsBytes: 1e10, maxFiles: 1e6 });
const files = new Map<string, Uint8Array>();
for (const entry of git('ls-tree', '-r', '-z', 'HEAD', values.folder!).toString().split('\0').filter(Boolean)) {
  const [meta, path] = entry.split('\t');
  const rel = path.slice(values.folder!.length + 1);
  files.set(rel, /\.(md|ya?ml)$/.test(rel) ? git('cat-file', 'blob', meta.split(' ')[2]) : new Uint8Array([137, 80, 78, 71]));
}
const decoder = new TextDecoder();
const read = readRepository(files);
const written = writeRepository(read.content, read.fileBytes, { previousPaths: read.paths });
let markdownFiles = 0;
let identical = 0;
let sourceLines = 0;
let linesKept = 0;
for (const [path, bytes] of written.files) {
  const source = files.get(path);
  if (!path.endsWith('.md') || !source) continue;
  markdownFiles++;
  const [a, b] = [decoder.decode(source), decoder.decode(bytes)];
  if (a === b) identical++;
  const ours = new Set(b.split('\n'));
  sourceLines += a.split('\n').length;
  linesKept += a.split('\n').filter((l) => ours.has(l)).length;
}

/** Lines removed and added between two texts (their common start and end aside). */
function changed(before: string, after: string): { removed: number; added: number } {
  const [a, b] = [before.split('\n'), after.split('\n')];
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  return { removed: a.length - s - e, added: b.length - s - e };
}
const asset = read.content.files.find((f) => f.name.includes(' '));
let edited = 0;
let onlyAdded = 0;
const others: string[] = [];
for (const page of read.content.pages) {
  if (!asset || edited >= Number(values.pages) || page.type !== 'document' || !page.document) continue;
  const at = page.document.nodes.findIndex((b) => b.type === 'list-unordered');
  if (at < 0) continue;
  const added = markdownToDocument(`Edited [shot](${asset.id}).\n\n- new one\n- new two`).nodes;
  const nodes = [...page.document.nodes.slice(0, at + 1), ...added, ...page.document.nodes.slice(at + 1)];
  const content = { ...read.content, pages: read.content.pages.map((p) => (p.id === page.id ? { ...p, document: { ...page.document!, nodes } } : p)) };
  const out = writeRepository(content, read.fileBytes, { previousPaths: read.paths });
  const path = out.paths.get(page.id)!;
  const kept = keepSourceText(decoder.decode(files.get(path)!), decoder.decode(out.files.get(path)!), path, writtenReadRefs(content, out.paths, '')(path));
  const diff = changed(decoder.decode(files.get(path)!), kept);
  edited++;
  // The paragraph, a blank line, the two items and the blank line before the next block.
  if (diff.removed === 0 && diff.added === 5) onlyAdded++;
  else others.push(path);
}
console.log(JSON.stringify({ pages: read.content.pages.length, markdownFiles, identical, sourceLines, linesKept, edited, onlyAdded, others, warnings: read.warnings.length }, null, 2));
