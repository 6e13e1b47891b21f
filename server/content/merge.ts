// Three-way merge of revision contents, record by record: a page (or file, or variable) changed on one
// side only since the base takes that side; changed on both sides to different values is a conflict.
import { Conflict } from '../errors.js';
import type { RevisionContent, StoredPage } from './revision-content.js';

/** JSON with sorted keys, so two equal records compare equal whatever order their keys were set in. */
function stable(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
}

function same(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

/** For each key of the three maps, the merged value; the keys changed on both sides go to `conflicts`. */
function mergeMaps<T>(base: Map<string, T>, theirs: Map<string, T>, ours: Map<string, T>, conflicts: string[]): Map<string, T> {
  const merged = new Map<string, T>();
  for (const key of new Set([...base.keys(), ...theirs.keys(), ...ours.keys()])) {
    const b = base.get(key);
    const t = theirs.get(key);
    const o = ours.get(key);
    let value: T | undefined;
    if (same(t, o) || same(b, o)) value = t;
    else if (same(b, t)) value = o;
    else {
      conflicts.push(key);
      continue;
    }
    if (value !== undefined) merged.set(key, value);
  }
  return merged;
}

const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((i) => [i.id, i]));

/**
 * `ours` (a change request) merged with `theirs` (the space) from their common `base`. Throws Conflict,
 * naming the pages, when a page was changed on both sides or would be left under a deleted page.
 */
export function mergeContent(base: RevisionContent, theirs: RevisionContent, ours: RevisionContent): RevisionContent {
  const conflicts: string[] = [];
  const pages = mergeMaps(byId(base.pages), byId(theirs.pages), byId(ours.pages), conflicts);
  if (conflicts.length > 0) throw new Conflict(`Pages changed both in the change request and in the space since it was based: ${conflicts.join(', ')}`);
  const orphans = [...pages.values()].filter((p: StoredPage) => p.parent !== null && !pages.has(p.parent));
  if (orphans.length > 0) {
    throw new Conflict(`Pages whose parent page was deleted on the other side: ${orphans.map((p) => p.id).join(', ')}`);
  }
  const files = mergeMaps(byId(base.files), byId(theirs.files), byId(ours.files), conflicts);
  const variables = mergeMaps(new Map(Object.entries(base.variables)), new Map(Object.entries(theirs.variables)), new Map(Object.entries(ours.variables)), conflicts);
  const reusable = mergeMaps(byId(base.reusableContents), byId(theirs.reusableContents), byId(ours.reusableContents), conflicts);
  if (conflicts.length > 0) throw new Conflict(`Files, variables or reusable contents changed on both sides: ${conflicts.join(', ')}`);
  return {
    pages: [...pages.values()],
    files: [...files.values()],
    variables: Object.fromEntries(variables),
    reusableContents: [...reusable.values()],
  };
}
