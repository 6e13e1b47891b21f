// API shapes of OpenAPI specifications and their versions, mapped explicitly from rows.
import type { components } from '../../generated/types.js';
import { atLeast, type Role } from '../auth/roles.js';
import type { openAPISpecs, openAPISpecVersions } from '../db/schema/index.js';
import type { Urls } from '../urls.js';
import { publicSpecUrl, publicVersionUrl } from './public-spec.js';

export type OpenAPISpec = components['schemas']['OpenAPISpec'];
export type OpenAPISpecVersion = components['schemas']['OpenAPISpecVersion'];
export type OpenAPISpecContent = components['schemas']['OpenAPISpecContent'];
export type SpecRow = typeof openAPISpecs.$inferSelect;
export type VersionRow = typeof openAPISpecVersions.$inferSelect;

const specPath = (row: Pick<SpecRow, 'organizationId' | 'slug'>) => `/orgs/${row.organizationId}/openapi/${row.slug}`;

/** A specification as the API shows it to a caller with organization role `role`. */
export function toSpec(row: SpecRow, role: Role | null, urls: Urls): OpenAPISpec {
  return {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    slug: row.slug,
    ...(row.sourceUrl !== null && { sourceURL: row.sourceUrl }),
    processingState: row.processingState as OpenAPISpec['processingState'],
    visibility: row.visibility as OpenAPISpec['visibility'],
    ...(row.lastVersionId !== null && { lastVersion: row.lastVersionId }),
    ...(row.lastProcessedAt !== null && { lastProcessedAt: row.lastProcessedAt.toISOString() }),
    ...(row.lastProcessErrorCode !== null && { lastProcessErrorCode: row.lastProcessErrorCode as OpenAPISpec['lastProcessErrorCode'] }),
    ...(row.lastProcessedErrors !== null && { lastProcessedErrors: row.lastProcessedErrors }),
    lastProcessedErrorCount: row.lastProcessedErrors?.length ?? 0,
    permissions: { view: true, edit: atLeast(role, 'create') },
    urls: {
      location: urls.api(specPath(row)),
      app: urls.app(`/o/${row.organizationId}/openapi/${row.slug}`),
      // The public link exists only while the specification is public; this server serves it without a token.
      ...(row.visibility === 'public' && { published: publicSpecUrl(row, urls) }),
    },
  };
}

/**
 * Where a version is downloaded: without a token for a public specification (public-spec.ts), else the
 * content operation, which needs one.
 */
export function versionContentUrl(spec: Pick<SpecRow, 'organizationId' | 'slug' | 'visibility'>, versionId: string, urls: Urls): string {
  if (spec.visibility === 'public') return publicVersionUrl(spec, versionId, urls);
  return urls.api(`${specPath(spec)}/versions/${versionId}/content`);
}

/**
 * A version's content: its files, and where its document is read: `source` the URL it was fetched from (else
 * this server's `url`), `public` this server's token-free URL while the specification is public.
 */
export function toVersionContent(spec: Pick<SpecRow, 'organizationId' | 'slug' | 'visibility'>, row: Pick<VersionRow, 'id' | 'filesystem' | 'sourceUrl'>, urls: Urls): OpenAPISpecContent {
  const url = versionContentUrl(spec, row.id, urls);
  return {
    filesystem: row.filesystem,
    url,
    urls: { source: row.sourceUrl ?? url, public: spec.visibility === 'public' ? publicVersionUrl(spec, row.id, urls) : null },
  };
}

/** A version of `spec` as the API shows it. */
export function toVersion(spec: Pick<SpecRow, 'organizationId' | 'slug' | 'visibility'>, row: Pick<VersionRow, 'id' | 'createdAt'>, urls: Urls): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    url: versionContentUrl(spec, row.id, urls),
    urls: { location: urls.api(`${specPath(spec)}/versions/${row.id}`) },
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The id with each ULID character replaced by its mirror in the alphabet: sorting these ascending lists newest first. */
export function newestFirstKey(id: string): string {
  return [...id].map((c) => {
    const i = CROCKFORD.indexOf(c);
    return i < 0 ? c : CROCKFORD[CROCKFORD.length - 1 - i];
  }).join('');
}
