// The page tree a repository describes: from SUMMARY.md when there is one (its lists and groups), else
// from the folders (a folder's README.md is its page, the other Markdown files and folders its subpages
// by name; a top-level folder without a README.md is a group). Paths are from the repository root.
import { formatLimits } from './limits.js';
import { basename, below, dirname, resolveLink } from './paths.js';
import { readSummary, type SummaryEntry } from './summary.js';
import { RepositoryFormatError } from './types.js';

export interface TreeNode {
  kind: 'document' | 'group' | 'link';
  /** A document's file; a group's folder when its pages share one; the page file a link page links to. */
  path?: string;
  /** A link page's URL (an entry linking outside the repository). */
  url?: string;
  /** The `#anchor` of the page file a link page links to. */
  anchor?: string;
  /** SUMMARY.md's line of a link page, for a warning when its page file is no page. */
  at?: string;
  /** The title the table of contents (or the folder's name) gives. */
  title?: string;
  /** The page's link title: the quoted title of its SUMMARY.md link. */
  linkTitle?: string;
  /** A group's slug, from the anchor after its SUMMARY.md heading. */
  slug?: string;
  children: TreeNode[];
}

/** Whether a path under the docs root (`rel`) is a page file: Markdown, outside hidden folders. */
export function isPageFile(rel: string): boolean {
  return /\.md$/i.test(rel) && !rel.split('/').some((s) => s.startsWith('.'));
}

/** The URLs a link page may have: web and mail addresses. */
export const webUrl = /^(?:https?:\/\/|mailto:)/i;
const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

/** The folder a page file stands in among its siblings: a README's folder's parent, another file's folder. */
function placeOf(path: string): string {
  return basename(path).toLowerCase() === 'readme.md' ? dirname(dirname(path)) : dirname(path);
}

/** The folder all of a group's pages stand in, when they share one directly under the docs root. */
function groupFolder(children: TreeNode[], docsRoot: string): string | undefined {
  const places = new Set(children.filter((c) => c.kind === 'document' && c.path !== undefined).map((c) => placeOf(c.path!)));
  if (places.size !== 1) return undefined;
  const [folder] = places;
  const rel = below(docsRoot, folder);
  return rel !== undefined && rel !== '' && !rel.includes('/') ? folder : undefined;
}

export function treeFromSummary(text: string, summaryPath: string, docsRoot: string, exists: (path: string) => boolean, warnings: string[]): { nodes: TreeNode[]; listed: Set<string> } {
  const folder = dirname(summaryPath);
  const listed = new Set<string>();
  const nodesOf = (entries: SummaryEntry[]): TreeNode[] =>
    entries.flatMap((entry) => {
      const children = nodesOf(entry.children);
      const at = `${summaryPath}:${entry.line}`;
      const skip = (why: string) => {
        warnings.push(`${at}: "${entry.title}" ${why}: skipped${children.length > 0 ? ', its sub-entries kept in its place' : ''}`);
        return children;
      };
      if (entry.target === undefined) return skip('has no link to a page file');
      // A web or mail link is a link page to that URL, as GitBook writes one; another scheme (`javascript:`) is no place to send readers.
      const linkTitle = entry.linkTitle !== undefined ? { linkTitle: entry.linkTitle } : {};
      if (webUrl.test(entry.target)) return [{ kind: 'link' as const, url: entry.target, title: entry.title, ...linkTitle, children }];
      if (hasScheme(entry.target)) return skip(`links to ${entry.target}, neither a page file nor a web address`);
      const link = resolveLink(folder, entry.target, docsRoot);
      if (!link) throw new RepositoryFormatError(summaryPath, `line ${entry.line}: the link ${entry.target} leaves the docs root`);
      if (link.path === summaryPath) return skip('links to the table of contents itself');
      if (!isPageFile(below(docsRoot, link.path)!)) return skip(`links to ${link.path}, not a Markdown file outside hidden folders`);
      if (!exists(link.path)) return skip(`links to ${link.path}, which is not in the repository`);
      // A file is one page: an entry at one of its anchors, or naming it again, is a link page to it.
      if (link.anchor !== undefined || listed.has(link.path)) return [{ kind: 'link' as const, path: link.path, ...(link.anchor !== undefined && { anchor: link.anchor }), title: entry.title, ...linkTitle, children, at }];
      listed.add(link.path);
      return [{ kind: 'document' as const, path: link.path, title: entry.title, ...linkTitle, children }];
    });
  const nodes: TreeNode[] = [];
  for (const section of readSummary(text, summaryPath)) {
    const children = nodesOf(section.entries);
    if (!section.group) nodes.push(...children);
    else {
      const path = groupFolder(children, docsRoot);
      nodes.push({ kind: 'group', title: section.group.title, children, ...(path !== undefined && { path }), ...(section.group.anchor !== undefined && { slug: section.group.anchor }) });
    }
  }
  // A link page to a file that is no page (linked only at its anchors) is skipped, its sub-entries kept in its place.
  const pruned = (list: TreeNode[]): TreeNode[] =>
    list.flatMap((node) => {
      const children = pruned(node.children);
      if (node.kind === 'link' && node.path !== undefined && !listed.has(node.path)) {
        warnings.push(`${node.at}: "${node.title}" links to ${node.path}${node.anchor !== undefined ? `#${node.anchor}` : ''}, a file no entry lists as a page: skipped${children.length > 0 ? ', its sub-entries kept in its place' : ''}`);
        return children;
      }
      return [{ ...node, children }];
    });
  return { nodes: pruned(nodes), listed };
}

export function treeFromFolders(pageFiles: string[], docsRoot: string, readmePath: string): TreeNode[] {
  // Folder (from the repository root) → its Markdown files and sub-folders.
  const folders = new Map<string, { files: string[]; dirs: Set<string> }>();
  const folderOf = (dir: string) => {
    let f = folders.get(dir);
    if (!f) folders.set(dir, (f = { files: [], dirs: new Set() }));
    return f;
  };
  for (const path of pageFiles) {
    if (path === readmePath) continue;
    folderOf(dirname(path)).files.push(path);
    for (let dir = dirname(path); dir !== docsRoot && dir !== ''; dir = dirname(dir)) folderOf(dirname(dir)).dirs.add(dir);
  }
  const nodesOf = (dir: string, depth: number): TreeNode[] => {
    if (depth > formatLimits.maxDepth) throw new RepositoryFormatError(dir, `folders nest deeper than ${formatLimits.maxDepth} levels`);
    const here = folderOf(dir);
    const entries = [...here.files.filter((f) => basename(f).toLowerCase() !== 'readme.md').map((f) => ({ name: basename(f), file: f })), ...[...here.dirs].map((d) => ({ name: basename(d), dir: d }))];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return entries.flatMap((entry): TreeNode[] => {
      if ('file' in entry) return [{ kind: 'document', path: entry.file, children: [] }];
      const readme = folderOf(entry.dir).files.find((f) => basename(f).toLowerCase() === 'readme.md');
      const children = nodesOf(entry.dir, depth + 1);
      if (readme) return [{ kind: 'document', path: readme, children }];
      if (depth === 0) return [{ kind: 'group', path: entry.dir, title: entry.name, children }];
      return children;
    });
  };
  return nodesOf(docsRoot, 0);
}

