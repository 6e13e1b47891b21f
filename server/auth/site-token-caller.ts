// The access rules of a request made with a site's API token (site-tokens.ts), applied instead of the
// role-based ones (access.ts), in one query as they are:
// - only the reads a renderer needs (SITE_TOKEN_OPERATIONS): any other operation, writes included, is 403;
// - a space must be one the token names, of a site space of the site, not in the trash, with the site still
//   published (404 otherwise, as for anything a caller cannot see); a revision in the path must be the
//   space's current one, the published one (404 otherwise);
// - an operation on a site must be on the token's site, still published (404 otherwise);
// - past its lifetime, by the server's clock, the token is refused (401).
// Within them it reads with the `read` role.
import type { Access } from '../../contract/access.js';
import type { Ctx, SiteTokenCaller } from '../context.js';
import { directQuery, tableRow } from '../db/client.js';
import { organizations, spaces } from '../db/schema/index.js';
import { Forbidden, NotFound, Unauthorized } from '../errors.js';
import type { AccessDecision, AccessOptions } from './access.js';
import { withAttached } from './attached-read.js';
import { spaceAnswerColumns, spaceAnswerOf } from './grants.js';

/**
 * What a site token may call: every read GitBook's renderer makes for a site's published content. The space,
 * the reads of its published content (its current revision, its pages, documents, files and reusable contents,
 * by id or path, in that revision; its embeds, computed documents and revisions, page meta links), the users the content
 * names, and the site's published profile, customization, redirects and search. Listed by name, so an operation added later is refused until it is listed here.
 */
export const SITE_TOKEN_OPERATIONS: ReadonlySet<string> = new Set([
  // The space itself (a renderer reads its title, language and URLs for every page).
  'getSpaceById',
  // Space content, at its current revision.
  'getCurrentRevision',
  'listPages',
  'getPageById',
  'getPageByPath',
  'listFiles',
  'getFileById',
  'getDocumentById',
  'getComputedDocument',
  'getComputedRevision',
  'getEmbedByUrlInSpace',
  // The same, by revision id (the current one only).
  'getRevisionById',
  'listPagesInRevisionById',
  'getPageInRevisionById',
  'getPageInRevisionByPath',
  'getPageDocumentInRevisionById',
  'getFileInRevisionById',
  'getReusableContentInRevisionById',
  'getReusableContentDocumentInRevisionById',
  'listRevisionPageMetaLinks',
  // Authors and mentioned users of the content (their public profile).
  'getUserById',
  // The site.
  'getPublishedContentSite',
  'getSiteCustomizationById',
  'getSiteSpaceCustomizationById',
  'getSiteRedirectBySource',
  'searchSiteContent',
]);

// The space, when the site still publishes it; at most one row. `columns`: what else the operation needs
// (and `join`, for a read the operation attaches: attached-read.ts).
const spaceOnSiteWith = (columns: string, join = '') => `SELECT s.*${columns} FROM spaces s${join}
  WHERE s.id = $1 AND s.organization_id = $3 AND s.deleted_at IS NULL
    AND EXISTS (SELECT 1 FROM site_spaces ss JOIN sites t ON t.id = ss.site_id WHERE ss.space_id = s.id AND t.id = $2 AND t.published)`;
const spaceOnSite = spaceOnSiteWith('');
// With what a Space answer shows (its counters and published URL), so that getSpaceById is one round trip.
const spaceAnswerOnSite = spaceOnSiteWith(`, ${spaceAnswerColumns}`);

// The organization, when its site is still published (and `join`, for a read the operation attaches).
const publishedSiteOrganizationWith = (columns: string, join = '') => `SELECT o.*${columns} FROM organizations o JOIN sites t ON t.organization_id = o.id${join}
  WHERE o.id = $1 AND t.id = $2 AND t.published`;
const publishedSiteOrganization = publishedSiteOrganizationWith('');

/** The query of the space on the token's site, as the operation needs it (its parameters: space, site, organization, then the attached read's). */
function spaceQueryOnSite(options: AccessOptions): { name: string; text: string } {
  const [name, text] = options.spaceCounters ? ['site_token_space_answer', spaceAnswerOnSite] : ['site_token_space', spaceOnSite];
  if (!options.attach) return { name, text };
  const counters = options.spaceCounters ? `, ${spaceAnswerColumns}` : '';
  return withAttached(name, (columns, join) => spaceOnSiteWith(counters + columns, join), options.attach, 4);
}

/** The access decision for a site token's request to `operationId`. */
export async function checkSiteTokenAccess(
  ctx: Ctx,
  token: SiteTokenCaller,
  operationId: string,
  rule: Access,
  params: Record<string, string>,
  options: AccessOptions,
): Promise<AccessDecision> {
  if (ctx.now().getTime() >= token.expiresAt) throw new Unauthorized('The site API token has expired: resolve the URL again for a new one');
  if (!SITE_TOKEN_OPERATIONS.has(operationId)) throw new Forbidden(`A site's API token can only read the site's published content, not call ${operationId}`);
  switch (rule.to) {
    case 'space': {
      const { name, text } = spaceQueryOnSite(options);
      const values = [params.spaceId, token.siteId, token.organizationId, ...(options.attach?.params ?? [])];
      const [raw] = token.spaceIds.includes(params.spaceId) ? await directQuery(ctx.db, name, text, values) : [];
      if (!raw) throw new NotFound(`Space ${params.spaceId} not found`);
      const row = tableRow(spaces, raw);
      if (params.revisionId !== undefined && params.revisionId !== row.revisionId) throw new NotFound(`Revision ${params.revisionId} not found`);
      const answer = options.spaceCounters ? spaceAnswerOf(raw) : {};
      return { grant: { row, member: false, orgRole: null, granted: null, inherited: undefined, role: 'read', ...answer, attached: options.attach && raw } };
    }
    case 'organization': {
      const onSite = params.siteId === token.siteId && params.organizationId === token.organizationId;
      const { name, text } = options.attach
        ? withAttached('site_token_site', publishedSiteOrganizationWith, options.attach, 3)
        : { name: 'site_token_site', text: publishedSiteOrganization };
      const values = [params.organizationId, params.siteId, ...(options.attach?.params ?? [])];
      const [raw] = onSite ? await directQuery(ctx.db, name, text, values) : [];
      if (!raw) throw new NotFound(`Organization ${params.organizationId} not found`);
      return { grant: { organization: tableRow(organizations, raw), role: 'read', siteRole: 'read', ...(options.attach && { attached: raw }) } };
    }
    case 'caller':
      return { grant: undefined };
    case 'collection':
      throw new NotFound(`Collection ${params.collectionId} not found`);
  }
}
