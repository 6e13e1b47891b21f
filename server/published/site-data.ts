// What the published site reads from the database: the site, with the stamp of what its pages are made of
// (by its path under PUBLISHED_URL or by its custom hostname), its sections and site spaces with their
// spaces (kept per stamp), and a space's page tree at its current revision. Revisions never change, so a
// page tree is kept per revision id (no query once cached).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { RefResolver } from '../content/ref-resolver.js';
import { childrenOf, type RevisionContent, type StoredPage } from '../content/revision-content.js';
import { loadRevision } from '../content/revisions.store.js';
import { directQuery, tableRow, type Db } from '../db/client.js';
import { siteSections, sites, siteSpaces, spaces } from '../db/schema/index.js';
import { siteScriptsJsonSql } from '../sites/site-scripts.js';
import type { ItemRow, SiteRow, SiteSpaceRow } from '../sites/site-view.js';

export interface OrgRef {
  id: string;
  hostname: string | null;
}

export interface FoundSite {
  site: SiteRow;
  org: OrgRef;
  /**
   * A digest of everything a served page of the site is made of, read with the site: the site row (visibility,
   * publication, customization, adaptive schema, defaults…), its sections and groups, its site spaces (with
   * their customization) and their spaces' current revision, title and trash state, the scripts of the integrations installed on
   * it, and its live redirects (their number and latest change: any create, update, publish or delete changes one). Any change to one of them changes the stamp, so what is cached under it (structure.ts below, the page
   * cache) is never served after the change, by this process or any other sharing the database.
   */
  stamp: string;
  /** What siteScriptsJsonSql answered (server/sites/site-scripts.ts). */
  scripts: unknown;
}

// The site is chosen in a subquery, so the stamp and the scripts are computed for that one row only.
// coalesce keeps each part in its place when one is empty.
const served = (where: string, order: string) => `SELECT f.*, x.scripts, md5(concat_ws('|',
    row_to_json(f)::text,
    coalesce(x.scripts::text, ''),
    coalesce((SELECT json_agg(i ORDER BY i.id)::text FROM site_sections i WHERE i.site_id = f.id), ''),
    coalesce((SELECT json_agg(json_build_array(ss.id, ss.section_id, ss.space_id, ss.path, ss.condition, ss.position, ss.customization,
                p.revision_id, p.title, p.deleted_at IS NULL) ORDER BY ss.id)::text
              FROM site_spaces ss JOIN spaces p ON p.id = ss.space_id WHERE ss.site_id = f.id), ''),
    (SELECT count(*) || '/' || coalesce(max(coalesce(r.updated_at, r.created_at))::text, '') FROM site_redirects r WHERE r.site_id = f.id AND NOT r.draft))) AS served_stamp
  FROM (SELECT s.*, o.hostname AS org_hostname FROM sites s JOIN organizations o ON o.id = s.organization_id
        WHERE ${where} ${order} LIMIT 1) f
  CROSS JOIN LATERAL (SELECT ${siteScriptsJsonSql('f.id')} AS scripts) x`;

const byPath = served('(o.id = $1 OR o.hostname = $1) AND (s.id = $2 OR s.basename = $2)', 'ORDER BY s.id = $2 DESC, s.published DESC, s.id');
const byHost = served('s.hostname = $1', '');

function foundSite(raw: Record<string, unknown> | undefined): FoundSite | undefined {
  if (!raw) return undefined;
  const site = tableRow(sites, raw);
  return { site, org: { id: site.organizationId, hostname: (raw.org_hostname as string | null) ?? null }, stamp: raw.served_stamp as string, scripts: raw.scripts };
}

/**
 * The site at `/<org>/<site>` under PUBLISHED_URL: the organization by hostname or id, the site by basename or
 * id (an id wins over a basename; among sites sharing a basename, the published one, then the oldest). One
 * statement, prepared: every request of a reader runs it.
 */
export async function findSiteByPath(db: Db, orgKey: string, siteKey: string): Promise<FoundSite | undefined> {
  const [raw] = await directQuery(db, 'published_site_by_path', byPath, [orgKey, siteKey]);
  return foundSite(raw);
}

/** The site whose custom hostname is `hostname`. */
export async function findSiteByHost(db: Db, hostname: string): Promise<FoundSite | undefined> {
  const [raw] = await directQuery(db, 'published_site_by_host', byHost, [hostname]);
  return foundSite(raw);
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

// The structure of each site, as of a stamp: read again only when the stamp changed.
const structures = new LRUCache<string, { stamp: string; structure: SiteStructure }>({ max: 1000 });

/** The structure of the site `found` names, as of its stamp (no query while the stamp is the same). */
export async function structureOf(db: Db, found: FoundSite): Promise<SiteStructure> {
  const cached = structures.get(found.site.id);
  if (cached?.stamp === found.stamp) return cached.structure;
  const structure = await loadStructure(db, found.site.id);
  // Read after the stamp: at least as new as what it describes, so never older than a later reader expects.
  structures.set(found.site.id, { stamp: found.stamp, structure });
  return structure;
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
  /** The revisions it was made from (where a page that moved was before: server/headless/moved-pages.ts). */
  parents: string[];
  /** The revision's content (its files, for the site's file URLs), and its references' resolver. */
  content: RevisionContent;
  refs: RefResolver;
  /** Every page, depth first in sidebar order. */
  pages: TreePage[];
  byPath: Map<string, TreePage>;
}

const trees = new LRUCache<string, SpaceTree>({ max: 500 });

/** The page tree of a space at its current revision. */
export async function spaceTree(db: Db, space: PublishedSpace): Promise<SpaceTree> {
  const cached = trees.get(space.revisionId);
  if (cached) return cached;
  const { content, parents } = await loadRevision(db, space.revisionId, space.createdAt);
  const pages: TreePage[] = [];
  const visit = (parent: string | null, prefix: string, depth: number) => {
    for (const page of childrenOf(content, parent)) {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      pages.push({ page, path, depth });
      if (depth < 20) visit(page.id, path, depth + 1);
    }
  };
  visit(null, '', 0);
  const tree = { revisionId: space.revisionId, parents, content, refs: new RefResolver(content), pages, byPath: new Map(pages.map((p) => [p.path, p])) };
  trees.set(space.revisionId, tree);
  return tree;
}
