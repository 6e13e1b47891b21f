// References to what is outside a revision but stored here: another space (`{kind: 'space'}`) and a user
// (`{kind: 'user'}`, mentions). The published site and the link checker read them the same way
// (docs/content.md): a space of the organization that is not in the trash, and a member of the
// organization, are what they resolve to; anything else resolves to nothing (the checker: broken; the site:
// the link's text, no link). The site links a space to its URL on this site when this site publishes it, else
// on the first published site that does (server/sites/space-published-url.ts), else to its app URL; a user is
// their display name.
import { childrenOf } from './document-walk.js';
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { members, spaces, users } from '../db/schema/index.js';
import { spacePublishedUrl } from '../sites/space-published-url.js';
import type { FoundLink } from './links.js';
import type { Block } from './markdown-document.js';

/** What the site shows for the spaces and users a page refers to. */
export interface ElsewhereTargets {
  spaces: Map<string, { title: string; url: string }>;
  users: Map<string, { displayName: string }>;
}

/** At most this many spaces and users are looked up for one page (the rest link nowhere). */
const MAX_IDS = 50;

type Node = NonNullable<Block['nodes']>[number];

/** The spaces and users the nodes refer to. */
export function elsewhereIdsOf(nodes: Node[], found = { spaces: new Set<string>(), users: new Set<string>() }) {
  for (const node of nodes) {
    if (node.object === 'text') continue;
    const ref = (node.data as { ref?: { kind?: unknown; space?: unknown; user?: unknown } } | undefined)?.ref;
    if (ref?.kind === 'space' && typeof ref.space === 'string' && found.spaces.size < MAX_IDS) found.spaces.add(ref.space);
    if (ref?.kind === 'user' && typeof ref.user === 'string' && found.users.size < MAX_IDS) found.users.add(ref.user);
    elsewhereIdsOf(childrenOf<Node>(node), found);
  }
  return found;
}

/** The spaces (of the organization, not in the trash: their titles) and users (members: their names) of those ids. */
async function known(db: Ctx['db'], organizationId: string, ids: { spaces: Set<string>; users: Set<string> }) {
  const [spaceRows, userRows] = await Promise.all([
    ids.spaces.size === 0
      ? []
      : db.select({ id: spaces.id, title: spaces.title }).from(spaces).where(and(inArray(spaces.id, [...ids.spaces]), eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt))),
    ids.users.size === 0
      ? []
      : db
          .select({ id: users.id, displayName: users.displayName })
          .from(users)
          .innerJoin(members, and(eq(members.userId, users.id), eq(members.organizationId, organizationId)))
          .where(inArray(users.id, [...ids.users])),
  ]);
  return { spaces: new Map(spaceRows.map((r) => [r.id, r.title])), users: new Map(userRows.map((r) => [r.id, r.displayName])) };
}

/**
 * What the site shows for the spaces and users of a page's nodes (undefined when it names none, so a page
 * without them costs no query). `hrefOnSite` is a space's URL on the site rendering the page, when it publishes it.
 */
export async function siteElsewhere(
  ctx: Pick<Ctx, 'db' | 'urls'>,
  organizationId: string,
  nodes: Node[],
  hrefOnSite: (spaceId: string) => string | undefined,
): Promise<ElsewhereTargets | undefined> {
  const ids = elsewhereIdsOf(nodes);
  if (ids.spaces.size === 0 && ids.users.size === 0) return undefined;
  const found = await known(ctx.db, organizationId, ids);
  const targets: ElsewhereTargets = { spaces: new Map(), users: new Map() };
  for (const [id, title] of found.spaces) {
    const url = hrefOnSite(id) ?? (await spacePublishedUrl(ctx, id, undefined)) ?? ctx.urls.app(`/s/${id}`);
    targets.spaces.set(id, { title, url });
  }
  for (const [id, displayName] of found.users) targets.users.set(id, { displayName });
  return targets;
}

/** Spaces and users looked up already (elsewhere-attached.ts): the ids looked up, and those `known` would find. */
export interface ElsewhereLookup {
  looked: { spaces: ReadonlySet<string>; users: ReadonlySet<string> };
  found: { spaces: ReadonlySet<string>; users: ReadonlySet<string> };
}

const within = (ids: Set<string>, looked: ReadonlySet<string>) => [...ids].every((id) => looked.has(id));

/**
 * The links with those to spaces and users that resolve to nothing (as the site sees them) marked broken;
 * `lookup`: what was looked up already, used when it looked up every id the links name.
 */
export async function checkElsewhereLinks(ctx: Ctx, organizationId: string, links: FoundLink[], lookup?: ElsewhereLookup): Promise<FoundLink[]> {
  const ids = { spaces: new Set<string>(), users: new Set<string>() };
  for (const { target } of links) {
    if (target.kind === 'space') ids.spaces.add(target.space);
    if (target.kind === 'user') ids.users.add(target.user);
  }
  if (ids.spaces.size === 0 && ids.users.size === 0) return links;
  const looked = lookup && within(ids.spaces, lookup.looked.spaces) && within(ids.users, lookup.looked.users);
  const found = looked ? lookup.found : await known(ctx.db, organizationId, ids);
  return links.map((link) => {
    const { target } = link;
    const missing = (target.kind === 'space' && !found.spaces.has(target.space)) || (target.kind === 'user' && !found.users.has(target.user));
    return missing ? { ...link, status: 'broken' as const } : link;
  });
}

/** A key of what the targets say, for the rendered page's cache: a renamed space or user renders the page again. */
export function elsewhereKey(targets: ElsewhereTargets): string {
  return createHash('sha256').update(JSON.stringify([[...targets.spaces], [...targets.users]])).digest('base64url');
}
