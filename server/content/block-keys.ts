// Stable keys of the blocks of a page. A page stores its Document with a key on every block
// (page-content.ts). When new content arrives without keys (a Markdown edit, or a document whose client
// left some out), its blocks are aligned with the page's current blocks so that a block keeps its key
// through edits and moves and a new block gets a new key:
//   1. unchanged blocks in place: an LCS over the blocks' content (node-diff3's diffIndices);
//   2. unchanged blocks that moved: the same content anywhere else among the siblings;
//   3. edited blocks: the most similar block of the same type (shared words, at least half), so a
//      paragraph inserted above an edited one does not take its key;
//   4. rewritten blocks: in a changed stretch with as many new blocks of a type as old ones, in order.
// Matched blocks align their own children the same way. Comments (`node`), `revert_page.block` and the
// merge (merge.ts) name blocks by key. Pages stored before Documents were (Markdown with a key tree beside
// it) read their keys from that tree, or derive them from their content.
import { createHash, randomBytes } from 'node:crypto';
import { diffIndices } from 'node-diff3';
import type { Block } from './markdown-document.js';

/** One entry per child block: its key, with the keys of its own child blocks when it has some (legacy pages). */
export type KeyTree = (string | [string, KeyTree])[];

export const childBlocks = (b: Block): Block[] => (b.nodes ?? []).filter((n): n is Block => n.object === 'block');

/**
 * Signatures already computed, by block object. Blocks are not changed once stored or parsed (functions
 * here copy what they change), and a copy that differs only by its keys (`withKey`) shares its original's
 * signature: a page's blocks are then serialized once, not at each comparison of a merge or an alignment.
 */
const signatures = new WeakMap<Block, string>();

/**
 * JSON with each object's fields in sorted order (a block read back from jsonb has its fields in jsonb's
 * order, not the order it was written in); `withoutKeys` leaves out blocks' `key` fields.
 */
export function stableJson(value: unknown, withoutKeys = false): string {
  if (value === null || typeof value !== 'object') return value === undefined ? 'null' : JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + stableJson(value[i], withoutKeys);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const names = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const name of names) {
    const v = record[name];
    if (v === undefined || (withoutKeys && name === 'key')) continue;
    out += `${first ? '' : ','}${JSON.stringify(name)}:${stableJson(v, withoutKeys)}`;
    first = false;
  }
  return `${out}}`;
}

/** The block's content without keys, as one comparable string. */
export function blockSignature(b: Block): string {
  let signature = signatures.get(b);
  if (signature === undefined) {
    signature = stableJson(b, true);
    signatures.set(b, signature);
  }
  return signature;
}

export function newKey(): string {
  return randomBytes(6).toString('base64url');
}

/**
 * A copy of the block with `key` (none: the block's own) whose block children are `children`, the same
 * blocks as its own but for their keys: the copy has the same signature.
 */
export function withKey(b: Block, key: string | undefined, children: Block[]): Block {
  let i = 0;
  const copy: Block = { ...b, ...(key !== undefined && { key }), ...(b.nodes && { nodes: b.nodes.map((n) => (n.object === 'block' ? children[i++] : n)) }) };
  const signature = signatures.get(b);
  if (signature !== undefined) signatures.set(copy, signature);
  return copy;
}

/** Keys derived from content (legacy pages without stored keys): the same for the same blocks at every read. */
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

/** The blocks with the keys of a legacy key tree; a level whose shape does not match gets derived keys. */
export function overlayKeys(blocks: Block[], tree: KeyTree | undefined, prefix = ''): Block[] {
  if (!tree || tree.length !== blocks.length) return derivedKeys(blocks, prefix);
  return blocks.map((b, i) => {
    const entry = tree[i];
    const key = typeof entry === 'string' ? entry : entry[0];
    return withKey(b, key, overlayKeys(childBlocks(b), typeof entry === 'string' ? undefined : entry[1], key));
  });
}

/** The block with each fragment's blocks replaced by `map` of them (the same block when there are none). */
function mapFragments(b: Block, map: (blocks: Block[], name: string) => Block[]): Block {
  if (!b.fragments) return b;
  return { ...b, fragments: b.fragments.map((f, i) => ({ ...f, nodes: map(f.nodes, f.fragment ?? f.key ?? `#${i}`) })) };
}

/** Makes every key unique and present: a block without one, or with one already used, gets a new key (blocks of fragments too). */
export function dedupeKeys(blocks: Block[], used: Set<string> = new Set()): Block[] {
  return blocks.map((b) => {
    const key = b.key && !used.has(b.key) ? b.key : newKey();
    used.add(key);
    const keyed = withKey(b, key, dedupeKeys(childBlocks(b), used));
    return mapFragments(keyed, (nodes) => dedupeKeys(nodes, used));
  });
}

/** Every block key of the blocks, nested ones and those of fragments included. */
export function keysOf(blocks: Block[], into: Set<string> = new Set()): Set<string> {
  for (const b of blocks) {
    if (b.key) into.add(b.key);
    keysOf(childBlocks(b), into);
    for (const f of b.fragments ?? []) keysOf(f.nodes, into);
  }
  return into;
}

// --- similarity of edited blocks -----------------------------------------------------------------------

const texts = new WeakMap<Block, string[]>();

/** The words and punctuation of a block's text (nested blocks and inlines included). */
function wordsOf(b: Block): string[] {
  let words = texts.get(b);
  if (!words) {
    const parts: string[] = [];
    const walk = (nodes: Block['nodes']) => {
      for (const n of nodes ?? []) {
        if (n.object === 'text') for (const l of n.leaves) parts.push(l.text);
        else {
          walk(n.nodes);
          for (const f of (n as Block).fragments ?? []) walk(f.nodes);
        }
        parts.push(' ');
      }
    };
    walk(b.nodes);
    for (const f of b.fragments ?? []) walk(f.nodes);
    words = parts.join('').match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
    texts.set(b, words);
  }
  return words;
}

/** Shared words of two blocks over their mean length, 0 to 1 (a block without text is like another of its type). */
function similarity(a: Block, b: Block): number {
  const [wa, wb] = [wordsOf(a), wordsOf(b)];
  if (wa.length === 0 && wb.length === 0) return 0.5;
  if (wa.length === 0 || wb.length === 0) return 0;
  let changed = 0;
  for (const hunk of diffIndices(wa, wb)) changed += hunk.buffer1[1] + hunk.buffer2[1];
  const common = (wa.length + wb.length - changed) / 2;
  return (2 * common) / (wa.length + wb.length);
}

/** Pairs of blocks compared for similarity at most, per level (beyond, edited blocks pair by step 4 only). */
const MAX_COMPARISONS = 40_000;

/**
 * The index in `previous` each block of `next` takes its key from (undefined: a new block), per the steps
 * at the top of the file. `usable(k)` says whether old block k's key may be taken.
 */
function matchBlocks(next: Block[], previous: Block[]): (number | undefined)[] {
  const match: (number | undefined)[] = new Array(next.length).fill(undefined);
  const taken = new Set<number>();
  const take = (j: number, k: number) => {
    match[j] = k;
    taken.add(k);
  };
  const oldSigs = previous.map(blockSignature);
  const newSigs = next.map(blockSignature);
  // 1. In place (and the changed stretches, for step 4).
  const stretches: { old: [number, number]; new: [number, number] }[] = [];
  let i = 0;
  let j = 0;
  for (const hunk of diffIndices(oldSigs, newSigs)) {
    const [oldStart, oldLength] = hunk.buffer1;
    const [newStart, newLength] = hunk.buffer2;
    for (; j < newStart; i++, j++) take(j, i);
    stretches.push({ old: [oldStart, oldStart + oldLength], new: [newStart, newStart + newLength] });
    i = oldStart + oldLength;
    j = newStart + newLength;
  }
  for (; j < next.length && i < previous.length; i++, j++) take(j, i);
  // 2. Moved: the same content elsewhere.
  const bySig = new Map<string, number[]>();
  for (const [k, sig] of oldSigs.entries()) if (!taken.has(k)) bySig.set(sig, [...(bySig.get(sig) ?? []), k]);
  for (const [n, sig] of newSigs.entries()) {
    if (match[n] !== undefined) continue;
    const k = bySig.get(sig)?.shift();
    if (k !== undefined) take(n, k);
  }
  // 3. Edited: the most similar old block of the same type.
  const freeNew = next.map((_, n) => n).filter((n) => match[n] === undefined);
  const freeOld = previous.map((_, k) => k).filter((k) => !taken.has(k));
  if (freeNew.length * freeOld.length <= MAX_COMPARISONS) {
    const pairs: { n: number; k: number; score: number }[] = [];
    for (const n of freeNew) {
      for (const k of freeOld) {
        if (previous[k].type !== next[n].type) continue;
        const score = similarity(next[n], previous[k]);
        if (score >= 0.5) pairs.push({ n, k, score });
      }
    }
    pairs.sort((a, b) => b.score - a.score || Math.abs(a.n - a.k) - Math.abs(b.n - b.k));
    for (const { n, k } of pairs) if (match[n] === undefined && !taken.has(k)) take(n, k);
  }
  // 4. Rewritten in place: a stretch with as many new as old blocks of a type left, paired in order.
  for (const s of stretches) {
    const olds = range(s.old).filter((k) => !taken.has(k));
    const news = range(s.new).filter((n) => match[n] === undefined);
    for (const type of new Set(news.map((n) => next[n].type))) {
      const o = olds.filter((k) => previous[k].type === type);
      const nn = news.filter((n) => next[n].type === type);
      if (o.length === nn.length) nn.forEach((n, x) => take(n, o[x]));
    }
  }
  return match;
}

const range = ([from, to]: [number, number]) => Array.from({ length: to - from }, (_, x) => from + x);

/**
 * `next` with keys taken from `previous` where a block has none (see the top of the file). Keys in
 * `reserved` (those a client gave explicitly) are never handed to another block. Blocks left without a
 * key get one from dedupeKeys.
 */
export function alignKeys(next: Block[], previous: Block[], reserved: Set<string> = new Set(), keep?: KeepOld): Block[] {
  if (previous.length === 0) return next;
  const match = matchBlocks(next, previous);
  return next.map((b, n) => {
    const old = match[n] === undefined ? undefined : previous[match[n]!];
    const inherited = old?.key !== undefined && !reserved.has(old.key) ? old.key : undefined;
    if (old && b.key === undefined && inherited !== undefined && keep && blockSignature(old) !== blockSignature(b) && sameWords(old, b) && keep(old, b)) return old;
    const children = childBlocks(b);
    const aligned = old && children.length > 0 ? alignKeys(children, childBlocks(old), reserved, keep) : children;
    const keyed = withKey(b, b.key ?? inherited, aligned);
    // A fragment's blocks align with those of the old block's fragment of the same name.
    const oldFragments = new Map((old?.fragments ?? []).map((f, i) => [f.fragment ?? f.key ?? `#${i}`, f.nodes]));
    return oldFragments.size === 0 ? keyed : mapFragments(keyed, (nodes, name) => alignKeys(nodes, oldFragments.get(name) ?? [], reserved, keep));
  });
}

/**
 * Whether the old block stands for the new one as it is (a Markdown edit left it alone, and the old block
 * holds what Markdown cannot say): asked only of matched blocks with the same words and other content.
 */
export type KeepOld = (old: Block, next: Block) => boolean;

function sameWords(a: Block, b: Block): boolean {
  const [wa, wb] = [wordsOf(a), wordsOf(b)];
  return wa.length === wb.length && wa.every((w, i) => w === wb[i]);
}
