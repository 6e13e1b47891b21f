// The redirects of a site (contract/site-redirects.ts): stored rows, their API form, the checks of their
// destinations (ids of this site; a `path` destination becomes the page it names), and which live redirect a
// path follows. Where a destination leads is computed where the site's URLs are known (server/headless/).
import { and, asc, count, desc, eq, ilike, inArray, not, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { SiteRedirectInputDestination, siteRedirectOperations } from '../../contract/site-redirects.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { attachAll, attachListPage, attachSelect, pageOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { RefResolver } from '../content/ref-resolver.js';
import { loadRevision } from '../content/revisions.store.js';
import { afterCursor, orderOf, pageLimit, type SortKey } from '../db/cursor.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { siteRedirects, siteSections, siteSpaces, spaces } from '../db/schema/index.js';
import { Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { containsPattern, finishPage, totalField } from '../members/directed-page.js';
import { requireGrantedSite, requireSite, siteSelect } from './structure.js';
import type { SiteRow } from './site-view.js';
import { literalLimit } from '../db/literal-limit.js';

export type SiteRedirect = components['schemas']['SiteRedirect'];
export type SiteRedirectRow = typeof siteRedirects.$inferSelect;
type InputDestination = z.output<typeof SiteRedirectInputDestination>;
type Destination = SiteRedirect['destination'];
type ListQuery = z.output<typeof siteRedirectOperations.listSiteRedirects.query>;
type CreateBody = z.output<typeof siteRedirectOperations.createSiteRedirect.body>;
type UpdateBody = z.output<typeof siteRedirectOperations.updateSiteRedirectById.body>;
type BulkBody = z.output<typeof siteRedirectOperations.bulkUpsertSiteRedirects.body>;
type BulkResult = components['schemas']['BulkUpsertSiteRedirectsResult']['results'][number];

export function toSiteRedirect(row: SiteRedirectRow): SiteRedirect {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    draft: row.draft,
    captureWildcard: row.captureWildcard,
    permanent: row.permanent,
    destination: row.destination as Destination,
    createdAt: row.createdAt.toISOString(),
    ...(row.updatedAt && { updatedAt: row.updatedAt.toISOString() }),
  };
}

/** The destination as stored: every id checked against the site (404 naming `field`), a `path` turned into its page. */
async function storedDestination(ctx: Ctx, site: SiteRow, input: InputDestination, field: string): Promise<Destination> {
  switch (input.kind) {
    case 'external':
      return input;
    case 'site-section': {
      const [row] = await ctx.db.select({ id: siteSections.id }).from(siteSections)
        .where(and(eq(siteSections.id, input.siteSectionId), eq(siteSections.siteId, site.id), eq(siteSections.kind, 'section')));
      if (!row) throw new NotFound(`${field}.siteSectionId: no section ${input.siteSectionId} in this site`);
      return input;
    }
    case 'site-space': {
      await siteSpaceOf(ctx, site, input.siteSpaceId, `${field}.siteSpaceId`);
      return input;
    }
    case 'site-page': {
      const space = await siteSpaceOf(ctx, site, input.siteSpaceId, `${field}.siteSpaceId`);
      const refs = new RefResolver((await loadRevision(ctx.db, space.revisionId, space.createdAt, { documents: false, git: false })).content);
      if (!refs.page(input.pageId)) throw new NotFound(`${field}.pageId: no page ${input.pageId} in the space of site space ${input.siteSpaceId}`);
      return input;
    }
    case 'path': {
      const [row] = await ctx.db
        .select({ siteSpaceId: siteSpaces.id, revisionId: spaces.revisionId, createdAt: spaces.createdAt })
        .from(siteSpaces)
        .innerJoin(spaces, eq(spaces.id, siteSpaces.spaceId))
        .where(and(eq(siteSpaces.siteId, site.id), eq(siteSpaces.spaceId, input.spaceId)))
        .orderBy(asc(siteSpaces.id))
        .limit(1);
      if (!row) throw new NotFound(`${field}.spaceId: the site publishes no space ${input.spaceId}`);
      // Paths only: the pages' metadata, not their Documents.
      const { content } = await loadRevision(ctx.db, row.revisionId, row.createdAt, { documents: false, git: false });
      const refs = new RefResolver(content);
      const wanted = input.path.replace(/^\/+|\/+$/g, '');
      const page = content.pages.find((p) => refs.pathOf(p) === wanted);
      if (!page) throw new NotFound(`${field}.path: no page at ${input.path} in space ${input.spaceId}`);
      return { kind: 'site-page', siteSpaceId: row.siteSpaceId, pageId: page.id };
    }
  }
}

async function siteSpaceOf(ctx: Ctx, site: SiteRow, siteSpaceId: string, field: string) {
  const [row] = await ctx.db
    .select({ revisionId: spaces.revisionId, createdAt: spaces.createdAt })
    .from(siteSpaces)
    .innerJoin(spaces, eq(spaces.id, siteSpaces.spaceId))
    .where(and(eq(siteSpaces.id, siteSpaceId), eq(siteSpaces.siteId, site.id)));
  if (!row) throw new NotFound(`${field}: no site space ${siteSpaceId} in this site`);
  return row;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';

function sourceTaken(source: string, draft: boolean): Conflict {
  return new Conflict(`A ${draft ? 'draft' : 'live'} redirect from ${source} already exists in this site`);
}

/** The sort keys of each order of the list: newest first, or by source (ids break ties). */
function sortOf(orderBy: ListQuery['orderBy']): { keys: SortKey[]; order: 'asc' | 'desc'; cursorOf: (row: SiteRedirectRow) => (string | number)[] } {
  if (orderBy === 'source') return { keys: [{ column: sql`${siteRedirects.source} COLLATE "C"`, kind: 'string' }, { column: siteRedirects.id, kind: 'string' }], order: 'asc', cursorOf: (r) => [r.source, r.id] };
  if (orderBy === 'updatedAt') {
    return {
      keys: [{ column: sql`coalesce(${siteRedirects.updatedAt}, ${siteRedirects.createdAt})`, kind: 'timestamp', cast: 'timestamptz' }, { column: siteRedirects.id, kind: 'string' }],
      order: 'desc',
      cursorOf: (r) => [(r.updatedAt ?? r.createdAt).toISOString(), r.id],
    };
  }
  return { keys: [{ column: siteRedirects.createdAt, kind: 'timestamp', cast: 'timestamptz' }, { column: siteRedirects.id, kind: 'string' }], order: 'desc', cursorOf: (r) => [r.createdAt.toISOString(), r.id] };
}

/**
 * The selects of one page of the redirects of the site `siteId` (the list's filters and order) and of their
 * total, with the select of the site itself. As listSiteRedirects reads them, and attaches them
 * (siteRedirectsAttached).
 */
function siteRedirectsPageSelects(ctx: Ctx, organizationId: string, siteId: string, query: ListQuery) {
  // The draft flag is the column or its negation, not a comparison with a parameter: the grant's statement
  // carries this select, and a prepared statement on PGlite takes no boolean parameter (server/db/sql-literal.mjs).
  const filters: SQL[] = [eq(siteRedirects.siteId, siteId), query.draft ? sql`${siteRedirects.draft}` : not(siteRedirects.draft)];
  // The search text is matched literally: LIKE's wildcards in it are escaped.
  if (query.search) filters.push(ilike(siteRedirects.source, containsPattern(query.search)));
  const { keys, order, cursorOf } = sortOf(query.orderBy);
  const page = { condition: afterCursor(keys, order, query.page), limit: pageLimit(query), cursorOf };
  const total = ctx.db.select({ n: count() }).from(siteRedirects).where(and(...filters));
  const rows = ctx.db
    .select({ redirect: siteRedirects, total: totalField(total) })
    .from(siteRedirects)
    .where(and(...filters, page.condition))
    .orderBy(...orderOf(keys, order))
    .limit(literalLimit(page.limit + 1));
  return { site: siteSelect(ctx, organizationId, siteId), page, rows, total };
}

/** listSiteRedirects' site and first page, attached to its grant (attached-reads.ts); `query` is the operation's, validated. */
export const siteRedirectsAttached: AttachedReadOf = (params, ctx, query) => {
  const { site, ...page } = siteRedirectsPageSelects(ctx, params.organizationId, params.siteId, query as ListQuery);
  return attachAll('site_redirects', attachSelect('site', site), attachListPage('site_redirects', page));
};

/** One page of the redirects of a site (siteRedirectsPageSelects), from the grant's statement when they came with it. */
export async function listSiteRedirects(ctx: Ctx, org: OrganizationGrant, siteId: string, query: ListQuery) {
  const { page, rows, total } = siteRedirectsPageSelects(ctx, org.organization.id, siteId, query);
  await requireGrantedSite(ctx, org, siteId);
  const { items, totalCount } = await pageOf(org.attached, 'site_redirects', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => page.cursorOf(row.redirect), (row) => toSiteRedirect(row.redirect));
}

export async function createSiteRedirect(ctx: Ctx, org: OrganizationGrant, siteId: string, body: CreateBody): Promise<SiteRedirect> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const destination = await storedDestination(ctx, site, body.destination, 'body.destination');
  const now = ctx.now();
  try {
    const [row] = await ctx.db
      .insert(siteRedirects)
      .values({ id: newId('srd', now.getTime()), siteId: site.id, source: body.source, draft: body.draft, captureWildcard: body.captureWildcard, permanent: body.permanent, destination, createdAt: now })
      .returning();
    return toSiteRedirect(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw sourceTaken(body.source, body.draft);
    throw error;
  }
}

async function requireRedirect(ctx: Ctx, siteId: string, redirectId: string): Promise<SiteRedirectRow> {
  const [row] = await ctx.db.select().from(siteRedirects).where(and(eq(siteRedirects.id, redirectId), eq(siteRedirects.siteId, siteId)));
  if (!row) throw new NotFound(`Site redirect ${redirectId} not found`);
  return row;
}

export async function updateSiteRedirect(ctx: Ctx, org: OrganizationGrant, siteId: string, redirectId: string, body: UpdateBody): Promise<SiteRedirect> {
  return ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const current = await requireRedirect(tx, site.id, redirectId);
    const destination = body.destination && (await storedDestination(tx, site, body.destination, 'body.destination'));
    const source = body.source ?? current.source;
    const draft = body.draft ?? current.draft;
    // A draft made live replaces the live redirect of its source, as publishing it in bulk does.
    if (current.draft && !draft) {
      await tx.db.delete(siteRedirects).where(and(eq(siteRedirects.siteId, site.id), eq(siteRedirects.draft, false), eq(siteRedirects.source, source)));
    }
    try {
      const [row] = await tx.db
        .update(siteRedirects)
        .set({
          source,
          draft,
          ...(body.captureWildcard !== undefined && { captureWildcard: body.captureWildcard }),
          ...(body.permanent !== undefined && { permanent: body.permanent }),
          ...(destination && { destination }),
          updatedAt: tx.now(),
        })
        .where(eq(siteRedirects.id, current.id))
        .returning();
      return toSiteRedirect(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw sourceTaken(source, draft);
      throw error;
    }
  });
}

/** Whether a redirect was deleted (false: there was none of that id on the site). */
export async function deleteSiteRedirect(ctx: Ctx, org: OrganizationGrant, siteId: string, redirectId: string): Promise<boolean> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const gone = await ctx.db.delete(siteRedirects).where(and(eq(siteRedirects.id, redirectId), eq(siteRedirects.siteId, site.id))).returning({ id: siteRedirects.id });
  return gone.length > 0;
}

/** Each item on its own (an error in one leaves the others applied), in one transaction holding the site. */
/**
 * The upserts of one request, applied in order to the site's redirects of the sources they name, read in one
 * statement and changed in memory (so an item sees what the items before it did), then written as at most
 * three statements: the rows gone, the rows changed, the rows new. Before, each item read and wrote on its
 * own (two statements a redirect). Deletes go first: a publish replaces the live row of its source, and the
 * unique index on (site, draft, source) must never see both.
 */
export async function bulkUpsertSiteRedirects(ctx: Ctx, org: OrganizationGrant, siteId: string, body: BulkBody): Promise<{ results: BulkResult[] }> {
  return ctx.transaction(async (tx) => {
    const site = await requireSite(tx, org.organization.id, siteId, true);
    const sources = [...new Set(body.redirects.map((item) => item.source))];
    const before = sources.length === 0 ? [] : await tx.db.select().from(siteRedirects).where(and(eq(siteRedirects.siteId, site.id), inArray(siteRedirects.source, sources)));
    const keyOf = (source: string, draft: boolean) => `${draft ? 'draft' : 'live'}\u0000${source}`;
    const rows = new Map(before.map((row) => [keyOf(row.source, row.draft), row]));
    const now = tx.now();
    const results: BulkResult[] = [];
    for (const [i, item] of body.redirects.entries()) {
      const field = `body.redirects[${i}]`;
      if (item.intent === 'publish') {
        const draft = rows.get(keyOf(item.source, true));
        if (!draft) {
          results.push({ status: 'error', source: item.source, draft: true, error: `No draft redirect from ${item.source} to publish` });
          continue;
        }
        rows.delete(keyOf(item.source, true));
        rows.set(keyOf(item.source, false), { ...draft, draft: false, updatedAt: now });
        results.push({ status: 'published', source: item.source, draft: false, id: draft.id });
        continue;
      }
      const draft = item.intent === 'draft';
      const key = keyOf(item.source, draft);
      const existing = rows.get(key);
      if (item.destination === null) {
        rows.delete(key);
        results.push({ status: 'deleted', source: item.source, draft });
        continue;
      }
      let destination: Destination;
      try {
        destination = await storedDestination(tx, site, item.destination, `${field}.destination`);
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        results.push({ status: 'error', source: item.source, draft, error: error.message });
        continue;
      }
      if (existing) {
        rows.set(key, { ...existing, destination, captureWildcard: item.captureWildcard, ...(item.permanent !== undefined && { permanent: item.permanent }), updatedAt: now });
        results.push({ status: 'updated', source: item.source, draft, id: existing.id });
      } else {
        const id = newId('srd', now.getTime());
        rows.set(key, { id, siteId: site.id, source: item.source, draft, captureWildcard: item.captureWildcard, permanent: item.permanent ?? false, destination, createdAt: now, updatedAt: null });
        results.push({ status: 'created', source: item.source, draft, id });
      }
    }
    await writeRedirectChanges(tx, before, [...rows.values()]);
    return { results };
  });
}

/** Writes the difference between the rows read (`before`) and what they became (`after`), in three statements at most. */
async function writeRedirectChanges(tx: Ctx, before: SiteRedirectRow[], after: SiteRedirectRow[]): Promise<void> {
  const kept = new Map(after.map((row) => [row.id, row]));
  const was = new Map(before.map((row) => [row.id, row]));
  const gone = before.filter((row) => !kept.has(row.id)).map((row) => row.id);
  const changed = after.filter((row) => was.has(row.id) && row !== was.get(row.id));
  const added = after.filter((row) => !was.has(row.id));
  if (gone.length > 0) await tx.db.delete(siteRedirects).where(inArray(siteRedirects.id, gone));
  if (changed.length > 0) {
    const values = changed.map((row) => ({
      id: row.id,
      draft: row.draft,
      destination: row.destination,
      capture_wildcard: row.captureWildcard,
      permanent: row.permanent,
      updated_at: row.updatedAt?.toISOString() ?? null,
    }));
    await runSql(
      tx.db,
      sqlText`UPDATE site_redirects AS r SET draft = v.draft, destination = v.destination, capture_wildcard = v.capture_wildcard, permanent = v.permanent, updated_at = v.updated_at
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(id text, draft boolean, destination jsonb, capture_wildcard boolean, permanent boolean, updated_at timestamptz)
        WHERE r.id = v.id`,
    );
  }
  if (added.length > 0) await tx.db.insert(siteRedirects).values(added);
}

/** The live redirects of a site, for matching. */
export async function liveRedirects(ctx: Pick<Ctx, 'db'>, siteId: string): Promise<SiteRedirectRow[]> {
  return liveRedirectsSelect(ctx, siteId);
}

/** The select of liveRedirects (getSiteRedirectBySource attaches it: server/headless/redirect-lookup.ts). */
export function liveRedirectsSelect(ctx: Pick<Ctx, 'db'>, siteId: string) {
  // `NOT draft` rather than a comparison with a parameter: a prepared statement on PGlite takes no boolean one.
  return ctx.db.select().from(siteRedirects).where(and(eq(siteRedirects.siteId, siteId), not(siteRedirects.draft))).orderBy(desc(siteRedirects.createdAt));
}

/** What a path (under the site's URL, `/a/b`) follows: the redirect of that exact source, else the longest `*` source it starts; with the part `*` matched. */
export function matchRedirect(redirects: SiteRedirectRow[], path: string): { redirect: SiteRedirectRow; rest: string } | undefined {
  const wanted = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const exact = redirects.find((r) => !r.source.endsWith('*') && r.source === wanted);
  if (exact) return { redirect: exact, rest: '' };
  let best: { redirect: SiteRedirectRow; rest: string } | undefined;
  let bestStem = -1;
  for (const r of redirects) {
    if (!r.source.endsWith('*')) continue;
    // `/old/*` matches `/old` and what is under it; `/old*` whatever starts with `/old`.
    const stem = r.source.endsWith('/*') ? r.source.slice(0, -2) : r.source.slice(0, -1);
    const matches = r.source.endsWith('/*') ? wanted === stem || wanted.startsWith(`${stem}/`) : wanted.startsWith(stem);
    if (matches && stem.length > bestStem) {
      best = { redirect: r, rest: wanted.slice(stem.length).replace(/^\//, '') };
      bestStem = stem.length;
    }
  }
  return best;
}
