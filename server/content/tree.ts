// The content tree of an organization: collections nest, and spaces and collections are ordered among
// the items of their parent by a fractional-indexing key (content/order-keys.ts). Every change to the
// tree runs in a transaction holding `lockTree`, so checks made before a write (cycles, neighbours,
// the last key) still hold when it is written.
import { and, asc, eq, gt, inArray, isNull, lt, max, min, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { queryRows } from '../db/client.js';
import { collections, organizations, spaces } from '../db/schema/index.js';
import { Conflict, NotFound } from '../errors.js';
import { keyAfter, keyBetween } from './order-keys.js';

/**
 * Locks the content trees of the given organizations until the transaction ends, in a fixed order so
 * two transfers between the same organizations cannot deadlock. `FOR NO KEY UPDATE` leaves concurrent
 * inserts referencing the organization (new members, tokens) alone.
 */
export async function lockTree(tx: Ctx, ...organizationIds: string[]): Promise<void> {
  const ids = [...new Set(organizationIds)].sort();
  await tx.db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, ids)).orderBy(asc(organizations.id)).for('no key update');
}

/**
 * `lockTree` for a write to one item read before the lock: once the lock is held, the item must still be
 * in `organizationId`. A transfer that committed while this write waited has moved it to another
 * organization, where the write's checks (its parent, its neighbours) no longer hold: Conflict, and the
 * caller may retry.
 */
export async function lockTreeOfItem(
  tx: Ctx,
  table: typeof collections | typeof spaces,
  itemId: string,
  organizationId: string,
): Promise<void> {
  await lockTree(tx, organizationId);
  const [row] = await tx.db.select({ organizationId: table.organizationId }).from(table).where(eq(table.id, itemId));
  if (row && row.organizationId !== organizationId) throw new Conflict(`${itemId} was moved to another organization meanwhile; read it again and retry`);
}

function sameParent(table: typeof collections | typeof spaces, organizationId: string, parentId: string | null): SQL | undefined {
  return and(eq(table.organizationId, organizationId), parentId === null ? isNull(table.parentId) : eq(table.parentId, parentId));
}

/** The keys two one-key queries (collections, spaces) find, in one round trip, sorted (C collation order). */
async function bothTables(tx: Ctx, collectionKey: SQLWrapper, spaceKey: SQLWrapper): Promise<string[]> {
  const [row] = await queryRows<{ c: string | null; s: string | null }>(tx.db, sql`SELECT (${collectionKey}) AS c, (${spaceKey}) AS s`);
  return [row?.c, row?.s].filter((k): k is string => k != null).sort(compareKeys);
}

/** Byte order, as the C collation sorts: `localeCompare` would not. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The key of the nearest item (space or collection) under `parentId` before or after `key`, if any. */
async function neighbourKey(tx: Ctx, organizationId: string, parentId: string | null, key: string, side: 'before' | 'after') {
  const nearest = side === 'before' ? max : min;
  const beyond = side === 'before' ? lt : gt;
  const found = await bothTables(
    tx,
    tx.db.select({ k: nearest(collections.position) }).from(collections).where(and(sameParent(collections, organizationId, parentId), beyond(collections.position, key))),
    tx.db
      .select({ k: nearest(spaces.position) })
      .from(spaces)
      .where(and(sameParent(spaces, organizationId, parentId), isNull(spaces.deletedAt), beyond(spaces.position, key))),
  );
  return side === 'before' ? found.at(-1) : found[0];
}

/** A key after every item currently under `parentId`. Call it holding `lockTree`. */
export async function lastKey(tx: Ctx, organizationId: string, parentId: string | null): Promise<string> {
  return (await lastKeys(tx, organizationId, [parentId])).get(parentId)!;
}

/**
 * For each of `parentIds`, a key after every item currently under it, in one round trip whatever their
 * number (a batch of creations, space-inserts.ts). Call it holding `lockTree`.
 */
export async function lastKeys(tx: Ctx, organizationId: string, parentIds: (string | null)[]): Promise<Map<string | null, string>> {
  const distinct = [...new Set(parentIds)];
  const lasts = distinct.map((parentId, i) => {
    const c = tx.db.select({ k: max(collections.position) }).from(collections).where(sameParent(collections, organizationId, parentId));
    const s = tx.db.select({ k: max(spaces.position) }).from(spaces).where(sameParent(spaces, organizationId, parentId));
    return sql`(${c}) AS ${sql.raw(`c${i}`)}, (${s}) AS ${sql.raw(`s${i}`)}`;
  });
  const [row] = await queryRows<Record<string, string | null>>(tx.db, sql`SELECT ${sql.join(lasts, sql`, `)}`);
  return new Map(
    distinct.map((parentId, i) => [parentId, keyAfter([row[`c${i}`], row[`s${i}`]].filter((k): k is string => k != null).sort(compareKeys).at(-1))]),
  );
}

export interface Placement {
  parentId: string | null;
  position: string;
}

/**
 * Where an item goes when placed before or after the space `anchorSpaceId`: under the anchor's parent,
 * between the anchor and its neighbour. Throws NotFound when the anchor is not a space of the
 * organization. Call it holding `lockTree`.
 */
export async function placeNextToSpace(tx: Ctx, organizationId: string, anchorSpaceId: string, side: 'before' | 'after'): Promise<Placement> {
  const [anchor] = await tx.db
    .select({ parentId: spaces.parentId, position: spaces.position })
    .from(spaces)
    .where(and(eq(spaces.id, anchorSpaceId), eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt)));
  if (!anchor) throw new NotFound(`Space ${anchorSpaceId} (body.position.${side}.space) not found in this organization`);
  const neighbour = await neighbourKey(tx, organizationId, anchor.parentId, anchor.position, side);
  const position = side === 'before' ? keyBetween(neighbour, anchor.position) : keyBetween(anchor.position, neighbour);
  return { parentId: anchor.parentId, position };
}

/** What a move body asks: a new parent (null: the top level) and/or a place next to a sibling space. */
export interface MoveRequest {
  parent?: string | null;
  position?: { before?: { space: string }; after?: { space: string } };
}

/**
 * Where a move puts a space or a collection: next to the anchor space (whose parent it then shares; a
 * different `parent` in the same body is a Conflict), or last in `parent`; undefined when the body asks
 * nothing. Call it holding `lockTree`.
 */
export async function placementOfMove(tx: Ctx, organizationId: string, body: MoveRequest): Promise<Placement | undefined> {
  const anchor = body.position?.before ? { side: 'before' as const, space: body.position.before.space } : body.position?.after ? { side: 'after' as const, space: body.position.after.space } : undefined;
  if (anchor) {
    const placement = await placeNextToSpace(tx, organizationId, anchor.space, anchor.side);
    if (body.parent !== undefined && body.parent !== placement.parentId) {
      throw new Conflict(`body.position.${anchor.side}.space: space ${anchor.space} is not in the collection given as body.parent`);
    }
    return placement;
  }
  if (body.parent === undefined) return undefined;
  return { parentId: body.parent, position: await lastKey(tx, organizationId, body.parent) };
}

/** The ids of a collection and of every collection nested in it, at any depth, in one query. */
export async function collectionSubtree(tx: Ctx, collectionId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(tx.db, sql`
    WITH RECURSIVE subtree(id) AS (
      SELECT ${collectionId}::text
      UNION
      SELECT c.id FROM ${collections} c JOIN subtree ON c.parent_id = subtree.id
    )
    SELECT id FROM subtree`);
  return rows.map((r) => r.id);
}
