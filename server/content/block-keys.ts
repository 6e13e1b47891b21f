// Stable keys of the blocks of a page. A page stores its Markdown and, beside it, the keys of its blocks
// as a tree shaped like the document's blocks (`StoredPage.keys`). Markdown has no room for them, so
// each write aligns the new blocks with the previous ones: unchanged blocks keep their keys (an LCS over
// the blocks' content, node-diff3's diffIndices), and in each changed stretch a block takes the key of the
// previous block of the same type at its place, so a block edited in place keeps its key. New blocks
// get new random keys. A page written before keys existed (or by code that sets only its Markdown) has
// keys derived from its blocks' content, so they are the same at every read and survive edits of other
// blocks. Comments (`node`), `revert_page.block` and the block-level merge (merge.ts) name blocks by key.
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { diffIndices } from 'node-diff3';
import { documentToMarkdown, markdownToDocument, type Block, type Document } from './markdown-document.js';
import type { StoredPage } from './revision-content.js';

/**
 * Parsed documents by Markdown text: a merge or a batch reads the same pages several times, and parsing
 * (micromark with GFM) is the costly part. The documents are shared, so nothing here changes them: every
 * function below copies the blocks it changes.
 */
const parsed = new LRUCache<string, Document>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (_doc, markdown) => Math.max(1, markdown.length * 4) });

function parse(markdown: string): Document {
  let doc = parsed.get(markdown);
  if (!doc) {
    doc = markdownToDocument(markdown);
    parsed.set(markdown, doc);
  }
  return doc;
}

/** One entry per child block: its key, with the keys of its own child blocks when it has some. */
export type KeyTree = (string | [string, KeyTree])[];

const childBlocks = (b: Block): Block[] => (b.nodes ?? []).filter((n): n is Block => n.object === 'block');

/**
 * Signatures already computed, by block object. A block is never changed once made (see `parsed`), and a
 * copy that differs only by its keys (`withKey`) shares its original's signature: a page's blocks are
 * then serialized once per Markdown text, not at each comparison of a merge or an alignment.
 */
const signatures = new WeakMap<Block, string>();

/** The block's content without keys, as one comparable string. */
export function blockSignature(b: Block): string {
  let signature = signatures.get(b);
  if (signature === undefined) {
    signature = JSON.stringify(b, (k, v) => (k === 'key' ? undefined : v));
    signatures.set(b, signature);
  }
  return signature;
}

function newKey(): string {
  return randomBytes(6).toString('base64url');
}

/**
 * A copy of the block with `key` (none: the block's own) whose block children are `children`, the same
 * blocks as its own but for their keys: the copy has the same signature.
 */
function withKey(b: Block, key: string | undefined, children: Block[]): Block {
  let i = 0;
  const copy: Block = { ...b, ...(key !== undefined && { key }), nodes: b.nodes?.map((n) => (n.object === 'block' ? children[i++] : n)) };
  const signature = signatures.get(b);
  if (signature !== undefined) signatures.set(copy, signature);
  return copy;
}

/** Keys derived from content (for blocks with no stored key): the same for the same blocks at every read. */
function derivedKeys(blocks: Block[], prefix: string): Block[] {
  const seen = new Map<string, number>();
  return blocks.map((b, i) => {
    const digest = prefix === '' ? createHash('sha1').update(blockSignature(b)).digest('base64url').slice(0, 10) : `${prefix}.${i}`;
    const n = seen.get(digest) ?? 0;
    seen.set(digest, n + 1);
    const key = n === 0 ? digest : `${digest}~${n}`;
    return withKey(b, key, derivedKeys(childBlocks(b), key));
  });
}

/** The blocks with the keys of `tree`; a level whose shape does not match gets derived keys. */
function overlay(blocks: Block[], tree: KeyTree | undefined, prefix: string): Block[] {
  if (!tree || tree.length !== blocks.length) return derivedKeys(blocks, prefix);
  return blocks.map((b, i) => {
    const entry = tree[i];
    const key = typeof entry === 'string' ? entry : entry[0];
    return withKey(b, key, overlay(childBlocks(b), typeof entry === 'string' ? undefined : entry[1], key));
  });
}

/** Makes every key of the document unique (a duplicate gets a new key). */
function dedupe(blocks: Block[], used: Set<string>): Block[] {
  return blocks.map((b) => {
    const key = b.key && !used.has(b.key) ? b.key : newKey();
    used.add(key);
    return withKey(b, key, dedupe(childBlocks(b), used));
  });
}

/** The key tree of a keyed document, to store beside its Markdown. */
export function keyTreeOf(blocks: Block[]): KeyTree {
  return blocks.map((b) => {
    const children = childBlocks(b);
    return children.length > 0 ? [b.key ?? '', keyTreeOf(children)] : (b.key ?? '');
  });
}

/** The document of a stored page, every block with its key. */
export function pageDocument(page: Pick<StoredPage, 'markdown' | 'keys'>): Document {
  const doc = parse(page.markdown);
  return { ...doc, nodes: dedupe(overlay(doc.nodes, page.keys, ''), new Set()) };
}

/** Every block key of the page. */
export function blockKeysOf(page: Pick<StoredPage, 'markdown' | 'keys'>): Set<string> {
  const keys = new Set<string>();
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.key) keys.add(b.key);
      walk(childBlocks(b));
    }
  };
  walk(pageDocument(page).nodes);
  return keys;
}

/**
 * `next` with keys taken from `previous` (see the top of the file); blocks of `next` that already have a
 * key keep it. The keys may repeat (a client may send one twice): dedupe makes them unique.
 */
function align(next: Block[], previous: Block[], fill = true): Block[] {
  const out: Block[] = next.map((b) => ({ ...b }));
  const pair = (j: number, old: Block | undefined) => {
    // From `next` itself (not the placeholder copy in `out`), so the keyed copy keeps its signature.
    const b = next[j];
    const key = b.key ?? old?.key ?? (fill ? newKey() : undefined);
    out[j] = withKey(b, key, align(childBlocks(b), old && old.type === b.type ? childBlocks(old) : [], fill));
  };
  const oldSigs = previous.map(blockSignature);
  const newSigs = next.map(blockSignature);
  let i = 0;
  let j = 0;
  const stretch = (oldEnd: number, newEnd: number) => {
    // A changed stretch: each new block takes the next unused old block of its type, in order.
    let from = i;
    for (; j < newEnd; j++) {
      let k = from;
      while (k < oldEnd && previous[k].type !== next[j].type) k++;
      if (k < oldEnd) {
        pair(j, previous[k]);
        from = k + 1;
      } else pair(j, undefined);
    }
    i = oldEnd;
  };
  for (const hunk of diffIndices(oldSigs, newSigs)) {
    const [oldStart, oldLength] = hunk.buffer1;
    const [newStart, newLength] = hunk.buffer2;
    for (; j < newStart; i++, j++) pair(j, previous[i]);
    stretch(oldStart + oldLength, newStart + newLength);
  }
  for (; j < next.length; i++, j++) pair(j, previous[i]);
  return out;
}

/**
 * Sets the page's content to `markdown`. Its blocks take their keys from `given` (a document sent with
 * keys) where it has them, then from the page's current blocks.
 */
export function setPageContent(page: StoredPage, markdown: string, given?: Document): void {
  const blocks = parse(markdown).nodes;
  const fromGiven = given ? align(blocks, given.nodes, false) : blocks;
  const previous = page.markdown === '' && !page.keys ? [] : pageDocument(page).nodes;
  const keyed = dedupe(align(fromGiven, previous), new Set());
  page.markdown = markdown;
  page.keys = keyTreeOf(keyed);
}

/** Sets the page's content to a keyed document (a merge or a revert): Markdown written, keys kept. */
export function setPageDocument(page: StoredPage, blocks: Block[]): void {
  const markdown = documentToMarkdown({ nodes: blocks });
  // Read back, so the stored keys follow the blocks the Markdown gives (adjacent lists stay apart, etc.).
  const keyed = dedupe(align(parse(markdown).nodes, blocks), new Set());
  page.markdown = markdown;
  page.keys = keyTreeOf(keyed);
}
