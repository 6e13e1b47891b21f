// Repository files → content. The tree comes from SUMMARY.md (or the folders, tree.ts); each page file
// gives its page: front matter (front-matter.ts), `# Title` (title.ts), and the rest read as the content's
// own GitBook-flavoured Markdown (page-content.ts setPageContent, so a page that was in the space keeps
// its block keys and the stored form of the blocks the file did not change), links and images to other
// page files and assets read back as references, `{% include %}` of a file under `.gitbook/includes/` as
// a reference to the reusable content that file is (front matter `title`, then its document). Pages and files found where the space's own were keep
// their ids, order keys and dates.
import { parse } from 'yaml';
import { guessContentType, slugify } from '../../content/apply-changes.js';
import { stableJson } from '../../content/block-keys.js';
import { assertStorableDocument } from '../../content/document-check.js';
import { gitMarkdown } from './markdown.js';
import { setPageContent } from '../../content/page-content.js';
import { emptyContent, type RevisionContent, type PageLinkTarget, type StoredFile, type StoredPage, type StoredReusableContent } from '../../content/revision-content.js';
import { ApiError } from '../../errors.js';
import { newId } from '../../ids.js';
import { imageSize } from 'image-size';
import { readConfig, textOf } from './config.js';
import { readFrontMatter } from './front-matter.js';
import { ASSETS_DIR, INCLUDES_DIR, layoutOf, slugOfName, slugOfPath } from './layout.js';
import { danglingIncludes, danglingWarning } from './includes.js';
import { basename, below, checkedPath, dirname, joinPath, normalizePath } from './paths.js';
import { siblingKeys } from './positions.js';
import { assetTooLarge, formatLimits } from './limits.js';
import { readRefs, writeRefs } from './refs.js';
import { readTags, TAGS_FILE, undefinedTagWarnings } from './tags.js';
import { readTitle } from './title.js';
import { isPageFile, treeFromFolders, treeFromSummary, type TreeNode } from './tree.js';
import { RepositoryFormatError, type ImportedContent, type ReadOptions, type RepositoryFiles } from './types.js';
import { VARS_FILE } from './write.js';

/** The files under the docs root, their count and bytes checked against the limits. */
function scopedFiles(files: RepositoryFiles, docsRoot: string, { maxFiles, maxTotalBytes }: { maxFiles: number; maxTotalBytes: number } = formatLimits, assets?: ReadOptions['assets']): string[] {
  const scoped: string[] = [];
  let bytes = 0;
  for (const [path, content] of files) {
    if (normalizePath(path) !== path || path === '') throw new RepositoryFormatError(path, 'is not a plain relative path inside the repository');
    if (below(docsRoot, path) === undefined) continue;
    scoped.push(path);
    bytes += assets?.get(path)?.size ?? content.length;
    if (scoped.length > maxFiles) throw new RepositoryFormatError(path, `the docs hold more than ${maxFiles} files, the most an import reads`);
    if (bytes > maxTotalBytes) throw new RepositoryFormatError(path, `the docs hold more than ${maxTotalBytes} bytes, the most an import reads`);
  }
  return scoped.sort();
}

/** `.gitbook/vars.yaml`: the space's variables (names → text). */
function readVariables(files: RepositoryFiles, path: string): Record<string, string> {
  const bytes = files.get(path);
  if (!bytes) return {};
  if (bytes.length > formatLimits.maxConfigBytes) throw new RepositoryFormatError(path, `is larger than ${formatLimits.maxConfigBytes} bytes`);
  let doc: unknown;
  try {
    doc = parse(textOf(bytes, path), { maxAliasCount: 10 });
  } catch (error) {
    if (error instanceof RepositoryFormatError) throw error;
    throw new RepositoryFormatError(path, `is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new RepositoryFormatError(path, 'must map variable names to values');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(doc)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new RepositoryFormatError(path, `variable ${name} must be text`);
    out[name] = String(value);
  }
  return out;
}

function dimensionsOf(bytes: Uint8Array): StoredFile['dimensions'] {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where each page and file of the previous content was: the paths given, else where an export would write it.
 * Previous content an export cannot lay out (a group below the top, pages nested too deep: layoutOf's
 * RepositoryFormatError) is matched by the paths given only, and the import says so in its warnings; any
 * other error is a fault, and fails the import.
 */
function previousLocations(previous: RevisionContent | undefined, given: ReadonlyMap<string, string> | undefined, docsRoot: string, structure: Parameters<typeof layoutOf>[2], warnings: string[]): Map<string, string> {
  const at = new Map<string, string>();
  if (!previous) return at;
  let derived: Map<string, string> = new Map();
  try {
    const layout = layoutOf(previous, docsRoot, structure, given);
    derived = new Map([...layout.pages, ...layout.files, ...layout.reusables]);
  } catch (error) {
    if (!(error instanceof RepositoryFormatError)) throw error;
    warnings.push(`the space's content cannot be laid out as files (${error.message}): its pages and files are matched by the paths of the last sync only`);
  }
  const ids = [...previous.pages.map((p) => p.id), ...previous.files.map((f) => f.id), ...previous.reusableContents.map((r) => r.id)];
  for (const id of ids) {
    const path = given?.get(id) ?? derived.get(id);
    if (path !== undefined && !at.has(path)) at.set(path, id);
  }
  return at;
}

/** The fields of a stored page this format does not read or write (none today; any added later), kept. */
const formatFields = new Set(['id', 'parent', 'position', 'type', 'title', 'slug', 'target', 'document', 'markdown', 'keys', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'condition', 'frontMatter', 'linkTitle', 'createdAt', 'updatedAt']);
function carried(old: StoredPage | undefined): Partial<StoredPage> {
  return old ? Object.fromEntries(Object.entries(old).filter(([k]) => !formatFields.has(k))) : {};
}

const same = (a: object, b: object) => stableJson({ ...a, createdAt: undefined, updatedAt: undefined }) === stableJson({ ...b, createdAt: undefined, updatedAt: undefined });

/** The content of a repository's files in GitBook's format. */
export function readRepository(files: RepositoryFiles, options: ReadOptions = {}): ImportedContent {
  const now = (options.now ?? new Date()).toISOString();
  const projectDirectory = options.projectDirectory ? checkedPath(options.projectDirectory, 'projectDirectory') : '';
  const config = readConfig(files, projectDirectory);
  const { docsRoot, structure } = config;
  const scoped = scopedFiles(files, docsRoot, options.limits, options.assets);
  const maxAssetBytes = options.limits?.maxAssetBytes ?? formatLimits.maxAssetBytes;
  const warnings: string[] = [];
  const summaryPath = joinPath(docsRoot, structure.summary);
  const readmePath = joinPath(docsRoot, structure.readme);
  const assetsDir = joinPath(docsRoot, ASSETS_DIR);
  const pageFiles = scoped.filter((p) => p !== summaryPath && isPageFile(below(docsRoot, p)!));

  // The tree.
  let nodes: TreeNode[];
  const summaryBytes = files.get(summaryPath);
  if (summaryBytes) {
    if (summaryBytes.length > formatLimits.maxMarkdownBytes) throw new RepositoryFormatError(summaryPath, `is larger than ${formatLimits.maxMarkdownBytes} bytes`);
    const summary = treeFromSummary(textOf(summaryBytes, summaryPath), summaryPath, docsRoot, (p) => files.has(p) && below(docsRoot, p) !== undefined, warnings);
    nodes = summary.nodes;
    if (files.has(readmePath) && !summary.listed.has(readmePath)) {
      nodes.unshift({ kind: 'document', path: readmePath, children: [] });
      summary.listed.add(readmePath);
    }
    for (const path of pageFiles) if (!summary.listed.has(path)) warnings.push(`${path}: not in ${summaryPath}: not read as a page`);
  } else {
    nodes = treeFromFolders(pageFiles, docsRoot, readmePath);
    if (files.has(readmePath)) nodes.unshift({ kind: 'document', path: readmePath, children: [] });
  }

  const previous = options.previous;
  const idAt = previousLocations(previous, options.previousPaths, docsRoot, structure, warnings);
  const previousPages = new Map((previous?.pages ?? []).map((p) => [p.id, p]));
  const previousFiles = new Map((previous?.files ?? []).map((f) => [f.id, f]));
  const used = new Set<string>();
  const paths = new Map<string, string>();

  // Files: the assets directly under `.gitbook/assets/`.
  const fileAt = new Map<string, string>();
  const readFiles: StoredFile[] = [];
  const fileBytes = new Map<string, Uint8Array>();
  for (const path of scoped) {
    if (below(assetsDir, path) === undefined) continue;
    if (dirname(path) !== assetsDir) {
      warnings.push(`${path}: in a folder under ${assetsDir}: not read as a file`);
      continue;
    }
    const bytes = files.get(path)!;
    const streamed = options.assets?.get(path);
    const size = streamed?.size ?? bytes.length;
    if (size > maxAssetBytes) throw new RepositoryFormatError(path, assetTooLarge(maxAssetBytes));
    const previousId = idAt.get(path);
    const old = previousId !== undefined && !used.has(previousId) ? previousFiles.get(previousId) : undefined;
    const name = basename(path);
    const dimensions = streamed ? streamed.dimensions : dimensionsOf(bytes);
    const file: StoredFile = { id: old?.id ?? newId('fil'), name, contentType: old?.name === name ? old.contentType : guessContentType(name), size, ...(dimensions && { dimensions }) };
    const kept = old && same({ ...old, downloadURL: undefined }, file) ? old : file;
    used.add(kept.id);
    readFiles.push(kept);
    fileBytes.set(kept.id, bytes);
    fileAt.set(path, kept.id);
    paths.set(kept.id, path);
  }
  // Files that were in the space first, in the space's order; new ones after, by path.
  const order = new Map((previous?.files ?? []).map((f, i) => [f.id, i]));
  readFiles.sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));

  // Reusable contents: the Markdown files directly under `.gitbook/includes/`; ids first (pages include them).
  const includesDir = joinPath(docsRoot, INCLUDES_DIR);
  const previousReusables = new Map((previous?.reusableContents ?? []).map((r) => [r.id, r]));
  const reusableReads: { reusable: StoredReusableContent; old?: StoredReusableContent; body: string; path: string }[] = [];
  const reusableAt = new Map<string, string>();
  for (const path of scoped) {
    if (below(includesDir, path) === undefined) continue;
    if (dirname(path) !== includesDir || !/\.md$/i.test(path)) {
      warnings.push(`${path}: not a Markdown file directly under ${includesDir}: not read as a reusable content`);
      continue;
    }
    const bytes = files.get(path)!;
    if (bytes.length > formatLimits.maxMarkdownBytes) throw new RepositoryFormatError(path, `is larger than ${formatLimits.maxMarkdownBytes} bytes, the most an include file may have`);
    const text = textOf(bytes, path);
    if (text.includes('\u0000')) throw new RepositoryFormatError(path, 'holds a NUL character, which a reusable content cannot store');
    const { data, body } = readFrontMatter(text, path);
    const previousId = idAt.get(path);
    const old = previousId !== undefined && !used.has(previousId) ? previousReusables.get(previousId) : undefined;
    const id = old?.id ?? newId('rsc');
    used.add(id);
    reusableReads.push({ reusable: { id, title: data.title ?? basename(path).replace(/\.md$/i, '') }, old, body, path });
    reusableAt.set(path, id);
    paths.set(id, path);
  }

  // Pages: ids, fields and front matter first (every page's path must be known to read links).
  interface Read {
    page: StoredPage;
    old?: StoredPage;
    body?: string;
    path?: string;
  }
  const reads: Read[] = [];
  const pageAt = new Map<string, string>();
  const siblings = new Map<string | null, Read[]>();
  const linksToPages: { page: StoredPage; path: string; anchor?: string }[] = [];
  const visit = (node: TreeNode, parent: string | null, depth: number) => {
    if (depth > formatLimits.maxDepth) throw new RepositoryFormatError(node.path ?? summaryPath, `pages nest deeper than ${formatLimits.maxDepth} levels`);
    const key = node.kind === 'link' || node.path === undefined ? undefined : node.kind === 'group' ? `${node.path}/` : node.path;
    let previousId = key === undefined ? undefined : idAt.get(key);
    if (node.kind === 'group' && previousId === undefined) previousId = previous?.pages.find((p) => p.type === 'group' && p.parent === null && p.title === node.title && !used.has(p.id))?.id;
    // A link page has no file: it is the space's link page of its title under the same parent, else of its title.
    if (node.kind === 'link') {
      const links = previous?.pages.filter((p) => p.type === 'link' && p.title === node.title && !used.has(p.id)) ?? [];
      previousId = (links.find((p) => p.parent === parent) ?? links[0])?.id;
    }
    const candidate = previousId !== undefined && !used.has(previousId) ? previousPages.get(previousId) : undefined;
    const old = candidate?.type === node.kind ? candidate : undefined;
    const id = old?.id ?? newId('pag');
    used.add(id);
    let read: Read;
    if (node.kind === 'link') {
      const title = node.title ?? '';
      // The target is a URL now, or a page once every page has its id (below).
      const target: PageLinkTarget = { kind: 'url', url: node.url ?? '' };
      read = { page: { ...carried(old), id, parent, position: '', type: 'link', title, ...(node.linkTitle !== undefined && { linkTitle: node.linkTitle }), slug: old?.slug ?? slugify(title), target, hidden: false, noIndex: false, noRobotsIndex: false, createdAt: old?.createdAt ?? now, updatedAt: now }, old };
      if (node.url === undefined) linksToPages.push({ page: read.page, path: node.path!, ...(node.anchor !== undefined && { anchor: node.anchor }) });
    } else if (node.kind === 'group') {
      const title = node.title ?? '';
      // GitBook's anchor after the group's heading says its slug; else its folder's name.
      const slug = node.slug ?? (node.path !== undefined ? slugOfName(basename(node.path)) : (old?.slug ?? slugify(title)));
      read = { page: { ...carried(old), id, parent, position: '', type: 'group', title, slug, hidden: false, noIndex: false, noRobotsIndex: false, createdAt: old?.createdAt ?? now, updatedAt: now }, old };
      const folder = node.path ?? joinPath(docsRoot, slug);
      paths.set(id, `${folder}/`);
      // A link to a group is a link to its folder (`guides/`).
      if (!pageAt.has(folder)) pageAt.set(folder, id);
    } else {
      const path = node.path!;
      const bytes = files.get(path)!;
      if (bytes.length > formatLimits.maxMarkdownBytes) throw new RepositoryFormatError(path, `is larger than ${formatLimits.maxMarkdownBytes} bytes, the most a page file may have`);
      const text = textOf(bytes, path);
      if (text.includes('\u0000')) throw new RepositoryFormatError(path, 'holds a NUL character, which a page cannot store');
      const { data, body } = readFrontMatter(text, path);
      const { title: heading, rest } = readTitle(body);
      const rel = below(docsRoot, path)!;
      const fileTitle = basename(path).toLowerCase() === 'readme.md' && dirname(path) !== docsRoot ? basename(dirname(path)) : basename(path).replace(/\.md$/i, '');
      // SUMMARY.md's `[Page main title](page.md)` is the page's title, as GitBook documents it (its `# Title`
      // line says it too when GitBook wrote the file); front matter `title` (a title that line cannot say) first.
      const title = data.title ?? (node.title || (heading ?? fileTitle));
      const page: StoredPage = {
        ...carried(old),
        id,
        parent,
        position: '',
        type: 'document',
        title,
        ...(node.linkTitle !== undefined && { linkTitle: node.linkTitle }),
        slug: data.slug ?? slugOfPath(rel, below(docsRoot, readmePath)!) ?? slugify(title),
        ...(data.description !== undefined && { description: data.description }),
        ...(data.emoji !== undefined && { emoji: data.emoji }),
        ...(data.icon !== undefined && { icon: data.icon }),
        hidden: data.hidden ?? false,
        noIndex: data.noIndex ?? false,
        noRobotsIndex: data.noRobotsIndex ?? false,
        ...(data.condition !== undefined && { condition: data.condition }),
        ...(data.frontMatter !== undefined && { frontMatter: data.frontMatter }),
        createdAt: old?.createdAt ?? now,
        updatedAt: now,
      };
      read = { page, old, body: rest, path };
      pageAt.set(path, id);
      paths.set(id, path);
    }
    reads.push(read);
    const list = siblings.get(parent) ?? [];
    list.push(read);
    siblings.set(parent, list);
    for (const child of node.children) visit(child, id, depth + 1);
  };
  for (const node of nodes) visit(node, null, 1);
  for (const { page, path, anchor } of linksToPages) {
    const target = pageAt.get(path)!;
    page.target = anchor === undefined ? { kind: 'page', page: target } : { kind: 'anchor', page: target, anchor };
  }

  // Order keys: kept where the order allows.
  for (const [parent, list] of siblings) {
    const keys = siblingKeys(list.map((r) => (r.old && r.old.parent === parent ? r.old.position : undefined)));
    list.forEach((r, i) => (r.page.position = keys[i]));
  }

  // Documents, now that links can resolve; a page that was in the space is aligned with its blocks.
  const pages: StoredPage[] = [];
  const newPages = new Map(reads.map((r) => [r.page.id, r.page]));
  const newFiles = new Map(readFiles.map((f) => [f.id, f]));
  for (const r of reads) {
    if (r.body !== undefined) {
      const page = r.page;
      if (r.old?.document) {
        // A file that says what the page said (as an export writes it) is the page's document unchanged:
        // no parse, no alignment (what most pages of a sync are).
        const refs = writeRefs(r.path!, { pages: paths, files: paths, reusables: paths }, newPages, newFiles);
        if (gitMarkdown(r.old.document, refs) === r.body.replace(/\s+$/, '')) {
          page.document = r.old.document;
          pages.push(same(r.old, page) ? r.old : page);
          continue;
        }
        page.document = r.old.document;
      } else if (r.old?.markdown !== undefined) Object.assign(page, { markdown: r.old.markdown, keys: r.old.keys });
      try {
        setPageContent(page, { markdown: r.body }, r.path!, readRefs(r.path!, docsRoot, pageAt, fileAt, reusableAt));
        assertStorableDocument(page.document!, r.path!);
      } catch (error) {
        if (error instanceof RangeError) throw new RepositoryFormatError(r.path!, 'nests its blocks too deep to read');
        if (error instanceof ApiError) throw new RepositoryFormatError(r.path!, error.message);
        throw error;
      }
    }
    pages.push(r.old && same(r.old, r.page) ? r.old : r.page);
  }

  // The reusable contents' documents, now that links and includes can resolve; one unchanged is kept as it was.
  const reusableContents: StoredReusableContent[] = [];
  for (const r of reusableReads) {
    const refs = writeRefs(r.path, { pages: paths, files: paths, reusables: paths }, newPages, newFiles);
    if (r.old?.document && gitMarkdown(r.old.document, refs) === r.body.replace(/\s+$/, '')) {
      const kept = { ...r.reusable, document: r.old.document };
      reusableContents.push(same(r.old, kept) ? r.old : kept);
      continue;
    }
    // Read as a page's document is (block keys aligned with the previous blocks), through a page of its own.
    const holder = { document: r.old?.document } as StoredPage;
    try {
      setPageContent(holder, { markdown: r.body }, r.path, readRefs(r.path, docsRoot, pageAt, fileAt, reusableAt));
      assertStorableDocument(holder.document!, r.path);
    } catch (error) {
      if (error instanceof RangeError) throw new RepositoryFormatError(r.path, 'nests its blocks too deep to read');
      if (error instanceof ApiError) throw new RepositoryFormatError(r.path, error.message);
      throw error;
    }
    const read = { ...r.reusable, document: holder.document! };
    reusableContents.push(r.old && same(r.old, read) ? r.old : read);
  }
  const reusableOrder = new Map((previous?.reusableContents ?? []).map((r, i) => [r.id, i]));
  reusableContents.sort((a, b) => (reusableOrder.get(a.id) ?? Infinity) - (reusableOrder.get(b.id) ?? Infinity));

  // Includes naming no reusable content of the repository stay references to what they name, with a warning.
  const knownReusables = new Set(reusableContents.map((r) => r.id));
  for (const page of pages) for (const name of danglingIncludes(page.document, knownReusables)) warnings.push(danglingWarning(paths.get(page.id)!, name));
  for (const reusable of reusableContents) for (const name of danglingIncludes(reusable.document, knownReusables)) warnings.push(danglingWarning(paths.get(reusable.id)!, name));

  // The page tags file, kept whole; the tags the pages name are checked against it.
  const tagsPath = joinPath(docsRoot, TAGS_FILE);
  const tagsBytes = files.get(tagsPath);
  const tags = tagsBytes && readTags(tagsBytes, tagsPath);
  if (tags) for (const page of pages) warnings.push(...undefinedTagWarnings(paths.get(page.id)!, page.frontMatter, tags.tags, tagsPath));

  // `.gitbook.yaml`'s redirects: each old path of the space → the page its file is (so it follows the page when it moves).
  const redirects: Record<string, string> = {};
  for (const [from, to] of Object.entries(config.redirects)) {
    const id = pageAt.get(joinPath(docsRoot, to));
    const key = from.replace(/^\/+|\/+$/g, '');
    if (id === undefined || !newPages.has(id) || newPages.get(id)!.type !== 'document') warnings.push(`${config.configPath}: the redirect of ${from} leads to ${to}, which is no page: not kept`);
    else if (key !== '') redirects[key] = id;
  }

  const content: RevisionContent = {
    ...emptyContent(),
    pages,
    files: readFiles,
    variables: readVariables(files, joinPath(docsRoot, VARS_FILE)),
    reusableContents,
    ...(tags && { tagsFile: tags.text }),
    ...(Object.keys(redirects).length > 0 && { redirects }),
  };
  return { content, fileBytes, paths, redirects: config.redirects, structure, warnings };
}
