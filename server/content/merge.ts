// Three-way merge of revision contents. Records (pages, files, variables, reusable contents) changed on
// one side only since the base take that side. A page changed on both sides is merged field by field,
// and its content over its node tree (merge-blocks.ts: list items, table rows and cells, children of
// containers, by block key). Refused (409, naming the page and the block and its path, or the field): a
// node changed on both sides differently, a block deleted on one side and changed on the other, blocks
// moved around the same place on both sides, a field changed on both sides differently.
import { Conflict } from '../errors.js';
import { blockSignature } from './block-keys.js';
import { mergeBlockTree } from './merge-blocks.js';
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

/** The page's fields other than its content. */
const PAGE_FIELDS = ['parent', 'position', 'type', 'title', 'slug', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const;

/** A page's content as one comparable list: its document's data, then its blocks' signatures. */
function contentOf(page: StoredPage): string[] {
  const document = pageDocument(page);
  return [stable(document.data), ...document.nodes.map(blockSignature)];
}

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
  if (same(b, o)) return page;
  if (same(b, t) || same(t, o)) return withContentOf(page, ours);
  const blocks = mergeBlockTree(pageDocument(base).nodes, pageDocument(theirs).nodes, pageDocument(ours).nodes, { page: pageName(ours) });
  setPageDocument(page, blocks, mergeData(base, theirs, ours));
  return page;
}

/**
 * The ids of the pages where `side` may differ from `base`: its pages that are not the base's very objects
 * (edited, moved, new), and the base's pages it no longer has. Unchanged pages are shared objects between
 * revisions read from the cache (revisions.store.ts `loadContents`), so on a large space this is a walk with
 * a set lookup per page, and everything after it (the comparisons, the merge) follows the change, not the
 * space. Pages that are equal without being the same objects are in the list, and compared as before.
 */
function idsMaybeChanged(baseObjects: Set<StoredPage>, base: StoredPage[], side: StoredPage[]): Set<string> {
  const ids = new Set<string>();
  let kept = 0;
  for (const page of side) {
    if (baseObjects.has(page)) kept++;
    else ids.add(page.id);
  }
  if (kept < base.length) {
    // Some base pages are not on this side as they were: deleted, or changed (already listed).
    const onSide = new Set(side.map((p) => p.id));
    for (const page of base) if (!onSide.has(page.id)) ids.add(page.id);
  }
  return ids;
}

/** The ids of the pages where either side may differ from the base (the only ones a merge compares). */
export function pagesToMerge(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent): Set<string> {
  const baseObjects = new Set(base.pages);
  return new Set([...idsMaybeChanged(baseObjects, base.pages, theirs.pages), ...idsMaybeChanged(baseObjects, base.pages, ours.pages)]);
}

/**
 * The pages of the three sides by id, among `ids` (pagesToMerge's, computed here when not given: a caller
 * that computed them before giving pages their own copies passes them on, since only pages of that set were
 * copied).
 */
function pagesToCompare(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent, ids = pagesToMerge(base, theirs, ours)) {
  const only = (pages: StoredPage[]) => new Map(pages.filter((p) => ids.has(p.id)).map((p) => [p.id, p]));
  return { ids, base: only(base.pages), theirs: only(theirs.pages), ours: only(ours.pages) };
}

/**
 * The pages a merge of these contents reads the content of: those changed on both sides since the base
 * (compared as stored, a Document by its hash) whose content both sides changed. The others are taken whole
 * from one side, so a merge needs only these pages' Documents (merge-revisions.ts).
 */
export function pagesChangedOnBothSides(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent, toMerge?: Set<string>): Set<string> {
  const { ids: candidates, base: b, theirs: t, ours: o } = pagesToCompare(base, theirs, ours, toMerge);
  const ids = new Set<string>();
  for (const id of candidates) {
    const [bp, tp, op] = [b.get(id), t.get(id), o.get(id)];
    if (same(tp, op) || same(bp, op) || same(bp, tp)) continue;
    if (bp && tp && op && contentByHash(bp, tp, op) !== undefined) continue;
    ids.add(id);
  }
  return ids;
}

/**
 * The merged page list: the pages no side changed stay as they are, in the base's order; the others are
 * merged by mergeMaps (after the base's pages, the new ones of theirs, then of ours, as mergeMaps orders them).
 */
function mergePages(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent, conflicts: string[], toMerge?: Set<string>): StoredPage[] {
  const compared = pagesToCompare(base, theirs, ours, toMerge);
  const merged = mergeMaps(compared.base, compared.theirs, compared.ours, conflicts, mergePage);
  const pages: StoredPage[] = [];
  for (const page of base.pages) {
    if (!compared.ids.has(page.id)) pages.push(page);
    else if (merged.has(page.id)) pages.push(merged.get(page.id)!);
  }
  for (const [id, page] of merged) if (!compared.base.has(id)) pages.push(page);
  return pages;
}

/**
 * `ours` (a change request) merged with `theirs` (the space) from their common `base`. Throws Conflict,
 * naming the page and the block or field, when they cannot be merged (see the top of the file). `toMerge`:
 * pagesToMerge's ids, when the caller has them.
 */
export function mergeContent(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent, toMerge?: Set<string>): RevisionContent {
  const conflicts: string[] = [];
  const pages = mergePages(base, theirs, ours, conflicts, toMerge);
  const ids = new Set(pages.map((p) => p.id));
  const orphans = pages.filter((p) => p.parent !== null && !ids.has(p.parent));
  if (orphans.length > 0) {
    throw new Conflict(`Pages whose parent page was deleted on the other side: ${orphans.map((p) => p.id).join(', ')}`);
  }
  const files = mergeMaps(byId(base.files), byId(theirs.files), byId(ours.files), conflicts);
  const variables = mergeMaps(new Map(Object.entries(base.variables)), new Map(Object.entries(theirs.variables)), new Map(Object.entries(ours.variables)), conflicts);
  const reusable = mergeMaps(byId(base.reusableContents), byId(theirs.reusableContents), byId(ours.reusableContents), conflicts);
  if (conflicts.length > 0) throw new Conflict(`Files, variables or reusable contents changed on both sides: ${conflicts.join(', ')}`);
  return {
    pages,
    files: [...files.values()],
    variables: Object.fromEntries(variables),
    reusableContents: [...reusable.values()],
  };
}
