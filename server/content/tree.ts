// The content tree of an organization: collections nest, and spaces and collections are ordered
// among the items of their parent by a `position` number.
import { and, eq, gt, inArray, isNull, lt, max, min, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { collections, spaces } from '../db/schema.js';
import { BadRequest } from '../http/errors.js';

function sameParent(table: typeof collections | typeof spaces, organizationId: string, parentId: string | null): SQL | undefined {
  return and(eq(table.organizationId, organizationId), parentId === null ? isNull(table.parentId) : eq(table.parentId, parentId));
}

/**
 * The position of the nearest item (space or collection) under `parentId` before or after `position`,
 * or undefined when there is none on that side.
 */
async function neighbourPosition(
  db: Db,
  organizationId: string,
  parentId: string | null,
  position: number,
  side: 'before' | 'after',
): Promise<number | undefined> {
  const nearest = side === 'before' ? max : min;
  const beyond = side === 'before' ? lt : gt;
  const [[c], [s]] = await Promise.all([
    db
      .select({ p: nearest(collections.position) })
      .from(collections)
      .where(and(sameParent(collections, organizationId, parentId), beyond(collections.position, position))),
    db
      .select({ p: nearest(spaces.position) })
      .from(spaces)
      .where(and(sameParent(spaces, organizationId, parentId), isNull(spaces.deletedAt), beyond(spaces.position, position))),
  ]);
  const found = [c?.p, s?.p].filter((p): p is number => p != null);
  if (found.length === 0) return undefined;
  return side === 'before' ? Math.max(...found) : Math.min(...found);
}

/** A position after every item currently under `parentId`. */
export async function lastPosition(db: Db, organizationId: string, parentId: string | null): Promise<number> {
  const [[c], [s]] = await Promise.all([
    db.select({ p: max(collections.position) }).from(collections).where(sameParent(collections, organizationId, parentId)),
    db.select({ p: max(spaces.position) }).from(spaces).where(sameParent(spaces, organizationId, parentId)),
  ]);
  return Math.max(c?.p ?? 0, s?.p ?? 0) + 1;
}

export interface Placement {
  parentId: string | null;
  position: number;
}

/**
 * Where an item goes when placed before or after the space `anchorSpaceId`: under the anchor's parent,
 * between the anchor and its neighbour. Throws BadRequest when the anchor is not a space of the organization.
 */
export async function placeNextToSpace(
  db: Db,
  organizationId: string,
  anchorSpaceId: string,
  side: 'before' | 'after',
): Promise<Placement> {
  const [anchor] = await db
    .select({ parentId: spaces.parentId, position: spaces.position })
    .from(spaces)
    .where(and(eq(spaces.id, anchorSpaceId), eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt)));
  if (!anchor) throw new BadRequest(`Invalid request: body.position.${side}.space: space ${anchorSpaceId} not found in this organization`);
  const neighbour = await neighbourPosition(db, organizationId, anchor.parentId, anchor.position, side);
  const position = neighbour !== undefined ? (neighbour + anchor.position) / 2 : anchor.position + (side === 'before' ? -1 : 1);
  return { parentId: anchor.parentId, position };
}

/** The ids of a collection and of every collection nested in it, at any depth. */
export async function collectionSubtree(db: Db, collectionId: string): Promise<string[]> {
  const ids = [collectionId];
  for (let frontier = [collectionId]; frontier.length > 0; ) {
    const children = await db.select({ id: collections.id }).from(collections).where(inArray(collections.parentId, frontier));
    frontier = children.map((c) => c.id);
    ids.push(...frontier);
  }
  return ids;
}
