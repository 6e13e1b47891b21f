// What each operation reads in the statement of its grant (server/auth/attached-read.ts), so that the
// read is one round trip: the content reads attach the revision they show; the reads of one thing of an
// organization attach the select their handler would run (server/auth/attached-select.ts).
import type { OperationId } from '../generated/router.js';
import type { AttachedReadOf } from './auth/attached-read.js';
import type { Role } from './auth/roles.js';
import { attachSelect } from './auth/attached-select.js';
import { currentRevisionAttached, documentRevisionAttached, namedRevisionAttached } from './content/revision-attached.js';
import { agentInstructionsSelect } from './agent-instructions/agent-instructions.store.js';
import { commentAttached, commentsAttached, repliesAttached, replyAttached } from './comments/comments.store.js';
import { collectionSpacesPageSelects } from './collections/collections.store.js';
import { conversationSelect, issueSelect } from './conversations/conversations.store.js';
import { spaceListAttached } from './change-requests/change-requests.list.js';
import { changeRequestViewSelect } from './change-requests/change-requests.store.js';
import { requestedReviewersAttached, reviewAttached, reviewsAttached } from './change-requests/reviews.store.js';
import { memberSelect } from './members/members.store.js';
import { aggregatePageSelects, teamGrantsPageSelects, userGrantsPageSelects } from './permissions/grants.store.js';
import { specSelect, versionSelect } from './openapi/specs.store.js';
import { siteWithSiteSpaceSelect } from './sites/site-space-customization.js';
import { siteSelect } from './sites/structure.js';
import { teamSelect, teamsPageSelects } from './teams/teams.store.js';
import { translationSelect } from './translations/translations.store.js';

const withGit = namedRevisionAttached(true);
// A document read shows no Git metadata.
const withoutGit = namedRevisionAttached(false);

export const attachedReads: Partial<Record<OperationId, AttachedReadOf>> = {
  getCurrentRevision: currentRevisionAttached,
  listPages: currentRevisionAttached,
  listFiles: currentRevisionAttached,
  getFileById: currentRevisionAttached,
  getPageById: currentRevisionAttached,
  getPageByPath: currentRevisionAttached,
  getRevisionById: withGit,
  listPagesInRevisionById: withGit,
  getPageInRevisionById: withGit,
  getPageInRevisionByPath: withGit,
  listFilesInRevisionById: withGit,
  getFileInRevisionById: withGit,
  getPageDocumentInRevisionById: withoutGit,
  getReusableContentInRevisionById: withoutGit,
  getReusableContentDocumentInRevisionById: withoutGit,
  getDocumentById: documentRevisionAttached,
  getMemberInOrganizationById: (params, ctx) => attachSelect('member', memberSelect(ctx, params.organizationId, params.userId)),
  getTeamInOrganizationById: (params, ctx) => attachSelect('team', teamSelect(ctx, params.organizationId, params.teamId)),
  listTeamsInOrganizationById: (params, ctx, query) => attachSelect('teams', teamsPageSelects(ctx, params.organizationId, query).rows),
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
  listUserPermissionsInSpace: (params, ctx, query) => attachSelect('user_grants', userGrantsPageSelects(ctx, { kind: 'space', id: params.spaceId }, query).rows),
  listTeamPermissionsInSpace: (params, ctx, query) => attachSelect('team_grants', teamGrantsPageSelects(ctx, { kind: 'space', id: params.spaceId }, query).rows),
  listPermissionsAggregateInSpace: (params, ctx, query) =>
    attachSelect('aggregate', aggregatePageSelects(ctx, { kind: 'space', id: params.spaceId }, query.role as Role | undefined, query).rows),
  listUserPermissionsInCollection: (params, ctx, query) =>
    attachSelect('user_grants', userGrantsPageSelects(ctx, { kind: 'collection', id: params.collectionId }, query).rows),
  listTeamPermissionsInCollection: (params, ctx, query) =>
    attachSelect('team_grants', teamGrantsPageSelects(ctx, { kind: 'collection', id: params.collectionId }, query).rows),
  listPermissionsAggregateInCollection: (params, ctx, query) =>
    attachSelect('aggregate', aggregatePageSelects(ctx, { kind: 'collection', id: params.collectionId }, query.role as Role | undefined, query).rows),
  listSpacesInCollectionById: (params, ctx, query) => attachSelect('collection_spaces', collectionSpacesPageSelects(ctx, params.collectionId, query).rows),
};
