// OpenAPI specifications: creating, replacing the source of, listing and reading specifications and
// their versions. Processing (fetch, parse, new version) runs in the background: see process.job.ts.
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { openAPISpecOperations } from '../../contract/openapi-specs.js';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { whenUniqueViolation } from '../db/errors.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { openAPISpecs, openAPISpecVersions } from '../db/schema/index.js';
import { Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { processOpenAPISpecJob } from './process.job.js';
import { toSpec, toVersion, toVersionContent, type OpenAPISpec, type SpecRow } from './spec-view.js';

type Source = z.output<typeof openAPISpecOperations.createOpenAPISpec.body>['source'];

/** The columns a new source sets: pending again, a new revision, and the outcome of the last processing kept until the next one. */
function sourceColumns(source: Source, now: Date) {
  return {
    sourceUrl: 'url' in source ? source.url : null,
    sourceText: 'text' in source ? source.text : null,
    processingState: 'pending',
    sourceRevision: newId('rev', now.getTime()),
    updatedAt: now,
  };
}

async function enqueueProcessing(ctx: Ctx, row: SpecRow): Promise<void> {
  await enqueueJob(ctx.db, processOpenAPISpecJob(row.id, row.sourceRevision), ctx.now());
}

/** The selects of one page of the organization's specifications in creation order: as listSpecs reads them, and listOpenAPISpecs attaches them (attached-reads.ts). */
export function specsPageSelects(ctx: Ctx, organizationId: string, page: PageRequest) {
  return keysetPageSelects(ctx.db, openAPISpecs, eq(openAPISpecs.organizationId, organizationId), [openAPISpecs.id], page);
}

/** The specifications of the organization, in creation order (specsPageSelects), from the grant's statement when they came with it. */
export async function listSpecs(ctx: Ctx, grant: OrganizationGrant, page: PageRequest) {
  const result = await readKeysetPage(grant.attached, 'specs', specsPageSelects(ctx, grant.organization.id, page));
  return listBody(result, (row) => toSpec(row, grant.role, ctx.urls));
}

/** Adds a private specification and queues its processing; Conflict when the slug is taken. */
export async function createSpec(ctx: Ctx, grant: OrganizationGrant, slug: string, source: Source): Promise<OpenAPISpec> {
  return ctx.transaction(async (tx) => {
    const now = tx.now();
    const [row] = await tx.db
      .insert(openAPISpecs)
      .values({ id: newId('oas', now.getTime()), organizationId: grant.organization.id, slug, visibility: 'private', createdAt: now, ...sourceColumns(source, now) })
      .returning()
      .catch(whenUniqueViolation(() => new Conflict(`Invalid request: body.slug: the organization already has a specification ${slug}`)));
    await enqueueProcessing(tx, row);
    return toSpec(row, grant.role, tx.urls);
  });
}

/**
 * Sets the source of the specification `slug` (creating it, private, when absent) and queues its
 * processing. One upsert statement, so concurrent calls cannot both create it.
 */
export async function putSpec(ctx: Ctx, grant: OrganizationGrant, slug: string, source: Source): Promise<{ created: boolean; spec: OpenAPISpec }> {
  return ctx.transaction(async (tx) => {
    const now = tx.now();
    const columns = sourceColumns(source, now);
    const [row] = await tx.db
      .insert(openAPISpecs)
      .values({ id: newId('oas', now.getTime()), organizationId: grant.organization.id, slug, visibility: 'private', createdAt: now, ...columns })
      .onConflictDoUpdate({ target: [openAPISpecs.organizationId, openAPISpecs.slug], set: columns })
      // xmax is 0 for a row this statement inserted, not for one it updated.
      .returning({ ...getTableColumns(openAPISpecs), inserted: sql<boolean>`(xmax = 0)` });
    await enqueueProcessing(tx, row);
    const { inserted, ...spec } = row;
    return { created: inserted, spec: toSpec(spec, grant.role, tx.urls) };
  });
}

/** The select of one specification by slug, as getSpec reads it (and attaches it: server/attached-reads.ts). */
export function specSelect(ctx: Ctx, organizationId: string, slug: string) {
  return ctx.db.select().from(openAPISpecs).where(and(eq(openAPISpecs.organizationId, organizationId), eq(openAPISpecs.slug, slug)));
}

/** One specification as the API shows it; read from the grant's statement when the operation attached it there. */
export async function getSpec(ctx: Ctx, grant: OrganizationGrant, slug: string): Promise<OpenAPISpec> {
  const [row] = await rowsOf<SpecRow>(grant.attached, 'spec', specSelect(ctx, grant.organization.id, slug));
  if (!row) throw new NotFound(`OpenAPI specification ${slug} not found`);
  return toSpec(row, grant.role, ctx.urls);
}

/** Makes a specification private or public; NotFound for an unknown slug. */
export async function setSpecVisibility(ctx: Ctx, grant: OrganizationGrant, slug: string, visibility: 'private' | 'public'): Promise<OpenAPISpec> {
  const [row] = await ctx.db
    .update(openAPISpecs)
    .set({ visibility, updatedAt: ctx.now() })
    .where(and(eq(openAPISpecs.organizationId, grant.organization.id), eq(openAPISpecs.slug, slug)))
    .returning();
  if (!row) throw new NotFound(`OpenAPI specification ${slug} not found`);
  return toSpec(row, grant.role, ctx.urls);
}

/** Deletes a specification with its versions (cascade); nothing to do when absent. */
export async function deleteSpec(ctx: Ctx, grant: OrganizationGrant, slug: string): Promise<void> {
  await ctx.db.delete(openAPISpecs).where(and(eq(openAPISpecs.organizationId, grant.organization.id), eq(openAPISpecs.slug, slug)));
}

/**
 * The selects of one page of the versions of specification `slug`, newest first (the specification found by
 * its slug in SQL, so that they need not wait for it): as listVersions reads them, and
 * listOpenAPISpecVersions attaches them beside specSelect (attached-reads.ts).
 */
export function versionsPageSelects(ctx: Ctx, organizationId: string, slug: string, page: PageRequest) {
  const spec = ctx.db.select({ id: openAPISpecs.id }).from(openAPISpecs).where(and(eq(openAPISpecs.organizationId, organizationId), eq(openAPISpecs.slug, slug)));
  return keysetPageSelects(ctx.db, openAPISpecVersions, inArray(openAPISpecVersions.specId, spec), [openAPISpecVersions.newestFirst], page);
}

/** The versions of a specification, newest first; NotFound for an unknown slug. Read from the grant's statement when they came with it. */
export async function listVersions(ctx: Ctx, grant: OrganizationGrant, slug: string, page: PageRequest) {
  const [spec] = await rowsOf<SpecRow>(grant.attached, 'spec', specSelect(ctx, grant.organization.id, slug));
  if (!spec) throw new NotFound(`OpenAPI specification ${slug} not found`);
  const result = await readKeysetPage(grant.attached, 'spec_versions', versionsPageSelects(ctx, grant.organization.id, slug, page));
  return listBody(result, (row) => toVersion(spec, row, ctx.urls));
}

/**
 * The select of a specification by slug with its version `versionId` (its last one for `latest`; null when
 * it has none of that id), as findVersion reads it (and attaches it: server/attached-reads.ts).
 */
export function versionSelect(ctx: Ctx, organizationId: string, slug: string, versionId: string) {
  const version = versionId === 'latest' ? eq(openAPISpecVersions.id, openAPISpecs.lastVersionId) : eq(openAPISpecVersions.id, versionId);
  return ctx.db
    .select({ spec: openAPISpecs, version: openAPISpecVersions })
    .from(openAPISpecs)
    .leftJoin(openAPISpecVersions, and(eq(openAPISpecVersions.specId, openAPISpecs.id), version))
    .where(and(eq(openAPISpecs.organizationId, organizationId), eq(openAPISpecs.slug, slug)));
}

/**
 * A version by id, or the latest one for `latest`; NotFound when the specification or version does not
 * exist. One select with the specification, read from the grant's statement when the operation attached it.
 */
async function findVersion(ctx: Ctx, grant: OrganizationGrant, slug: string, versionId: string | 'latest') {
  const [found] = await rowsOf(grant.attached, 'spec_version', versionSelect(ctx, grant.organization.id, slug, versionId));
  if (!found) throw new NotFound(`OpenAPI specification ${slug} not found`);
  const { spec, version: row } = found;
  if (!row) throw new NotFound(versionId === 'latest' ? `OpenAPI specification ${slug} has no processed version yet` : `Version ${versionId} of ${slug} not found`);
  return { spec, row };
}

/** One version's metadata. */
export async function getVersion(ctx: Ctx, grant: OrganizationGrant, slug: string, versionId: string | 'latest') {
  const { spec, row } = await findVersion(ctx, grant, slug, versionId);
  return toVersion(spec, row, ctx.urls);
}

/** One version's parsed files and the URLs its document is read at. */
export async function getVersionContent(ctx: Ctx, grant: OrganizationGrant, slug: string, versionId: string | 'latest') {
  const { spec, row } = await findVersion(ctx, grant, slug, versionId);
  return toVersionContent(spec, row, ctx.urls);
}
