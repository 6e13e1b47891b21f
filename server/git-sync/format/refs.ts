// References of a page's document as they are in its repository file: a page (or an anchor in one) as
// the relative path of its file (`../guide/setup.md#proxy`), a file as the relative path of its asset
// (`../.gitbook/assets/logo.png`; spaces and parentheses as they are, as GitBook writes them: paths.ts relativePath), a reusable content as the relative path of its include file
// (`../.gitbook/includes/support.md`); read back to the same references. What names nothing in the
// repository keeps the form the content's own Markdown gives it (an id, a URL): markdown-refs.ts.
import type { ContentRefShape } from '../../../contract/document.js';
import { defaultRefs, readId, refId, type MarkdownRefs } from '../../content/markdown-refs.js';
import type { RevisionContent, StoredFile, StoredPage } from '../../content/revision-content.js';
import { dirname, joinPath, relativePath, resolveLink } from './paths.js';

/** How a page written at `path` writes its references, `paths` giving every page's and file's path. */
export function writeRefs(path: string, paths: { pages: ReadonlyMap<string, string>; files: ReadonlyMap<string, string>; reusables?: ReadonlyMap<string, string> }, pages: ReadonlyMap<string, StoredPage>, files: ReadonlyMap<string, StoredFile>): MarkdownRefs {
  const folder = dirname(path);
  const target = (ref: ContentRefShape | undefined): string | undefined => {
    if (!ref || ('space' in ref && ref.space !== undefined)) return undefined;
    if (ref.kind === 'page' || (ref.kind === 'anchor' && ref.page !== undefined)) {
      const to = paths.pages.get(ref.kind === 'page' ? ref.page : ref.page!);
      if (to === undefined) return undefined;
      // A group has no file: a link to it is a link to its folder, `guides/`.
      const url = to.endsWith('/') ? `${relativePath(folder, to.slice(0, -1))}/` : relativePath(folder, to);
      return ref.kind === 'anchor' ? `${url}#${ref.anchor}` : url;
    }
    if (ref.kind === 'file') {
      const to = paths.files.get(ref.file);
      return to === undefined ? undefined : relativePath(folder, to);
    }
    if (ref.kind === 'reusable-content') {
      const to = paths.reusables?.get(ref.reusableContent);
      return to === undefined ? undefined : relativePath(folder, to);
    }
    return undefined;
  };
  return {
    write: (ref) => target(ref) ?? refId(ref),
    read: defaultRefs.read,
    label: (ref) => {
      if (ref?.kind === 'page' && ref.space === undefined) return pages.get(ref.page)?.title ?? refId(ref);
      if (ref?.kind === 'file' && ref.space === undefined) return files.get(ref.file)?.name ?? refId(ref);
      return refId(ref);
    },
  };
}

/**
 * How a page read from `path` reads link targets: relative paths to page files and assets under the docs
 * root `docsRoot` (by repository path), ids and `#anchors` as the content's Markdown reads them, anything
 * else as a URL.
 */
export function readRefs(path: string, docsRoot: string, pageAt: ReadonlyMap<string, string>, fileAt: ReadonlyMap<string, string>, reusableAt: ReadonlyMap<string, string> = new Map()): MarkdownRefs {
  const folder = dirname(path);
  return {
    write: defaultRefs.write,
    label: defaultRefs.label,
    read: (url) => {
      const id = readId(url);
      if (id) return id;
      const link = resolveLink(folder, url, docsRoot);
      if (link) {
        const page = pageAt.get(link.path) ?? pageAt.get(joinPath(link.path, 'README.md')) ?? pageAt.get(`${link.path}.md`);
        if (page !== undefined) return link.anchor !== undefined ? { kind: 'anchor', page, anchor: link.anchor } : { kind: 'page', page };
        const file = fileAt.get(link.path);
        if (file !== undefined) return { kind: 'file', file };
        const reusable = reusableAt.get(link.path);
        if (reusable !== undefined) return { kind: 'reusable-content', reusableContent: reusable };
      }
      return { kind: 'url', url };
    },
  };
}

/**
 * How an import would read the link targets of each file of `content` written at `paths` (id → path from
 * the repository root, a group's path its folder with a trailing `/`): readRefs over those paths.
 */
export function writtenReadRefs(content: RevisionContent, paths: ReadonlyMap<string, string>, docsRoot: string): (path: string) => MarkdownRefs {
  const at = (ids: { id: string }[]) => new Map(ids.flatMap(({ id }) => (paths.has(id) ? [[paths.get(id)!.replace(/\/$/, ''), id] as [string, string]] : [])));
  const pageAt = at(content.pages);
  const fileAt = at(content.files);
  const reusableAt = at(content.reusableContents);
  return (path) => readRefs(path, docsRoot, pageAt, fileAt, reusableAt);
}
