// The three-way merge of what GitBook keeps beside a block's children: its fragments (a table's cell
// text, an expandable's title and body, an image's caption) by fragment name, and a table's `records`
// and `definition` by id, value by value. So two writers who change different cells (or rows, or
// columns) of one table merge; the same cell, column or fragment changed on both sides differently is
// refused by the caller's `conflict`.
import { stableJson } from './block-keys.js';
import type { Block, Fragment } from './markdown-document.js';

type Obj = Record<string, unknown>;
const sig = (v: unknown) => stableJson(v);

/**
 * Which side a value of three takes: 'theirs' when ours left it as the base or both made the same, 'ours'
 * when only ours changed it, undefined when both changed it differently. Each value is serialized once (a
 * table's cell fragments are whole blocks of GitBook's JSON, and a merged table has one per cell).
 */
function side(base: unknown, theirs: unknown, ours: unknown): 'theirs' | 'ours' | undefined {
  const [b, t, o] = [sig(base), sig(theirs), sig(ours)];
  if (t === o || b === o) return 'theirs';
  if (b === t) return 'ours';
  return undefined;
}

/** One value of three: the side that changed it; `conflict` when both changed it differently. Undefined is absent. */
function pick<T>(base: T | undefined, theirs: T | undefined, ours: T | undefined, conflict: (what: string) => Error, what: string): T | undefined {
  const taken = side(base, theirs, ours);
  if (!taken) throw conflict(what);
  return taken === 'theirs' ? theirs : ours;
}

/** A map merged entry by entry (`mergeEntry` for an entry changed on both sides). */
function mergeMap<T>(base: Record<string, T>, theirs: Record<string, T>, ours: Record<string, T>, entry: (key: string, b: T | undefined, t: T | undefined, o: T | undefined) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  const keys = new Set([...Object.keys(theirs), ...Object.keys(ours), ...Object.keys(base)]);
  for (const key of keys) {
    const value = entry(key, base[key], theirs[key], ours[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A table's records: each record merged value by value (a row added or removed on one side is kept so). */
function mergeRecords(base: Obj, theirs: Obj, ours: Obj, conflict: (what: string) => Error): Obj {
  type Rec = { orderIndex: string; values: Obj };
  return mergeMap(base as Record<string, Rec>, theirs as Record<string, Rec>, ours as Record<string, Rec>, (id, b, t, o) => {
    const taken = side(b, t, o);
    if (taken) return taken === 'theirs' ? t : o;
    if (!b || !t || !o) throw conflict(`record ${id} (deleted on one side, changed on the other)`);
    const orderIndex = pick(b.orderIndex, t.orderIndex, o.orderIndex, conflict, `record ${id}'s order`)!;
    const values = mergeMap(b.values ?? {}, t.values ?? {}, o.values ?? {}, (column, bv, tv, ov) => pick(bv, tv, ov, conflict, `cell ${id}/${column}`));
    return { ...t, orderIndex, values };
  });
}

/** The fragments of a block changed on both sides, merged by fragment name; a fragment changed on both sides differently is merged by `mergeNodes`. */
function mergeFragmentList(base: Fragment[], theirs: Fragment[], ours: Fragment[], mergeNodes: (b: Block[], t: Block[], o: Block[], name: string) => Block[], conflict: (what: string) => Error): Fragment[] {
  const name = (f: Fragment, i: number) => f.fragment ?? f.key ?? `#${i}`;
  const byName = (list: Fragment[]) => Object.fromEntries(list.map((f, i) => [name(f, i), f]));
  const merged = mergeMap(byName(base), byName(theirs), byName(ours), (n, b, t, o) => {
    const taken = side(b, t, o);
    if (taken) return taken === 'theirs' ? t : o;
    if (!b || !t || !o) throw conflict(`fragment ${n} (deleted on one side, changed on the other)`);
    const { nodes: _b, ...bf } = b;
    const { nodes: _t, ...tf } = t;
    const { nodes: _o, ...of } = o;
    const fields = pick(bf, tf, of, conflict, `fragment ${n}`)!;
    return { ...(fields as Fragment), nodes: mergeNodes(b.nodes, t.nodes, o.nodes, n) };
  });
  // In the order of the side with the most fragments first, then the others'.
  const order = [...theirs.map(name), ...ours.map(name)].filter((n, i, all) => all.indexOf(n) === i && merged[n]);
  return order.map((n) => merged[n]);
}

/**
 * The block's fields other than its children merged three ways: `data` (a table's records and
 * definition entry by entry, other keys whole), `fragments` by name, every other field whole.
 */
export function mergeBlockFields(base: Block, theirs: Block, ours: Block, mergeNodes: (b: Block[], t: Block[], o: Block[], name: string) => Block[], conflict: (what: string) => Error): Block {
  const { nodes: _bn, fragments: bFrag, data: bData, key: _bk, ...bRest } = base;
  const { nodes: _tn, fragments: tFrag, data: tData, key: _tk, ...tRest } = theirs;
  const { nodes: _on, fragments: oFrag, data: oData, key: _ok, ...oRest } = ours;
  const rest = pick(bRest, tRest, oRest, conflict, 'its fields')!;
  let data: Obj | undefined;
  if (base.type === 'table' && bData && tData && oData) {
    const { records: br, definition: bd, ...bOther } = bData;
    const { records: tr, definition: td, ...tOther } = tData;
    const { records: or, definition: od, ...oOther } = oData;
    const other = pick(bOther, tOther, oOther, conflict, 'its view')!;
    const records = mergeRecords((br ?? {}) as Obj, (tr ?? {}) as Obj, (or ?? {}) as Obj, conflict);
    const definition = mergeMap((bd ?? {}) as Obj, (td ?? {}) as Obj, (od ?? {}) as Obj, (id, b, t, o) => pick(b, t, o, conflict, `column ${id}`));
    data = { ...other, definition, records };
  } else data = pick(bData, tData, oData, conflict, 'its data');
  const fragments = bFrag || tFrag || oFrag ? mergeFragmentList(bFrag ?? [], tFrag ?? [], oFrag ?? [], mergeNodes, conflict) : undefined;
  return { ...(rest as Block), ...(data !== undefined && { data }), ...(fragments !== undefined && { fragments }) };
}
