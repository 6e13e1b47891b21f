// How references (`data.ref` of links, images, files, content references) are written in Markdown and read
// back. Without a page tree to resolve against (comments, descriptions), a reference is written as the id
// it names (`pag_…`, `fil_…`, `pag_…#anchor`, `#anchor`) and such an id reads back as the same reference;
// anything else is a URL. Pages of a revision write page and file references as relative paths instead
// (page-markdown.ts), as GitBook's Git Sync does.
import type { ContentRefShape } from '../../contract/document.js';

export type ContentRefValue = ContentRefShape | undefined;

export interface MarkdownRefs {
  /** The link target of a reference. */
  write(ref: ContentRefValue): string;
  /** The reference a link target stands for. */
  read(url: string): ContentRefShape;
  /** A readable label for a reference (a content reference's link text). */
  label(ref: ContentRefValue): string;
  /**
   * Set where a reference that leads nowhere is shown as text rather than as a link (the published site): the
   * text for a reference to write as text (its label), undefined for one to write as a link.
   */
  text?(ref: ContentRefValue): string | undefined;
}

const idKinds: Record<string, 'page' | 'file' | 'space' | 'user' | 'collection'> = { pag: 'page', fil: 'file', spc: 'space', usr: 'user', col: 'collection' };
const idPattern = /^(pag|fil|spc|usr|col)_[0-9A-Za-z]{6,40}$/;

/** The id a reference names, as written without a page tree. */
export function refId(ref: ContentRefValue): string {
  if (!ref) return '';
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return ref.page;
    case 'file':
      return ref.file;
    case 'anchor':
      return `${ref.page ?? ''}#${ref.anchor}`;
    case 'user':
      return ref.user;
    case 'collection':
      return ref.collection;
    case 'space':
      return ref.space;
    case 'reusable-content':
      return ref.space === undefined ? ref.reusableContent : otherSpaceReusablePath(ref.space, ref.reusableContent);
    case 'tag':
      return ref.tag;
    case 'openapi':
      return ref.spec;
  }
}

/**
 * How an include of another space's reusable content is written: the API's path of it under a `gitbook:`
 * scheme, so that no repository file can be mistaken for it and it reads back as the same reference.
 */
export function otherSpaceReusablePath(space: string, reusableContent: string): string {
  return `gitbook:spaces/${encodeURIComponent(space)}/reusable-contents/${encodeURIComponent(reusableContent)}`;
}

/** The reference an include path written by `otherSpaceReusablePath` stands for, or undefined. */
export function readOtherSpaceReusable(path: string): ContentRefShape | undefined {
  const match = /^gitbook:spaces\/([^/]+)\/reusable-contents\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  try {
    return { kind: 'reusable-content', space: decodeURIComponent(match[1]), reusableContent: decodeURIComponent(match[2]) };
  } catch {
    return undefined;
  }
}

/** The reference an id or `id#anchor` stands for, or undefined when it is not one. */
export function readId(url: string): ContentRefShape | undefined {
  const hash = url.indexOf('#');
  const path = hash < 0 ? url : url.slice(0, hash);
  if (hash >= 0 && (path === '' || /^pag_/.test(path))) {
    if (path !== '' && !idPattern.test(path)) return undefined;
    return { kind: 'anchor', anchor: url.slice(hash + 1), ...(path !== '' && { page: path }) };
  }
  if (!idPattern.test(path)) return undefined;
  const kind = idKinds[path.slice(0, 3)];
  switch (kind) {
    case 'page':
      return { kind, page: path };
    case 'file':
      return { kind, file: path };
    case 'space':
      return { kind, space: path };
    case 'user':
      return { kind, user: path };
    case 'collection':
      return { kind, collection: path };
  }
}

export const defaultRefs: MarkdownRefs = {
  write: refId,
  read: (url) => readId(url) ?? { kind: 'url', url },
  label: refId,
};
