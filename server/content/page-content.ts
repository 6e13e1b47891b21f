// A page's content as stored and as shown. A page stores its Document, every block with its key
// (docs/content.md); the `document` format shows it as stored, and the `markdown` format is derived from
// it (markdown-document.ts), written once per page of a revision. Pages stored before Documents were keep
// their Markdown with a tree of block keys beside it (`StoredPage.markdown`, `keys`); they are read as
// before and become Documents at their next write.
import { LRUCache } from 'lru-cache';
import { onceSerialized } from '../http/json-text.js';
import { alignKeys, dedupeKeys, keysOf, overlayKeys, type KeepOld } from './block-keys.js';
import { isStoredDocument } from './content-documents.js';
import { assertStorableDocument } from './document-check.js';
import { upgradeDocument } from './document-upgrade.js';
import { documentToMarkdown, markdownToDocument, textOfNodes, type Block, type Document } from './markdown-document.js';
import { defaultRefs, type MarkdownRefs } from './markdown-refs.js';
import type { StoredPage } from './revision-content.js';
import { shared } from './shared-values.js';

type PageContent = Pick<StoredPage, 'document' | 'markdown' | 'keys' | 'documentHash'>;

/** A page read without its Document (revisions.store.ts `documents: false`) must be hydrated before its content is read. */
function notHydrated(page: PageContent): void {
  if (page.documentHash !== undefined) throw new Error(`A page's Document (${page.documentHash}) was read before it was loaded (content-documents.ts hydratePages)`);
}

/**
 * Parsed documents of legacy pages by Markdown text: a merge or a batch reads the same pages several
 * times, and parsing is the costly part. The documents are shared, so nothing changes them.
 */
const parsed = new LRUCache<string, Document>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (_doc, markdown) => Math.max(1, markdown.length * 4) });

function parseCached(markdown: string): Document {
  let doc = parsed.get(markdown);
  if (!doc) {
    doc = markdownToDocument(markdown);
    parsed.set(markdown, doc);
  }
  return doc;
}

/**
 * Stored Documents in GitBook's shapes, by the stored object. Those are shared and never change
 * (content-documents.ts), so the walk that checks their shapes is done once per Document, not once per read:
 * on a page of 500 blocks it was 40 % of a read's time.
 */
const inGitBookShapes = new WeakMap<Document, Document>();

/** The document of a stored page, every block with its key. */
export function pageDocument(page: PageContent): Document {
  // A Document stored before GitBook's shapes reads in them (the same object when it is already).
  if (page.document) {
    if (!isStoredDocument(page.document)) return upgradeDocument(page.document);
    let upgraded = inGitBookShapes.get(page.document);
    if (!upgraded) {
      upgraded = shared(upgradeDocument(page.document));
      inGitBookShapes.set(page.document, upgraded);
    }
    return upgraded;
  }
  notHydrated(page);
  const doc = parseCached(page.markdown ?? '');
  return { ...doc, nodes: dedupeKeys(overlayKeys(doc.nodes, page.keys)) };
}

/**
 * The document of a stored page as an answer shows it (pageDocument): a Document read from the database is
 * shared and never changes, so its JSON text is written once, not on every read (json-text.ts).
 */
export function answeredDocument(page: PageContent): Document {
  const document = pageDocument(page);
  return page.document && isStoredDocument(page.document) ? onceSerialized(document) : document;
}

/**
 * Markdown of pages of immutable revisions, by `cacheKey` (revision and page): a page read in the
 * `markdown` format again, or rendered, is not written again.
 */
const written = new LRUCache<string, string>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (md) => Math.max(1, md.length * 2) });

/** The GitBook-flavoured Markdown of a stored page; `refs` writes its references. */
export function pageMarkdown(page: PageContent, refs: MarkdownRefs = defaultRefs, cacheKey?: string): string {
  if (!page.document) {
    notHydrated(page);
    return page.markdown ?? '';
  }
  const cached = cacheKey === undefined ? undefined : written.get(cacheKey);
  if (cached !== undefined) return cached;
  const markdown = documentToMarkdown(page.document, refs);
  if (cacheKey !== undefined) written.set(cacheKey, markdown);
  return markdown;
}

/** Every block key of the page. */
export function blockKeysOf(page: PageContent): Set<string> {
  return keysOf(pageDocument(page).nodes);
}

/** Stores `document` as the page's content (legacy fields dropped). */
function store(page: StoredPage, document: Document): void {
  page.document = document;
  delete page.documentHash;
  delete page.markdown;
  delete page.keys;
}

/** A new page's content, or a page whose content is to be replaced: its current blocks, or none. */
function currentBlocks(page: StoredPage): Block[] {
  return page.document || page.markdown || page.documentHash ? pageDocument(page).nodes : [];
}

/**
 * An old block stands for a new block of a Markdown edit when writing the old one and reading it back
 * gives the new one: the edit left it alone, and it keeps what Markdown cannot say (its `align`, a
 * mention's target, …).
 */
function keepUnchanged(refs: MarkdownRefs): KeepOld {
  return (old, next) => {
    const again = markdownToDocument(documentToMarkdown({ nodes: [old] }, refs), refs).nodes;
    return again.length === 1 && JSON.stringify(again[0]) === JSON.stringify({ ...next, key: undefined });
  };
}

/**
 * How Markdown written to a page treats a leading `# Heading` (docs/content.md, "The title and a leading
 * H1"): the page's title is not a block, as in GitBook. A first heading-1 whose text is `title` becomes the
 * title and leaves the blocks; with `title` undefined (an untitled page), a first heading-1 becomes the title.
 */
export interface PageTitle {
  title: string | undefined;
}

/** The Markdown's Document without a leading heading-1 that is the page's title, and that title when it was taken. */
function withoutTitle(read: Document, rule: PageTitle | undefined): { read: Document; taken?: string } {
  const first = read.nodes[0];
  if (!rule || first?.type !== 'heading-1') return { read };
  const text = textOfNodes(first.nodes).trim();
  if (text === '' || (rule.title !== undefined && text !== rule.title.trim())) return { read };
  return { read: { ...read, nodes: read.nodes.slice(1) }, taken: text };
}

/**
 * Sets the page's content from a change's body, `at` naming it in errors. A document is stored as given
 * (400 when it cannot be, document-check.ts); its blocks without a key take the key of the block they
 * continue. Markdown is read with `refs`, its blocks aligned with the current ones (block-keys.ts), and
 * the document's `data` stays the page's; with `title` (a page's Markdown, not a reusable content's), a
 * leading `# Heading` that is the title is not kept as a block (PageTitle). Returns the title a page with
 * none took from its Markdown.
 */
export function setPageContent(
  page: StoredPage,
  body: { markdown: string } | { document: Document } | Record<string, never>,
  at: string,
  refs: MarkdownRefs = defaultRefs,
  title?: PageTitle,
): string | undefined {
  const previous = pageDocument(page);
  if ('document' in body) {
    assertStorableDocument(body.document, `${at}.document`);
    const given = body.document;
    const reserved = keysOf(given.nodes);
    const nodes = dedupeKeys(alignKeys(given.nodes, currentBlocks(page), reserved));
    store(page, { ...given, nodes });
    return undefined;
  }
  const markdown = 'markdown' in body ? body.markdown : '';
  const { read, taken } = withoutTitle(markdownToDocument(markdown, refs), title);
  const nodes = dedupeKeys(alignKeys(read.nodes, currentBlocks(page), new Set(), keepUnchanged(refs)));
  store(page, { object: 'document', data: page.document?.data ?? previous.data ?? read.data, nodes });
  return title?.title === undefined ? taken : undefined;
}

/** Sets the page's content to keyed blocks (a merge or a revert), the document's `data` kept. */
export function setPageDocument(page: StoredPage, blocks: Block[], data?: Document['data']): void {
  const previous = pageDocument(page);
  store(page, { object: 'document', ...((data ?? previous.data) !== undefined && { data: data ?? previous.data }), nodes: blocks });
}
