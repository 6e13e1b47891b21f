// Public OpenAPI specifications, served without a token under PUBLISHED_URL (server/published/ routes
// `/~openapi/<organization id>/<slug>` here): the rendered reference of the latest version, its document,
// and each version's document (the version's `url`). A private specification, or an unknown one, is the
// same 404, so no URL tells whether it exists.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { openAPISpecs, openAPISpecVersions } from '../db/schema/index.js';
import type { Urls } from '../urls.js';
import type { SpecRow } from './spec-view.js';

/** The path segment under PUBLISHED_URL that public specifications are served under. */
export const PUBLIC_SPECS_SEGMENT = '~openapi';

/** The public link of a specification: its rendered reference. */
export function publicSpecUrl(spec: Pick<SpecRow, 'organizationId' | 'slug'>, urls: Urls): string {
  return urls.published(`/${PUBLIC_SPECS_SEGMENT}/${encodeURIComponent(spec.organizationId)}/${encodeURIComponent(spec.slug)}`);
}

/** Where a version's document is downloaded without a token (public specifications only). */
export function publicVersionUrl(spec: Pick<SpecRow, 'organizationId' | 'slug'>, versionId: string, urls: Urls): string {
  return `${publicSpecUrl(spec, urls)}/versions/${encodeURIComponent(versionId)}/openapi.json`;
}

export interface PublicVersion {
  spec: SpecRow;
  versionId: string;
  /** The main document of the version (its first file). */
  document: Record<string, unknown>;
}

/** The latest (or the given) version of a public specification; undefined for a private, unknown or unprocessed one. */
export async function findPublicVersion(db: Db, organizationId: string, slug: string, versionId?: string): Promise<PublicVersion | undefined> {
  const [spec] = await db
    .select()
    .from(openAPISpecs)
    .where(and(eq(openAPISpecs.organizationId, organizationId), eq(openAPISpecs.slug, slug), eq(openAPISpecs.visibility, 'public')));
  const id = versionId ?? spec?.lastVersionId;
  if (!spec || !id) return undefined;
  const [version] = await db.select().from(openAPISpecVersions).where(and(eq(openAPISpecVersions.specId, spec.id), eq(openAPISpecVersions.id, id)));
  if (!version) return undefined;
  const [document] = Object.values(version.filesystem);
  return document && typeof document === 'object' ? { spec, versionId: version.id, document: document as Record<string, unknown> } : undefined;
}
