// Three-way merge of revision contents. Records (pages, files, variables, reusable contents) changed on
// one side only since the base take that side. A page changed on both sides is merged field by field,
// and its content over its node tree (merge-blocks.ts: list items, table rows and cells, children of
// containers, by block key). Refused (409, naming the page and the block and its path, or the field): a
// node changed on both sides differently, a block deleted on one side and changed on the other, blocks
// moved around the same place on both sides, a field changed on both sides differently.
import { Conflict } from '../errors.js';
import { blockSignature } from './block-keys.js';
import { mergeBlockTree } from './merge-blocks.js';
import { listDifference } from './page-diff.js';
import { pageDocument, setPageDocument } from './page-content.js';
import type { RevisionContent, StoredPage } from './revision-content.js';

/** JSON with sorted keys, so two equal records compare equal whatever order their keys were set in. */
function stable(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Equal as stable JSON. Records are compared field by field, equal references and primitives without
 * serializing: a merge compares every page of both sides, and on a large space most are unchanged.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b)) return stable(a) === stable(b);
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  for (const k of keys) {
    const [x, y] = [a[k], b[k]];
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    if (stable(x) !== stable(y)) return false;
  }
  return true;
}

/** For each key of the three maps, the merged value; keys changed on both sides go through `both` (or to `conflicts`). */
function mergeMaps<T>(
  base: Map<string, T>,
  theirs: Map<string, T>,
  ours: Map<string, T>,
  conflicts: string[],
  both?: (b: T | undefined, t: T | undefined, o: T | undefined) => T | undefined,
): Map<string, T> {
  const merged = new Map<string, T>();
  for (const key of new Set([...base.keys(), ...theirs.keys(), ...ours.keys()])) {
    const b = base.get(key);
    const t = theirs.get(key);
    const o = ours.get(key);
    let value: T | undefined;
    if (same(t, o) || same(b, o)) value = t;
    else if (same(b, t)) value = o;
    else if (both) value = both(b, t, o);
    else {
      conflicts.push(key);
      continue;
    }
    if (value !== undefined) merged.set(key, value);
  }
  return merged;
}

const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((i) => [i.id, i]));

/** How a page is named in a conflict message. */
const pageName = (p: StoredPage) => `page "${p.title}" (${p.id})`;

/**
 * The page's fields other than its content, each merged on its own (a field left out would be taken from
 * the space whatever the change request did to it). Compared by value (`same`): `target` is an object.
 */
const PAGE_FIELDS = ['parent', 'position', 'type', 'target', 'title', 'linkTitle', 'slug', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'condition', 'frontMatter'] as const;

/** The fields merged otherwise: the id (the same on all sides), the content (below), the times (the later update). */
const FIELDS_MERGED_APART = ['id', 'document', 'documentHash', 'markdown', 'keys', 'createdAt', 'updatedAt'] as const;

/** Fails to compile when StoredPage gains a field neither list names, so a new field cannot be lost in a merge. */
const everyFieldMerged: Exclude<keyof StoredPage, (typeof PAGE_FIELDS)[number] | (typeof FIELDS_MERGED_APART)[number]> extends never ? true : never = true;
void everyFieldMerged;

/** A page's content as one comparable list: its document's data, then its blocks' signatures. */
function contentOf(page: StoredPage): string[] {
  const document = pageDocument(page);
  return [stable(document.data), ...document.nodes.map(blockSignature)];
}

/**
 * Two contents (contentOf) equal, string by string: what `same` says of them, without serializing each
 * signature again (JSON.stringify of a block's signature escapes each of its quotes).
 */
const sameStrings = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `page` with the content of `from` (its Document, or a legacy page's Markdown and keys). */
function withContentOf(page: StoredPage, from: StoredPage): StoredPage {
  const { document, documentHash, markdown, keys, ...rest } = page;
  void document, void documentHash, void markdown, void keys;
  return {
    ...rest,
    ...(from.document && { document: from.document }),
    ...(from.documentHash !== undefined && { documentHash: from.documentHash }),
    ...(from.markdown !== undefined && { markdown: from.markdown }),
    ...(from.keys && { keys: from.keys }),
  };
}

/**
 * Whose content a page changed on both sides takes, told by the Documents' hashes when all three name
 * theirs by hash (pages read without their Documents): 'theirs' when ours did not change it, 'ours' when
 * theirs did not or both made the same; undefined when both changed it differently (merged block by block).
 */
function contentByHash(base: StoredPage, theirs: StoredPage, ours: StoredPage): 'theirs' | 'ours' | undefined {
  const [b, t, o] = [base.documentHash, theirs.documentHash, ours.documentHash];
  if (b === undefined || t === undefined || o === undefined) return undefined;
  if (o === b) return 'theirs';
  if (t === b || t === o) return 'ours';
  return undefined;
}

/** The `data` of a page's document merged: the side that changed it, a 409 when both did differently. */
function mergeData(base: StoredPage, theirs: StoredPage, ours: StoredPage): Record<string, unknown> | undefined {
  const [b, t, o] = [pageDocument(base).data, pageDocument(theirs).data, pageDocument(ours).data];
  if (same(t, o) || same(b, o)) return t;
  if (same(b, t)) return o;
  throw new Conflict(`The document data of ${pageName(ours)} was changed both in the change request and in the space`);
}

/** A page changed on both sides: each field from the side that changed it, the content block by block. */
function mergePage(base: StoredPage | undefined, theirs: StoredPage | undefined, ours: StoredPage | undefined): StoredPage | undefined {
  if (!base) throw new Conflict(`${pageName((ours ?? theirs)!)} was created on both sides with different content`);
  if (!theirs || !ours) {
    throw new Conflict(`${pageName(base)} was deleted on one side (change request or space) and changed on the other`);
  }
  const page: StoredPage = { ...theirs };
  for (const field of PAGE_FIELDS) {
    const [b, t, o] = [base[field], theirs[field], ours[field]];
    if (same(t, o) || same(b, o)) continue;
    if (same(b, t)) (page as unknown as Record<string, unknown>)[field] = o;
    else throw new Conflict(`The ${field} of ${pageName(ours)} was changed both in the change request and in the space`);
  }
  page.updatedAt = theirs.updatedAt > ours.updatedAt ? theirs.updatedAt : ours.updatedAt;
  const byHash = contentByHash(base, theirs, ours);
  if (byHash === 'theirs') return page;
  if (byHash === 'ours') return withContentOf(page, ours);
  const [b, t, o] = [contentOf(base), contentOf(theirs), contentOf(ours)];
  if (sameStrings(b, o)) return page;
  if (sameStrings(b, t) || sameStrings(t, o)) return withContentOf(page, ours);
  const blocks = mergeBlockTree(pageDocument(base).nodes, pageDocument(theirs).nodes, pageDocument(ours).nodes, { page: pageName(ours) });
  setPageDocument(page, blocks, mergeData(base, theirs, ours));
  return page;
}

/**
 * The pages a merge compares: those where either side may differ from the base (page-diff.ts, by object
 * identity), each side's by id (absent: the side does not hold it), and the index in the base's list of each
 * base page among them. Unchanged pages are shared objects between revisions read from the cache
 * (revisions.store.ts `loadContents`), so on a large space finding them is a walk comparing references, and
 * everything after it (the comparisons, the merge) follows the change, not the space.
 */
export interface ComparedPages {
  /** The base's ids first (in its order), then the new ids of theirs, then of ours, each in its side's order. */
  ids: Set<string>;
  base: Map<string, StoredPage>;
  theirs: Map<string, StoredPage>;
  ours: Map<string, StoredPage>;
  baseIndex: Map<string, number>;
}

export function comparePages(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent): ComparedPages {
  const sides = [listDifference(base.pages, theirs.pages), listDifference(base.pages, ours.pages)];
  const baseIndex = new Map<string, number>();
  for (const j of [...sides[0].base, ...sides[1].base].sort((a, b) => a - b)) baseIndex.set(base.pages[j].id, j);
  const ids = new Set([...baseIndex.keys(), ...sides[0].side.map((p) => p.id), ...sides[1].side.map((p) => p.id)]);
  const baseById = new Map([...baseIndex].map(([id, j]) => [id, base.pages[j]]));
  // A side's page: the one it lists; else none when it did not keep the base's page; else the base's page itself.
  const [theirsById, oursById] = sides.map((side) => {
    const listed = byId(side.side);
    const notKept = new Set(side.base.map((j) => base.pages[j].id));
    const byIdOnSide = new Map<string, StoredPage>();
    for (const id of ids) {
      const page = listed.get(id) ?? (notKept.has(id) ? undefined : baseById.get(id));
      if (page) byIdOnSide.set(id, page);
    }
    return byIdOnSide;
  });
  return { ids, base: baseById, theirs: theirsById, ours: oursById, baseIndex };
}

/**
 * The pages a merge reads the content of: those changed on both sides since the base (compared as stored, a
 * Document by its hash) whose content both sides changed. The others are taken whole from one side, so a
 * merge needs only these pages' Documents (merge-revisions.ts).
 */
export function pagesChangedOnBothSides(compared: ComparedPages): Set<string> {
  const ids = new Set<string>();
  for (const id of compared.ids) {
    const [bp, tp, op] = [compared.base.get(id), compared.theirs.get(id), compared.ours.get(id)];
    if (same(tp, op) || same(bp, op) || same(bp, tp)) continue;
    if (bp && tp && op && contentByHash(bp, tp, op) !== undefined) continue;
    ids.add(id);
  }
  return ids;
}

/**
 * The merged page list: the pages no side changed stay as they are, in the base's order, with the merged
 * ones in their base's place; then the new ones, of theirs and then of ours (the order of `compared.ids`).
 * Also returns the merged pages by id.
 */
function mergePages(base: RevisionContent, compared: ComparedPages, conflicts: string[]) {
  const merged = mergeMaps(compared.base, compared.theirs, compared.ours, conflicts, mergePage);
  const pages: (StoredPage | undefined)[] = base.pages.slice();
  let deleted = false;
  for (const [id, j] of compared.baseIndex) {
    pages[j] = merged.get(id);
    if (!pages[j]) deleted = true;
  }
  const kept = deleted ? pages.filter((p): p is StoredPage => p !== undefined) : (pages as StoredPage[]);
  for (const [id, page] of merged) if (!compared.baseIndex.has(id)) kept.push(page);
  return { pages: kept, merged };
}

/**
 * The merged pages whose parent is not in the merge: a compared page's parent deleted on one side while the
 * other side put a page under it. Each side is a whole tree (every writer keeps it so), which spares checking
 * the others: a page no side changed keeps a parent no side deleted (a side deleting a page deletes its
 * subpages, so they are compared), and a compared page whose parent no side changed took its parent from a
 * side that holds that parent as the base does.
 */
function orphansOf(compared: ComparedPages, merged: Map<string, StoredPage>): string[] {
  const orphans: string[] = [];
  for (const [id, page] of merged) {
    if (page.parent !== null && compared.ids.has(page.parent) && !merged.has(page.parent)) orphans.push(id);
  }
  return orphans;
}

/**
 * `ours` (a change request) merged with `theirs` (the space) from their common `base`. Throws Conflict,
 * naming the page and the block or field, when they cannot be merged (see the top of the file). `compared`:
 * comparePages's answer, when the caller has it (merge-revisions.ts gives some of its pages their Documents).
 */
export function mergeContent(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent, compared = comparePages(base, theirs, ours)): RevisionContent {
  const conflicts: string[] = [];
  const { pages, merged } = mergePages(base, compared, conflicts);
  const orphans = orphansOf(compared, merged);
  if (orphans.length > 0) throw new Conflict(`Pages whose parent page was deleted on the other side: ${orphans.join(', ')}`);
  const files = mergeMaps(byId(base.files), byId(theirs.files), byId(ours.files), conflicts);
  const variables = mergeMaps(new Map(Object.entries(base.variables)), new Map(Object.entries(theirs.variables)), new Map(Object.entries(ours.variables)), conflicts);
  const reusable = mergeMaps(byId(base.reusableContents), byId(theirs.reusableContents), byId(ours.reusableContents), conflicts);
  const redirects = mergeMaps(new Map(Object.entries(base.redirects ?? {})), new Map(Object.entries(theirs.redirects ?? {})), new Map(Object.entries(ours.redirects ?? {})), conflicts);
  // The tags file (Git Sync's, kept whole): the side that changed it, as a file of a three-way merge.
  const tagsFile = theirs.tagsFile === base.tagsFile ? ours.tagsFile : ours.tagsFile === base.tagsFile || ours.tagsFile === theirs.tagsFile ? theirs.tagsFile : undefined;
  if (theirs.tagsFile !== base.tagsFile && ours.tagsFile !== base.tagsFile && ours.tagsFile !== theirs.tagsFile) conflicts.push('.gitbook/tags.yaml');
  if (conflicts.length > 0) throw new Conflict(`Files, variables or reusable contents changed on both sides: ${conflicts.join(', ')}`);
  return {
    pages,
    files: [...files.values()],
    variables: Object.fromEntries(variables),
    reusableContents: [...reusable.values()],
    ...(tagsFile !== undefined && { tagsFile }),
    ...(redirects.size > 0 && { redirects: Object.fromEntries(redirects) }),
  };
}
