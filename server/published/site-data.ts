// What the published site reads from the database: the site, with the stamp of what its pages are made of
// (by its path under PUBLISHED_URL or by its custom hostname), its sections and site spaces with their
// spaces (kept per stamp), and a space's page tree at its current revision. Revisions never change, so a
// page tree is kept per revision id (no query once cached). A caller may have its statement answer one more
// column computed from the site (`SiteAlong`: URL resolution's page trees and redirects, server/headless/).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { RefResolver } from '../content/ref-resolver.js';
import { childrenOf, type RevisionContent, type StoredPage } from '../content/revision-content.js';
import { loadRevision } from '../content/revisions.store.js';
import { directQuery, tableRow, type Db } from '../db/client.js';
import { siteSections, sites, siteSpaces, spaces } from '../db/schema/index.js';
import { siteScriptsJsonSql } from '../sites/site-scripts.js';
import { siteEventSubscribersJsonSql, siteEventSubscribersOf, type SiteEventSubscriber } from '../integrations/site-visitor-events.js';
import type { ItemRow, SiteRow, SiteSpaceRow } from '../sites/site-view.js';
import { heldSitesOf } from './served-sites.js';

export interface OrgRef {
  id: string;
  hostname: string | null;
}

export interface FoundSite {
  site: SiteRow;
  org: OrgRef;
  /**
   * The site's `served_stamp`: the database makes a new one at every change of what a served page of the
   * site is made of (its row, sections and groups, site spaces with their spaces' current revision, title and
   * trash state, its live redirects, its organization's hostname, the scripts of the integrations installed on
   * it: the triggers of migration 0045), whoever writes. What is cached under it (the structure below, the
   * live redirects in resolve.ts, the page cache) is never served after a change, by this process or any
   * other sharing the database.
   */
  stamp: string;
  /** What siteScriptsJsonSql answered (server/sites/site-scripts.ts). */
  scripts: unknown;
  /** The installations that receive its visitors' events (server/integrations/site-visitor-events.ts). */
  subscribers: SiteEventSubscriber[];
}

// The caller gives the stamp it holds (parameter `known`): when it is still the site's stamp, the answer is
// the site's id and stamp only, as the site, its scripts and its structure are what the caller already holds
// (a site row is wide: sending it was most of the statement's cost on PGlite). When it is not, they come in
// the same statement and snapshot as the stamp (the structure as loadStructure orders it), so a site read
// anew costs one statement, not three. A CASE computes its branch only when taken, so the steady state reads
// one row of sites and one of organizations. coalesce keeps an empty list a list.
// `along`: a column more, computed from the site's row `f` (SiteAlong), whatever the stamp.
const served = (where: string, order: string, known: string, along = '') => `SELECT f.id, f.served_stamp,${along && ` ${along} AS along,`}
    CASE WHEN f.served_stamp IS DISTINCT FROM ${known} THEN row_to_json(f) END AS site,
    CASE WHEN f.served_stamp IS DISTINCT FROM ${known} THEN ${siteScriptsJsonSql('f.id')} END AS scripts,
    CASE WHEN f.served_stamp IS DISTINCT FROM ${known} THEN ${siteEventSubscribersJsonSql('f.id')} END AS subscribers,
    CASE WHEN f.served_stamp IS DISTINCT FROM ${known} THEN json_build_object(
      'items', (SELECT coalesce(json_agg(i ORDER BY i.position, i.id), '[]') FROM site_sections i WHERE i.site_id = f.id),
      'siteSpaces', (SELECT coalesce(json_agg(json_build_object('row', ss, 'space', json_build_object('id', p.id, 'title', p.title, 'revision_id', p.revision_id, 'created_at', p.created_at))
                       ORDER BY ss.position COLLATE "C", ss.id), '[]')
                     FROM site_spaces ss JOIN spaces p ON p.id = ss.space_id AND p.deleted_at IS NULL WHERE ss.site_id = f.id)) END AS structure
  FROM (SELECT s.*, o.hostname AS org_hostname FROM sites s JOIN organizations o ON o.id = s.organization_id
        WHERE ${where} ${order} LIMIT 1) f`;

const pathWhere = ['(o.id = $1 OR o.hostname = $1) AND (s.id = $2 OR s.basename = $2)', 'ORDER BY s.id = $2 DESC, s.published DESC, s.id', '$3'] as const;
const hostWhere = ['s.hostname = $1', '', '$2'] as const;
const pathStatement: SiteStatement = { name: 'published_site_by_path', text: served(...pathWhere) };
const hostStatement: SiteStatement = { name: 'published_site_by_host', text: served(...hostWhere) };

/**
 * What a caller reads with the site in its statement: a column computed from the site's row `f` (its SQL, given
 * the number of its first parameter, which follow the site's own), named `name` among the prepared statements.
 */
export interface SiteAlong {
  name: string;
  column: (first: number) => string;
  params: unknown[];
}

/** The statement texts with each `along` column, by its name and the where they are added to. */
const alongTexts = new Map<string, string>();

function withAlong(kind: 'path' | 'host', along: SiteAlong): SiteStatement {
  const name = `published_site_by_${kind}_${along.name}`;
  let text = alongTexts.get(name);
  if (text === undefined) {
    const [where, order, known] = kind === 'path' ? pathWhere : hostWhere;
    text = served(where, order, known, along.column(kind === 'path' ? 4 : 3));
    alongTexts.set(name, text);
  }
  return { name, text, alongParams: along.params };
}

// The structure of each site, as of a stamp: read with the site when the stamp changed (findSite).
const structures = new LRUCache<string, { stamp: string; structure: SiteStructure }>({ max: 1000 });

// The site last found under each key (`path\0<org>\0<site>`, `host\0<hostname>`): its stamp is sent as the
// statement's `known`, and it is answered again while the stamp is the same. Shared by every request, so
// never changed by one.
const lastFound = new LRUCache<string, FoundSite>({ max: 1000 });

type RawStructure = { items: Record<string, unknown>[]; siteSpaces: { row: Record<string, unknown>; space: Record<string, unknown> }[] };

function structureFrom(raw: RawStructure): SiteStructure {
  return {
    items: raw.items.map((item) => tableRow(siteSections, item)),
    siteSpaces: raw.siteSpaces.map(({ row, space }) => ({
      row: tableRow(siteSpaces, row),
      space: { id: space.id as string, title: space.title as string, revisionId: space.revision_id as string, createdAt: new Date(space.created_at as string) },
    })),
  };
}

/** A site found, with what its statement read `along` (undefined when no statement was sent: the site was held). */
interface FoundWith {
  found: FoundSite;
  along?: unknown;
}

/** The statement that reads a site: its prepared name, its text, the parameters after the site's own and its known stamp. */
interface SiteStatement {
  name: string;
  text: string;
  alongParams?: unknown[];
}

/** `statement` is made only when one is sent (a held site needs none). */
async function findSite(db: Db, key: string, params: string[], statement: () => SiteStatement): Promise<FoundWith | undefined> {
  // While this process hears every change of a site (served-sites.ts), the site it holds is the site now.
  const held = heldSitesOf(db);
  const kept = await held?.get(key);
  if (kept) return { found: kept };
  const told = held?.version();
  const { name, text, alongParams = [] } = statement();
  const read = await readSite(db, key, name, text, params, alongParams);
  if (read && told !== undefined) held!.keep(key, read.found, told);
  return read;
}

/** The site under `key` as the database has it now: one statement, which sends the site only when its stamp is not the one last read. */
async function readSite(db: Db, key: string, name: string, text: string, params: string[], alongParams: unknown[]): Promise<FoundWith | undefined> {
  const known = lastFound.get(key);
  const [raw] = await directQuery(db, name, text, [...params, known?.stamp ?? '', ...alongParams]);
  if (!raw) return undefined;
  if (raw.site == null && known && raw.served_stamp === known.stamp && raw.id === known.site.id) return { found: known, along: raw.along };
  // The row comes as its JSON (row_to_json): the column mappers take its text timestamps and parsed JSON alike.
  const row = raw.site as Record<string, unknown>;
  const site = tableRow(sites, row);
  const found: FoundSite = { site, org: { id: site.organizationId, hostname: (row.org_hostname as string | null) ?? null }, stamp: raw.served_stamp as string, scripts: raw.scripts, subscribers: siteEventSubscribersOf(raw.subscribers) };
  lastFound.set(key, found);
  structures.set(site.id, { stamp: found.stamp, structure: structureFrom(raw.structure as RawStructure) });
  return { found, along: raw.along };
}

/**
 * The site at `/<org>/<site>` under PUBLISHED_URL: the organization by hostname or id, the site by basename or
 * id (an id wins over a basename; among sites sharing a basename, the published one, then the oldest). One
 * statement, prepared: every request of a reader runs it.
 */
export async function findSiteByPath(db: Db, orgKey: string, siteKey: string): Promise<FoundSite | undefined> {
  return (await findSite(db, `path\u0000${orgKey}\u0000${siteKey}`, [orgKey, siteKey], () => pathStatement))?.found;
}

/** The site whose custom hostname is `hostname`. */
export async function findSiteByHost(db: Db, hostname: string): Promise<FoundSite | undefined> {
  return (await findSite(db, `host\u0000${hostname}`, [hostname], () => hostStatement))?.found;
}

/** findSiteByPath, with what `along` answers read in the same statement when one is sent (`along` is called then only). */
export function findSiteByPathWith(db: Db, orgKey: string, siteKey: string, along: () => SiteAlong): Promise<FoundWith | undefined> {
  return findSite(db, `path\u0000${orgKey}\u0000${siteKey}`, [orgKey, siteKey], () => withAlong('path', along()));
}

/** findSiteByHost, likewise. */
export function findSiteByHostWith(db: Db, hostname: string, along: () => SiteAlong): Promise<FoundWith | undefined> {
  return findSite(db, `host\u0000${hostname}`, [hostname], () => withAlong('host', along()));
}

/** The site this process last found at `/<org>/<site>`, for a caller's `along` column that depends on what it holds. */
export function lastFoundByPath(orgKey: string, siteKey: string): FoundSite | undefined {
  return lastFound.get(`path\u0000${orgKey}\u0000${siteKey}`);
}

/** The site this process last found at the custom hostname `hostname`, likewise. */
export function lastFoundByHost(hostname: string): FoundSite | undefined {
  return lastFound.get(`host\u0000${hostname}`);
}

/** The structure of the site `found` names that this process holds, as of whichever stamp it was read at. */
export function heldStructure(found: FoundSite): SiteStructure | undefined {
  return structures.get(found.site.id)?.structure;
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


/** The structure of the site `found` names, as of its stamp (no query while the stamp is the same). */
export async function structureOf(db: Db, found: FoundSite): Promise<SiteStructure> {
  const cached = structures.get(found.site.id);
  if (cached?.stamp === found.stamp) return cached.structure;
  const structure = await loadStructure(db, found.site.id);
  // Read after the stamp: at least as new as what it describes, so never older than a later reader expects.
  structures.set(found.site.id, { stamp: found.stamp, structure });
  return structure;
}

/**
 * The two selects of the structure of a site as loadStructure reads it: its sections and groups, and its
 * site spaces with their spaces (those in the trash left out).
 */
export function structureSelects(db: Db, siteId: string) {
  return {
    items: db.select().from(siteSections).where(eq(siteSections.siteId, siteId)).orderBy(asc(siteSections.position), asc(siteSections.id)),
    siteSpaces: db
      .select({ row: siteSpaces, space: { id: spaces.id, title: spaces.title, revisionId: spaces.revisionId, createdAt: spaces.createdAt } })
      .from(siteSpaces)
      .innerJoin(spaces, and(eq(spaces.id, siteSpaces.spaceId), isNull(spaces.deletedAt)))
      .where(eq(siteSpaces.siteId, siteId))
      .orderBy(sql`${siteSpaces.position} COLLATE "C"`, asc(siteSpaces.id)),
  };
}

/** The sections, groups and site spaces of a site, in two queries; spaces in the trash are left out. */
export async function loadStructure(db: Db, siteId: string): Promise<SiteStructure> {
  const selects = structureSelects(db, siteId);
  return { items: await selects.items, siteSpaces: await selects.siteSpaces };
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

/** The page tree (with its Documents) this process holds of the revision `revisionId`. */
export function heldTree(revisionId: string): SpaceTree | undefined {
  return trees.get(revisionId);
}

/** Reads a page tree (spaceTree, or one without Documents: outline-trees.ts). */
export type TreeRead = (db: Db, space: PublishedSpace) => Promise<SpaceTree>;

/** The page tree of a space at its current revision. */
export async function spaceTree(db: Db, space: PublishedSpace): Promise<SpaceTree> {
  const cached = trees.get(space.revisionId);
  if (cached) return cached;
  const { content, parents } = await loadRevision(db, space.revisionId, space.createdAt);
  const tree = treeOf(space.revisionId, parents, content);
  trees.set(space.revisionId, tree);
  return tree;
}

/** The tree of the revision `revisionId`'s content: its pages depth first, each with its path. */
export function treeOf(revisionId: string, parents: string[], content: RevisionContent): SpaceTree {
  const pages: TreePage[] = [];
  const visit = (parent: string | null, prefix: string, depth: number) => {
    for (const page of childrenOf(content, parent)) {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      pages.push({ page, path, depth });
      if (depth < 20) visit(page.id, path, depth + 1);
    }
  };
  visit(null, '', 0);
  return { revisionId, parents, content, refs: new RefResolver(content), pages, byPath: new Map(pages.map((p) => [p.path, p])) };
}
