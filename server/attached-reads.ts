// What each operation reads in the statement of its grant (server/auth/attached-read.ts), so that the
// read is one round trip: the content reads attach the revision they show (and, for `dereferenced=true`, the
// other spaces its documents include content of: revisions/other-spaces-attached.ts); the other reads of one thing, and
// the first pages of lists, attach the selects their handler would run (server/db/attached-select.ts).
import type { SQL } from 'drizzle-orm';
import type { OperationId } from '../generated/router.js';
import { agentInstructionsSelect } from './agent-instructions/agent-instructions.store.js';
import type { AttachedReadOf } from './auth/attached-read.js';
import { grantedOrganizationRole } from './auth/granted-organization-role.js';
import type { Role } from './auth/roles.js';
import { changeRequestContentAttached, changeRequestRowAttached } from './change-requests/change-request-content.js';
import { changeRequestLinksAttached } from './change-requests/change-request-links-attached.js';
import { organizationListAttached, spaceListAttached } from './change-requests/change-requests.list.js';
import { changeRequestViewSelect } from './change-requests/change-requests.store.js';
import { pdfLinkAttached } from './change-requests/pdf-links.js';
import { requestedReviewersAttached, reviewAttached, reviewsAttached } from './change-requests/reviews.store.js';
import { collectionSpacesPageSelects, collectionsPageSelects } from './collections/collections.store.js';
import { commentAttached, commentsAttached, repliesAttached, replyAttached } from './comments/comments.store.js';
import { currentPageAttached, currentRevisionAttached, documentRevisionAttached, namedRevisionAttached } from './content/revision-attached.js';
import { spaceLinksAttached } from './content/link-reads-attached.js';
import type { Ctx } from './context.js';
import { clustersPageSelects, conversationSelect, conversationsPageSelects, issueSelect, issuesPageSelects } from './conversations/conversations.store.js';
import { attachAll, attachListPage, attachSelect, type ListPageSelects } from './db/attached-select.js';
import type { PageRequest } from './db/paginate.js';
import { metaLinksAttached } from './headless/meta-links.js';
import { redirectLookupAttached } from './headless/redirect-lookup.js';
import { invitesAttached } from './invites/invite-links.store.js';
import { memberSpacesPageSelects, memberTeamsPageSelects } from './members/member-lists.js';
import { memberSelect, membersPageSelects } from './members/members.store.js';
import { specSelect, specsPageSelects, versionSelect, versionsPageSelects } from './openapi/specs.store.js';
import { aggregatePageSelects, siteTargetSelect, teamGrantsPageSelects, userGrantsPageSelects } from './permissions/grants.store.js';
import { organizationSearchRead, spaceSearchRead } from './search/search.js';
import type { SearchRequest } from './search/search-attached.js';
import { withOtherSpaces } from './revisions/other-spaces-attached.js';
import { publishedSiteAttached } from './sites/published.js';
import { siteWithSignerSelect } from './sites/publishing-auth.js';
import { siteWithSiteSpaceSelect } from './sites/site-space-customization.js';
import { siteRedirectsAttached } from './sites/site-redirects.store.js';
import { sitesPageSelects, siteWithFactsSelect } from './sites/sites.store.js';
import { siteSelect, siteStructureAttached } from './sites/structure.js';
import { spacesPageSelects } from './spaces/spaces.store.js';
import { providerSelects, providersPageSelects } from './sso/saml.store.js';
import { teamMembersPageSelects } from './teams/team-members.store.js';
import { teamSelect, teamsPageSelects } from './teams/teams.store.js';
import { translationSelect, translationsPageSelects } from './translations/translations.store.js';

/**
 * The first page of an organization's list attached: `selects` builds its selects from the request's query,
 * which operations.ts has validated against the operation's contract before it attaches anything.
 */
function attachPage<Query>(name: string, selects: (ctx: Ctx, organizationId: string, query: Query) => ListPageSelects): AttachedReadOf {
  return (params, ctx, query) => attachListPage(name, selects(ctx, params.organizationId, query as Query));
}

/**
 * As attachPage, for a list that shows the caller's role on each row: their organization role is read in
 * SQL (granted-organization-role.ts); nothing is attached for a caller the organization grant does not give one.
 */
function attachPageWithRole<Query>(
  name: string,
  selects: (ctx: Ctx, organizationId: string, orgRole: string | SQL, query: Query) => ListPageSelects,
): AttachedReadOf {
  return (params, ctx, query) => {
    const orgRole = grantedOrganizationRole(ctx, params.organizationId);
    return orgRole === undefined ? undefined : attachListPage(name, selects(ctx, params.organizationId, orgRole, query as Query));
  };
}

/** The site of a site permission list's path, as siteTarget reads it. */
const siteTargetRead = (ctx: Ctx, params: Record<string, string>) => attachSelect('site_target', siteTargetSelect(ctx, params.organizationId, params.siteId));
/** The site a site permission list is of, as the list builders name their target. */
const siteListed = (params: Record<string, string>) => ({ kind: 'site' as const, id: params.siteId });

/** The change request of the path and its revision (change-request-content.ts). */
const changeRequestContentRead: AttachedReadOf = (params, ctx) => changeRequestContentAttached(ctx, params.spaceId, params.changeRequestId);

const withGit = namedRevisionAttached(true);
// A document read shows no Git metadata.
const withoutGit = namedRevisionAttached(false);

export const attachedReads: Partial<Record<OperationId, AttachedReadOf>> = {
  getCurrentRevision: currentRevisionAttached,
  listPages: currentRevisionAttached,
  listFiles: currentRevisionAttached,
  getFileById: currentRevisionAttached,
  getPageById: currentPageAttached,
  getPageByPath: withOtherSpaces(currentRevisionAttached, 'path'),
  getRevisionById: withGit,
  listPagesInRevisionById: withGit,
  getPageInRevisionById: withOtherSpaces(namedRevisionAttached(true, 'subtree'), 'id'),
  getPageInRevisionByPath: withOtherSpaces(withGit, 'path'),
  listFilesInRevisionById: withGit,
  getFileInRevisionById: withGit,
  getPageDocumentInRevisionById: withOtherSpaces(namedRevisionAttached(false, 'page'), 'id'),
  getReusableContentInRevisionById: withoutGit,
  getReusableContentDocumentInRevisionById: withOtherSpaces(withoutGit, 'none'),
  getDocumentById: documentRevisionAttached,
  // The link lists: the revision they list the links of, and what else each shows.
  listSpacePageBacklinks: currentRevisionAttached,
  listSpaceFileBacklinks: currentRevisionAttached,
  listSpaceLinks: spaceLinksAttached,
  listSpacePageLinks: spaceLinksAttached,
  listChangeRequestPageLinks: changeRequestLinksAttached,
  listChangeRequestFileBacklinks: changeRequestContentRead,
  listRevisionPageMetaLinks: metaLinksAttached,
  getMemberInOrganizationById: (params, ctx) => attachSelect('member', memberSelect(ctx, params.organizationId, params.userId)),
  getTeamInOrganizationById: (params, ctx) => attachSelect('team', teamSelect(ctx, params.organizationId, params.teamId)),
  listTeamsInOrganizationById: attachPage('teams', teamsPageSelects),
  getTranslation: (params, ctx) => attachSelect('translation', translationSelect(ctx, params.organizationId, params.translationId)),
  getConversation: (params, ctx) => attachSelect('conversation', conversationSelect(ctx, params.organizationId, params.conversationId)),
  getConversationsIssue: (params, ctx) => attachSelect('issue', issueSelect(ctx, params.organizationId, params.issueId)),
  getSiteCustomizationById: (params, ctx) => attachSelect('site', siteSelect(ctx, params.organizationId, params.siteId)),
  getSiteSpaceCustomizationById: (params, ctx) =>
    attachSelect('site_site_space', siteWithSiteSpaceSelect(ctx, params.organizationId, params.siteId, params.siteSpaceId)),
  getSiteAdaptiveSchema: (params, ctx) => attachSelect('site', siteSelect(ctx, params.organizationId, params.siteId)),
  getOpenAPISpecBySlug: (params, ctx) => attachSelect('spec', specSelect(ctx, params.organizationId, params.specSlug)),
  getOpenAPISpecVersionById: (params, ctx) => attachSelect('spec_version', versionSelect(ctx, params.organizationId, params.specSlug, params.versionId)),
  getLatestOpenAPISpecVersion: (params, ctx) => attachSelect('spec_version', versionSelect(ctx, params.organizationId, params.specSlug, 'latest')),
  getOpenAPISpecVersionContentById: (params, ctx) => attachSelect('spec_version', versionSelect(ctx, params.organizationId, params.specSlug, params.versionId)),
  getLatestOpenAPISpecVersionContent: (params, ctx) => attachSelect('spec_version', versionSelect(ctx, params.organizationId, params.specSlug, 'latest')),
  getOrganizationAgentInstructions: (params, ctx) => attachSelect('agent_instructions', agentInstructionsSelect(ctx, params.organizationId)),
  // The site reads and lists of /orgs/{organizationId}/sites.
  getSiteById: (params, ctx) => attachSelect('site_with_facts', siteWithFactsSelect(ctx, params.organizationId, params.siteId)),
  listSites: attachPage('sites', sitesPageSelects),
  listSiteSpaces: siteStructureAttached,
  listSiteSections: siteStructureAttached,
  listSiteSectionGroups: siteStructureAttached,
  listSiteRedirects: siteRedirectsAttached,
  getSiteRedirectBySource: redirectLookupAttached,
  getSitePublishingAuthById: (params, ctx) => attachSelect('site_with_signer', siteWithSignerSelect(ctx, params.organizationId, params.siteId)),
  listSiteAdaptiveTemplateConditions: (params, ctx) => attachSelect('site', siteSelect(ctx, params.organizationId, params.siteId)),
  getPublishedContentSite: publishedSiteAttached,
  // The site permission lists: the site (a 404 when it is not the organization's) and the first page.
  listUserPermissionsInSite: (params, ctx, query) =>
    attachAll('site_user_grants', siteTargetRead(ctx, params), attachListPage('user_grants', userGrantsPageSelects(ctx, siteListed(params), query))),
  listTeamPermissionsInSite: (params, ctx, query) =>
    attachAll('site_team_grants', siteTargetRead(ctx, params), attachListPage('team_grants', teamGrantsPageSelects(ctx, siteListed(params), query))),
  listPermissionsAggregateInSite: (params, ctx, query) =>
    attachAll(
      'site_aggregate',
      siteTargetRead(ctx, params),
      attachListPage('aggregate', aggregatePageSelects(ctx, siteListed(params), query.role as Role | undefined, query)),
    ),
  // The organization's lists and reads of its members, conversations, translations, specs and SSO.
  listMembersInOrganizationById: attachPage('members', membersPageSelects),
  // The team or the member (a 404 when absent) and the first page of its members or teams.
  listTeamMembersInOrganizationById: (params, ctx, query) => {
    const { team, ...page } = teamMembersPageSelects(ctx, params.organizationId, params.teamId, query);
    return attachAll('team_members', attachSelect('team_exists', team), attachListPage('team_members', page));
  },
  listTeamsForOrganizationMember: (params, ctx, query) => {
    const { memberRole, ...page } = memberTeamsPageSelects(ctx, params.organizationId, params.userId, query);
    return attachAll('member_teams', attachSelect('member_role', memberRole), attachListPage('member_teams', page));
  },
  listSpacesForOrganizationMember: (params, ctx, query) => {
    const callerRole = grantedOrganizationRole(ctx, params.organizationId);
    if (callerRole === undefined) return undefined;
    const { memberRole, ...page } = memberSpacesPageSelects(ctx, params.organizationId, callerRole, params.userId, query as Parameters<typeof memberSpacesPageSelects>[4]);
    return attachAll('member_spaces', attachSelect('member_role', memberRole), attachListPage('member_spaces', page));
  },
  listChangeRequestsForOrganization: (params, ctx, query) =>
    organizationListAttached(ctx, params.organizationId, query as Parameters<typeof organizationListAttached>[2]),
  listOrganizationInviteLinks: invitesAttached,
  listTranslations: attachPage('translations', translationsPageSelects),
  listConversations: attachPage('conversations', conversationsPageSelects),
  // The page of issues and their conversations.
  listConversationsIssues: (params, ctx, query) => {
    const { page, conversations } = issuesPageSelects(ctx, params.organizationId, query);
    return attachAll('issues', attachListPage('issues', page), attachSelect('issue_conversations', conversations));
  },
  // The page of clusters and their figures.
  listConversationsIssuesClusters: (params, ctx, query) => {
    const { page, figures } = clustersPageSelects(ctx, params.organizationId, query as Parameters<typeof clustersPageSelects>[2]);
    return attachAll(
      'clusters',
      attachListPage('clusters', page),
      attachSelect('cluster_issues', figures.issues),
      attachSelect('cluster_tasks', figures.tasks),
    );
  },
  listOpenAPISpecs: attachPage('specs', specsPageSelects),
  // The providers and their default teams.
  listSAMLProvidersInOrganizationById: (params, ctx, query) => {
    const { page, defaultTeams } = providersPageSelects(ctx, params.organizationId, query);
    return attachAll('saml_providers', attachListPage('saml_providers', page), attachSelect('saml_default_teams', defaultTeams));
  },
  getOrganizationSAMLProviderById: (params, ctx) => {
    const { provider, defaultTeam } = providerSelects(ctx, params.organizationId, params.samlProviderId);
    return attachAll('saml_provider', attachSelect('saml_provider', provider), attachSelect('saml_default_team', defaultTeam));
  },
  // The specification (a 404 when absent) and the first page of its versions.
  listOpenAPISpecVersions: (params, ctx, query) =>
    attachAll(
      'spec_versions',
      attachSelect('spec', specSelect(ctx, params.organizationId, params.specSlug)),
      attachListPage('spec_versions', versionsPageSelects(ctx, params.organizationId, params.specSlug, query)),
    ),
  // The reads of a space's change requests, comments and permissions, and of a collection's spaces and permissions.
  getChangeRequestById: (params, ctx) => attachSelect('change_request', changeRequestViewSelect(ctx, params.spaceId, params.changeRequestId)),
  listChangeRequestsForSpace: (params, ctx, query) => spaceListAttached(ctx, params.spaceId, query as Parameters<typeof spaceListAttached>[2]),
  getCommentInSpace: (params, ctx) => commentAttached(ctx, params.spaceId, params.commentId),
  getCommentReplyInSpace: (params, ctx) => replyAttached(ctx, params.spaceId, params.commentId, params.commentReplyId),
  listCommentsInSpace: (params, ctx, query) => commentsAttached(ctx, params.spaceId, query as Parameters<typeof commentsAttached>[2]),
  listCommentRepliesInSpace: (params, ctx, query) => repliesAttached(ctx, params.spaceId, params.commentId, query),
  getRequestedReviewersByChangeRequestId: (params, ctx, query) => requestedReviewersAttached(ctx, params.spaceId, params.changeRequestId, query),
  getReviewsByChangeRequestId: (params, ctx, query) => reviewsAttached(ctx, params.spaceId, params.changeRequestId, query),
  getChangeRequestReviewById: (params, ctx) => reviewAttached(ctx, params.spaceId, params.changeRequestId, params.reviewId),
  listUserPermissionsInSpace: (params, ctx, query) => attachListPage('user_grants', userGrantsPageSelects(ctx, { kind: 'space', id: params.spaceId }, query)),
  listTeamPermissionsInSpace: (params, ctx, query) => attachListPage('team_grants', teamGrantsPageSelects(ctx, { kind: 'space', id: params.spaceId }, query)),
  listPermissionsAggregateInSpace: (params, ctx, query) =>
    attachListPage('aggregate', aggregatePageSelects(ctx, { kind: 'space', id: params.spaceId }, query.role as Role | undefined, query)),
  listUserPermissionsInCollection: (params, ctx, query) =>
    attachListPage('user_grants', userGrantsPageSelects(ctx, { kind: 'collection', id: params.collectionId }, query)),
  listTeamPermissionsInCollection: (params, ctx, query) =>
    attachListPage('team_grants', teamGrantsPageSelects(ctx, { kind: 'collection', id: params.collectionId }, query)),
  listPermissionsAggregateInCollection: (params, ctx, query) =>
    attachListPage('aggregate', aggregatePageSelects(ctx, { kind: 'collection', id: params.collectionId }, query.role as Role | undefined, query)),
  listSpacesInCollectionById: (params, ctx, query) => attachListPage('collection_spaces', collectionSpacesPageSelects(ctx, params.collectionId, query)),
  // A change request's content: the change request and its revision.
  getRevisionOfChangeRequestById: changeRequestContentRead,
  listPagesInChangeRequest: changeRequestContentRead,
  listFilesInChangeRequestById: changeRequestContentRead,
  getFileInChangeRequestById: changeRequestContentRead,
  getPageInChangeRequestById: (params, ctx) =>
    changeRequestContentAttached(ctx, params.spaceId, params.changeRequestId, { pageId: params.pageId, which: 'subtree' }),
  // The change request, and its revision when the link starts at a page (which must be one of it); the link's row written.
  getChangeRequestPDF: (params, ctx, query) =>
    pdfLinkAttached(
      ctx,
      params.spaceId,
      params.changeRequestId,
      query,
      query.page === undefined ? changeRequestRowAttached(ctx, params.spaceId, params.changeRequestId) : changeRequestContentRead(params, ctx, query),
    ),
  // The organization's spaces and collections, each with the caller's role on it.
  listSpacesInOrganizationById: attachPageWithRole('spaces', spacesPageSelects),
  // The searches: the organization's for a member; the space's when its index is current.
  searchOrganizationContent: (_params, ctx, query) => organizationSearchRead(ctx, query as unknown as SearchRequest),
  searchSpaceContent: (_params, _ctx, query) => spaceSearchRead(query as unknown as SearchRequest),
  listCollectionsInOrganizationById: attachPageWithRole('collections', (ctx, organizationId, orgRole, query: { nested: boolean } & PageRequest) =>
    collectionsPageSelects(ctx, organizationId, orgRole, query.nested, query)),
};
