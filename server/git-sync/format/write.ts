// Content → repository files: `.gitbook.yaml`, `SUMMARY.md`, one Markdown file per document page (front
// matter, `# Title`, the document as the content's own GitBook-flavoured Markdown with references as
// relative paths), the files' bytes under `.gitbook/assets/`, the reusable contents under
// `.gitbook/includes/` (front matter `title`, then the document), the variables in `.gitbook/vars.yaml`,
// the page tags file `.gitbook/tags.yaml` as it was read (tags.ts).
import { stringify } from 'yaml';
import { gitMarkdown } from './markdown.js';
import { pageDocument } from '../../content/page-content.js';
import { slugify } from '../../content/apply-changes.js';
import { childrenOf, type RevisionContent, type StoredPage } from '../../content/revision-content.js';
import { CONFIG_FILE, defaultStructure, writeConfig } from './config.js';
import { writeFrontMatter } from './front-matter.js';
import { danglingIncludes, danglingWarning } from './includes.js';
import { layoutOf, slugOfPath, type Layout } from './layout.js';
import { below, checkedPath, dirname, joinPath, relativeUrl } from './paths.js';
import { writeRefs } from './refs.js';
import { groupAnchor, writeSummary, type SummaryItem } from './summary.js';
import { TAGS_FILE } from './tags.js';
import { readTitle, writeTitle } from './title.js';
import { RepositoryFormatError, type RepositoryFiles, type RepositoryStructure, type WriteOptions, type WrittenRepository } from './types.js';

export const VARS_FILE = '.gitbook/vars.yaml';

const encoder = new TextEncoder();

function checkedStructure(structure: RepositoryStructure): RepositoryStructure {
  const at = 'options.structure';
  const out = { root: checkedPath(structure.root, `${at}.root`), readme: checkedPath(structure.readme, `${at}.readme`), summary: checkedPath(structure.summary, `${at}.summary`) };
  if (out.readme === '' || out.summary === '') throw new RepositoryFormatError(at, 'readme and summary must name files');
  return out;
}

/** The text of a page's file. */
function pageFile(page: StoredPage, path: string, docsRoot: string, structure: RepositoryStructure, layout: Layout, byId: { pages: Map<string, StoredPage>; files: Map<string, RevisionContent['files'][number]> }): string {
  const rel = below(docsRoot, path)!;
  const pathSlug = slugOfPath(rel, structure.readme) ?? slugify(page.title);
  const heading = writeTitle(page.title);
  const front = writeFrontMatter({
    // A title its `# Title` line cannot say exactly (spaces around it, a line break) is said here too.
    ...(readTitle(heading).title !== page.title && { title: page.title }),
    description: page.description,
    icon: page.icon,
    emoji: page.emoji,
    hidden: page.hidden,
    noIndex: page.noIndex,
    noRobotsIndex: page.noRobotsIndex,
    condition: page.condition,
    ...(page.slug !== pathSlug && { slug: page.slug }),
    frontMatter: page.frontMatter,
  });
  const markdown = gitMarkdown(pageDocument(page), writeRefs(path, layout, byId.pages, byId.files));
  return `${front}${heading}\n${markdown === '' ? '' : `\n${markdown}\n`}`;
}

/**
 * A link page's SUMMARY.md target, as GitBook writes one: its URL, or the file of the page it links to
 * (with `#anchor`); undefined when it links to no document page of the space (its target was deleted).
 */
function linkTarget(page: StoredPage, folder: string, layout: Layout): string | undefined {
  const target = page.target;
  if (target?.kind === 'url') return target.url;
  const file = target && layout.pages.get(target.page);
  if (!file || file.endsWith('/')) return undefined;
  const url = relativeUrl(folder, file);
  return target!.kind === 'anchor' ? `${url}#${target!.anchor}` : url;
}

/**
 * The table of contents: the readme first, then the top-level pages and groups in order. A link page to no
 * page of the space is left out, its subpages in its place, with a warning (as reading skips such an entry).
 */
function summaryOf(content: RevisionContent, layout: Layout, summaryPath: string, byId: Map<string, StoredPage>, warnings: string[]): string {
  const folder = dirname(summaryPath);
  const itemsOf = (page: StoredPage): SummaryItem[] => {
    if (page.type === 'group') throw new RepositoryFormatError(summaryPath, `group "${page.title}" (${page.id}) is inside page "${byId.get(page.parent!)?.title}" (${page.parent}): SUMMARY.md writes groups only at the top`);
    const children = childrenOf(content, page.id).flatMap(itemsOf);
    const target = page.type === 'link' ? linkTarget(page, folder, layout) : relativeUrl(folder, layout.pages.get(page.id)!);
    if (target !== undefined) return [{ title: page.title, target, ...(page.linkTitle !== undefined && { linkTitle: page.linkTitle }), children }];
    warnings.push(`${summaryPath}: link page "${page.title}" (${page.id}) links to ${page.target && page.target.kind !== 'url' ? `page ${page.target.page}, no document page of the space` : 'nothing'}: not written${children.length > 0 ? ', its subpages in its place' : ''}`);
    return children;
  };
  const sections: { group?: string; anchor?: string; items: SummaryItem[] }[] = [{ items: [] }];
  for (const page of childrenOf(content, null)) {
    // A group whose slug is not its title's says it in the anchor GitBook writes after its heading.
    if (page.type === 'group') {
      const anchor = groupAnchor(page.title, page.slug);
      sections.push({ group: page.title, ...(anchor !== undefined && { anchor }), items: childrenOf(content, page.id).flatMap(itemsOf) });
    }
    else {
      if (sections.at(-1)!.group !== undefined) sections.push({ items: [] });
      sections.at(-1)!.items.push(...itemsOf(page));
    }
  }
  return writeSummary(sections);
}

/** The repository files of a space's content; `fileBytes` holds every file's bytes by file id. */
export function writeRepository(content: RevisionContent, fileBytes: ReadonlyMap<string, Uint8Array>, options: WriteOptions = {}): WrittenRepository {
  const projectDirectory = options.projectDirectory ? checkedPath(options.projectDirectory, 'options.projectDirectory') : '';
  const structure = checkedStructure(options.structure ?? defaultStructure);
  const docsRoot = joinPath(projectDirectory, structure.root);
  const layout = layoutOf(content, docsRoot, structure, options.previousPaths);
  const byId = { pages: new Map(content.pages.map((p) => [p.id, p])), files: new Map(content.files.map((f) => [f.id, f])) };
  const files: RepositoryFiles = new Map();
  const paths = new Map<string, string>();
  const put = (path: string, text: string) => files.set(path, encoder.encode(text));

  // The space's redirects, each to its page's file now; those `options.redirects` (the branch's) name win.
  const warnings: string[] = [];
  const redirects: Record<string, string> = {};
  for (const [from, id] of Object.entries(content.redirects ?? {})) {
    const file = byId.pages.get(id)?.type === 'document' ? layout.pages.get(id) : undefined;
    if (file === undefined) warnings.push(`${joinPath(projectDirectory, CONFIG_FILE)}: the redirect of ${from} leads to page ${id}, which is no document page of the space: not written`);
    else redirects[from] = below(docsRoot, file)!;
  }
  for (const from of Object.keys(options.redirects ?? {})) delete redirects[from.replace(/^\/+|\/+$/g, '')];
  put(joinPath(projectDirectory, CONFIG_FILE), writeConfig(structure, { ...redirects, ...options.redirects }));
  const summaryPath = joinPath(docsRoot, structure.summary);
  put(summaryPath, summaryOf(content, layout, summaryPath, byId.pages, warnings));
  for (const page of content.pages) {
    if (page.type === 'link') continue;
    const path = layout.pages.get(page.id)!;
    paths.set(page.id, path);
    if (page.type === 'document') put(path, pageFile(page, path, docsRoot, structure, layout, byId));
  }
  for (const file of content.files) {
    const path = layout.files.get(file.id)!;
    const bytes = fileBytes.get(file.id);
    if (!bytes) throw new RepositoryFormatError(path, `the bytes of file "${file.name}" (${file.id}) were not given`);
    files.set(path, bytes);
    paths.set(file.id, path);
  }
  for (const reusable of content.reusableContents) {
    const path = layout.reusables.get(reusable.id)!;
    const markdown = gitMarkdown({ nodes: reusable.document?.nodes ?? [] }, writeRefs(path, layout, byId.pages, byId.files));
    put(path, `${writeFrontMatter({ title: reusable.title })}${markdown === '' ? '' : `${markdown}\n`}`);
    paths.set(reusable.id, path);
  }
  // An include of nothing the space holds is written with what it names; the export reports it.
  const knownReusables = new Set(content.reusableContents.map((r) => r.id));
  for (const page of content.pages) if (page.type === 'document') for (const name of danglingIncludes(pageDocument(page), knownReusables)) warnings.push(danglingWarning(paths.get(page.id)!, name));
  for (const reusable of content.reusableContents) for (const name of danglingIncludes(reusable.document, knownReusables)) warnings.push(danglingWarning(paths.get(reusable.id)!, name));
  if (content.tagsFile !== undefined) put(joinPath(docsRoot, TAGS_FILE), content.tagsFile);
  const names = Object.keys(content.variables).sort();
  if (names.length > 0) put(joinPath(docsRoot, VARS_FILE), stringify(Object.fromEntries(names.map((n) => [n, content.variables[n]]))));
  return { files, paths, warnings };
}
