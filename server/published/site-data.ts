// What the published site reads from the database: the site (by its path under PUBLISHED_URL or by its
// custom hostname), its sections and site spaces with their spaces, and a space's page tree at its current
// revision. Revisions never change, so a page tree is kept per revision id (no query once cached).
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { childrenOf, type StoredPage } from '../content/revision-content.js';
import { loadRevision } from '../content/revisions.store.js';
import type { Db } from '../db/client.js';
import { organizations, siteSections, sites, siteSpaces, spaces } from '../db/schema/index.js';
import type { ItemRow, SiteRow, SiteSpaceRow } from '../sites/site-view.js';

export interface OrgRef {
  id: string;
  hostname: string | null;
}

export interface FoundSite {
  site: SiteRow;
  org: OrgRef;
}

const siteWithOrg = { site: sites, org: { id: organizations.id, hostname: organizations.hostname } };

/**
 * The site at `/<org>/<site>` under PUBLISHED_URL: the organization by hostname or id, the site by basename or
 * id (an id wins over a basename; among sites sharing a basename, the published one, then the oldest).
 */
export async function findSiteByPath(db: Db, orgKey: string, siteKey: string): Promise<FoundSite | undefined> {
  const [row] = await db
    .select(siteWithOrg)
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(and(or(eq(organizations.id, orgKey), eq(organizations.hostname, orgKey)), or(eq(sites.id, siteKey), eq(sites.basename, siteKey))))
    .orderBy(sql`${sites.id} = ${siteKey} DESC`, sql`${sites.published} DESC`, asc(sites.id))
    .limit(1);
  return row;
}

/** The site whose custom hostname is `hostname`. */
export async function findSiteByHost(db: Db, hostname: string): Promise<FoundSite | undefined> {
  const [row] = await db
    .select(siteWithOrg)
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(eq(sites.hostname, hostname))
    .limit(1);
  return row;
}

export interface PublishedSpace {
  id: string;
  title: string;
  revisionId: string;
  createdAt: Date;
}

export interface SiteStructure {
  items: ItemRow[];
  /** Site spaces of spaces that are not in the trash, in their order, each with its space. */
  siteSpaces: { row: SiteSpaceRow; space: PublishedSpace }[];
}

/** The sections, groups and site spaces of a site, in two queries; spaces in the trash are left out. */
export async function loadStructure(db: Db, siteId: string): Promise<SiteStructure> {
  const items = await db.select().from(siteSections).where(eq(siteSections.siteId, siteId)).orderBy(asc(siteSections.position), asc(siteSections.id));
  const rows = await db
    .select({ row: siteSpaces, space: { id: spaces.id, title: spaces.title, revisionId: spaces.revisionId, createdAt: spaces.createdAt } })
    .from(siteSpaces)
    .innerJoin(spaces, and(eq(spaces.id, siteSpaces.spaceId), isNull(spaces.deletedAt)))
    .where(eq(siteSpaces.siteId, siteId))
    .orderBy(sql`${siteSpaces.position} COLLATE "C"`, asc(siteSpaces.id));
  return { items, siteSpaces: rows };
}

export interface TreePage {
  page: StoredPage;
  /** Slugs from the root, joined by `/`. */
  path: string;
  depth: number;
}

export interface SpaceTree {
  revisionId: string;
  /** Every page, depth first in sidebar order. */
  pages: TreePage[];
  byPath: Map<string, TreePage>;
}

const trees = new LRUCache<string, SpaceTree>({ max: 500 });

/** The page tree of a space at its current revision. */
export async function spaceTree(db: Db, space: PublishedSpace): Promise<SpaceTree> {
  const cached = trees.get(space.revisionId);
  if (cached) return cached;
  const { content } = await loadRevision(db, space.revisionId, space.createdAt);
  const pages: TreePage[] = [];
  const visit = (parent: string | null, prefix: string, depth: number) => {
    for (const page of childrenOf(content, parent)) {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      pages.push({ page, path, depth });
      if (depth < 20) visit(page.id, path, depth + 1);
    }
  };
  visit(null, '', 0);
  const tree = { revisionId: space.revisionId, pages, byPath: new Map(pages.map((p) => [p.path, p])) };
  trees.set(space.revisionId, tree);
  return tree;
}
