// GitBook's repository format (server/git-sync/format) on a generated space of 1,000 pages (groups, pages
// three levels deep, each page a heading, paragraphs with marks and links to other pages, a list, a hint,
// tabs, a code block with a title, a table and an image of one of 20 files), in this process, no database:
//   - write: content → repository files (`writeRepository`);
//   - read: those files → content of an empty space (`readRepository`, every page parsed, keys made);
//   - re-read: the same files with the content as `previous` (every page aligned with its old blocks:
//     what a sync that changed nothing costs);
//   - re-read after an edit of 10 pages in the repository.
// The other helper's bench records import and export end to end (Git transport and database included).
//
//   npx tsx bench/git-format.ts [--pages 1000] [--rounds 3]
//
// Results: bench/results/git-format.json (the median and the worst of the rounds), with the content
// converter's own time on the same pages beside them (what the format adds is the difference).
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { documentToMarkdown, markdownToDocument } from '../server/content/markdown-document.js';
import { setPageContent } from '../server/content/page-content.js';
import type { RevisionContent, StoredFile, StoredPage } from '../server/content/revision-content.js';
import { readRepository, writeRepository } from '../server/git-sync/format/index.js';

const { values: opts } = parseArgs({ options: { pages: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' } } });
const pageCount = Number(opts.pages);
const rounds = Number(opts.rounds);

const id = (prefix: string, n: number) => `${prefix}_bench${String(n).padStart(10, '0')}`;

function pageMarkdown(n: number): string {
  const link = (k: number) => `[page ${k}](${id('pag', (n * 7 + k) % pageCount)})`;
  return [
    `## Overview of part ${n}`,
    `Part ${n} explains how to **configure** the _service_, set the \`token\` and read ${link(1)} or ${link(2)}.`,
    '- install the CLI\n- sign in\n- publish',
    `{% hint style="info" %}\nRemember ${link(3)} before you start.\n{% endhint %}`,
    '{% tabs %}\n{% tab title="npm" %}\n```bash\nnpm install example\n```\n{% endtab %}\n\n{% tab title="yarn" %}\n```bash\nyarn add example\n```\n{% endtab %}\n{% endtabs %}',
    '{% code title="config.yaml" %}\n```yaml\ntimeout: 30s\nretries: 2\n```\n{% endcode %}',
    '| Option | Default |\n| --- | --- |\n| `timeout` | 30 s |\n| `retries` | 2 |',
    `<figure><img src="${id('fil', n % 20)}" alt="Diagram ${n}"><figcaption><p>Figure ${n}</p></figcaption></figure>`,
    `A closing paragraph of part ${n} with a [web link](https://example.com/${n}).`,
  ].join('\n\n');
}

/** 1,000 pages: 10 groups of 10 top pages, each with 9 subpages, one of which has subpages of its own. */
function generate(): { content: RevisionContent; bytes: Map<string, Uint8Array> } {
  const now = '2026-01-01T00:00:00.000Z';
  const pages: StoredPage[] = [];
  const page = (parent: string | null, position: string, type: 'document' | 'group'): StoredPage => {
    const n = pages.length;
    const p: StoredPage = { id: id('pag', n), parent, position, type, title: `Part ${n}`, slug: `part-${n}`, hidden: false, noIndex: false, noRobotsIndex: false, createdAt: now, updatedAt: now, ...(n % 5 === 0 && { description: `About part ${n}` }) };
    pages.push(p);
    return p;
  };
  const key = (i: number) => `a${String(i).padStart(4, '0')}`;
  let group = 0;
  while (pages.length < pageCount) {
    const g = page(null, key(group++), 'group');
    for (let t = 0; t < 10 && pages.length < pageCount; t++) {
      const top = page(g.id, key(t), 'document');
      for (let c = 0; c < 8 && pages.length < pageCount; c++) {
        const child = page(top.id, key(c), 'document');
        if (c === 0) for (let d = 0; d < 3 && pages.length < pageCount; d++) page(child.id, key(d), 'document');
      }
    }
  }
  const files: StoredFile[] = Array.from({ length: 20 }, (_, i) => ({ id: id('fil', i), name: `diagram-${i}.png`, contentType: 'image/png', size: 1024 }));
  for (const p of pages) if (p.type === 'document') setPageContent(p, { markdown: pageMarkdown(Number(p.id.slice(-10))) }, 'bench');
  return { content: { pages, files, variables: { product: 'Example' }, reusableContents: [] }, bytes: new Map(files.map((f) => [f.id, new Uint8Array(1024).fill(f.id.length)])) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = <T>(run: () => T): [T, number] => {
  const started = performance.now();
  const out = run();
  return [out, performance.now() - started];
};

const { content, bytes } = generate();
const runs = { write: [] as number[], read: [] as number[], reread: [] as number[], rereadAfterEdit: [] as number[], converterWrite: [] as number[], converterRead: [] as number[] };
let repositoryFiles = 0;
let repositoryBytes = 0;
for (let r = 0; r < rounds; r++) {
  const [written, writeMs] = time(() => writeRepository(content, bytes));
  const [imported, readMs] = time(() => readRepository(written.files));
  if (imported.content.pages.length !== content.pages.length || imported.warnings.length > 0) throw new Error(`read ${imported.content.pages.length} pages, warnings: ${imported.warnings.slice(0, 3).join('; ')}`);
  const [again, rereadMs] = time(() => readRepository(written.files, { previous: imported.content, previousPaths: imported.paths }));
  if (again.content.pages.some((p, i) => p !== imported.content.pages[i])) throw new Error('a re-read of unchanged files changed a page');
  const edited = new Map(written.files);
  let n = 0;
  for (const [path, data] of written.files) {
    if (!path.endsWith('.md') || path.endsWith('SUMMARY.md') || n >= 10) continue;
    edited.set(path, new TextEncoder().encode(`${new TextDecoder().decode(data)}\nAn added paragraph.\n`));
    n++;
  }
  const [afterEdit, editMs] = time(() => readRepository(edited, { previous: imported.content, previousPaths: imported.paths }));
  const changed = afterEdit.content.pages.filter((p, i) => p !== imported.content.pages[i]).length;
  if (changed !== 10) throw new Error(`an edit of 10 files changed ${changed} pages`);
  // The content's own Markdown conversions of the same pages, alone: what the format adds is the rest.
  const documents = content.pages.flatMap((p) => (p.document ? [p.document] : []));
  const [markdowns, converterWriteMs] = time(() => documents.map((d) => documentToMarkdown(d)));
  const [, converterReadMs] = time(() => markdowns.map((m) => markdownToDocument(m)));
  runs.converterWrite.push(converterWriteMs);
  runs.converterRead.push(converterReadMs);
  runs.write.push(writeMs);
  runs.read.push(readMs);
  runs.reread.push(rereadMs);
  runs.rereadAfterEdit.push(editMs);
  repositoryFiles = written.files.size;
  repositoryBytes = [...written.files.values()].reduce((sum, b) => sum + b.length, 0);
  console.log(`round ${r + 1}: write ${Math.round(writeMs)} ms, read ${Math.round(readMs)} ms, re-read ${Math.round(rereadMs)} ms, re-read after 10 edits ${Math.round(editMs)} ms`);
}

const summary = (xs: number[]) => ({ medianMs: Math.round(median(xs)), maxMs: Math.round(Math.max(...xs)), runsMs: xs.map(Math.round) });
const result = {
  date: new Date().toISOString(),
  node: process.version,
  pages: content.pages.length,
  files: content.files.length,
  rounds,
  loadAverageAtEnd: loadavg().map((l) => Math.round(l * 10) / 10),
  note: 'The machine is shared (2 cores); the load average says how busy it was. documentToMarkdownAlone / markdownToDocumentAlone are the content converter on the same pages: the format costs the difference.',
  repository: { files: repositoryFiles, bytes: repositoryBytes },
  writeRepository: summary(runs.write),
  readRepositoryIntoEmptySpace: summary(runs.read),
  readRepositoryUnchanged: summary(runs.reread),
  readRepositoryAfter10Edits: summary(runs.rereadAfterEdit),
  documentToMarkdownAlone: summary(runs.converterWrite),
  markdownToDocumentAlone: summary(runs.converterRead),
};
console.log(JSON.stringify(result, null, 2));
writeFileSync(new URL('./results/git-format.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
