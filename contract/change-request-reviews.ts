// Reviews of a change request and the users asked for one, as the public API has them.
import { ChangeRequestIdParams, changeRequestExample } from './change-requests.js';
import { Comment, commentBodyFormat, commentExample } from './comments.js';
import { DateTime, listExample, listOf, paginationQuery, queryBoolean } from './common.js';
import { Document, documentExample } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { User, userExample } from './users.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

const reviewId = 'crr_01JD3QH4C7ZD9LE';
const base = `${ex.baseUrl}/v1/spaces/${ex.spaceId}/change-requests/${changeRequestExample.id}`;

export const ChangeRequestReviewStatus = z
  .enum(['approved', 'changes-requested'])
  .openapi('ChangeRequestReviewStatus', { description: 'Status of a change request review.', example: 'approved' });

const requestedReviewerExample = {
  object: 'change-request-requested-reviewer' as const,
  revision: changeRequestExample.revision,
  requestedBy: userExample,
  createdAt: ex.createdAt,
  kind: 'user' as const,
  user: userExample,
};

export const ChangeRequestRequestedReviewer = z
  .object({
    object: z.literal('change-request-requested-reviewer'),
    revision: z.string().openapi({ description: 'The revision of the change request when the review was requested.' }),
    requestedBy: User.openapi({ description: 'The user who made the request.' }),
    createdAt: DateTime,
    kind: z.literal('user').openapi({ description: 'Reviews are requested from users (teams are not requested here).' }),
    user: User.openapi({ description: 'The user asked to review.' }),
  })
  .openapi('ChangeRequestRequestedReviewer', { description: 'A user asked to review a change request.', example: requestedReviewerExample });

const reviewExample = {
  object: 'change-request-review' as const,
  id: reviewId,
  revision: changeRequestExample.revision,
  reviewer: userExample,
  requestedBy: userExample,
  status: 'approved' as const,
  outdated: false,
  comment: { ...commentExample, target: { changeRequest: changeRequestExample.id, review: reviewId, space: ex.spaceId, revision: changeRequestExample.revision } },
  createdAt: ex.createdAt,
  updatedAt: ex.createdAt,
  urls: { location: `${base}/reviews/${reviewId}` },
};

export const ChangeRequestReview = z
  .object({
    object: z.literal('change-request-review'),
    id: z.string(),
    revision: z.string().openapi({ description: 'The revision of the change request this review was made against.' }),
    reviewer: User.openapi({ description: 'The user who reviewed.' }),
    requestedBy: User.openapi(conditional('The user who asked for the review; absent when it was given unasked.')).optional(),
    status: ChangeRequestReviewStatus,
    outdated: z.boolean().openapi({
      description:
        'true once the change request has a newer revision than the one reviewed, or the reviewer reviewed again; outdated ' +
        'reviews count for no merge rule.',
    }),
    comment: Comment.openapi(conditional('The comment given with the review; absent when it was given without one.')).optional(),
    createdAt: DateTime,
    updatedAt: DateTime,
    urls: z.object({ location: z.url() }),
  })
  .openapi('ChangeRequestReview', { description: 'A review of a change request: approved, or changes requested.', example: reviewExample });

const ReviewIdParams = ChangeRequestIdParams.extend({
  reviewId: z.string().min(1).max(128).openapi({ description: 'The id of the review.', example: reviewId }),
});

const ReviewerParams = ChangeRequestIdParams.extend({
  userId: z.string().min(1).max(128).openapi({ description: 'The id of the requested reviewer.', example: userExample.id }),
});

export const changeRequestReviewOperations = operations({
  requestReviewersForChangeRequest: {
    method: 'post',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
    tag: 'change-requests',
    summary: 'Request reviews of a change request',
    description:
      'Asks users to review the change request at its current revision, and optionally updates its `subject` and ' +
      '`description` at the same time. Asking a user again renews the request. Each user must be able to review the ' +
      'space (the review role on it: 400 otherwise, naming the user); an unknown user, or one outside the organization, ' +
      'is not found. A merged or archived change request is a conflict (409).',
    params: ChangeRequestIdParams,
    body: z
      .strictObject({
        users: z.array(z.string().min(1).max(128)).min(1).max(50).openapi({ description: 'Ids of the users asked to review.' }),
        subject: z.string().max(1000).openapi({ description: 'A new subject for the change request.' }).optional(),
        description: Document.openapi({ description: 'A new description for the change request.' }).optional(),
      })
      .openapi('RequestChangeRequestReviewers'),
    bodyExample: { users: [userExample.id], subject: 'Document the API token scopes', description: documentExample },
    responses: {
      200: {
        description: 'The requests made.',
        schema: z
          .object({ users: z.array(ChangeRequestRequestedReviewer).openapi({ description: 'The requests made, one per user.' }) })
          .openapi('RequestedChangeRequestReviewers'),
        example: { users: [requestedReviewerExample] },
      },
    },
    errors: [403, 404, 409],
    access: access.space('edit'),
    statements: 11,
  },
  getRequestedReviewersByChangeRequestId: {
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
    tag: 'change-requests',
    summary: 'List the users asked to review a change request',
    description: 'Lists the users asked to review the change request, in the order they were asked. An unknown change request is not found.',
    params: ChangeRequestIdParams,
    query: z.object({ ...paginationQuery }),
    responses: {
      200: {
        description: 'A page of requested reviewers.',
        schema: listOf('ChangeRequestRequestedReviewerList', ChangeRequestRequestedReviewer),
        example: listExample([requestedReviewerExample]),
      },
    },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  removeRequestedReviewerFromChangeRequest: {
    method: 'delete',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}',
    tag: 'change-requests',
    summary: 'Withdraw a review request',
    description:
      'Withdraws the request to review the change request from a user; the reviews they already gave stay. Answers 205 ' +
      'when the request is withdrawn, 204 when the user was not asked. An unknown change request is not found.',
    params: ReviewerParams,
    responses: {
      204: { description: 'The user was not asked to review.' },
      205: { description: 'The request is withdrawn.' },
    },
    errors: [403, 404],
    access: access.space('edit'),
    statements: 3,
  },
  submitChangeRequestReview: {
    method: 'post',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
    tag: 'change-requests',
    summary: 'Review a change request',
    description:
      'Approves the current revision of the change request, or asks for changes (`status`), optionally with a `comment` ' +
      '(posted as a comment of the change request, targeting the review). A review made before the change request ' +
      'changed again is outdated and counts for no merge rule, nor do reviews by its author. Needs the review role; a ' +
      'merged or archived change request is a conflict (409).',
    params: ChangeRequestIdParams,
    body: z
      .strictObject({
        status: ChangeRequestReviewStatus,
        comment: Document.openapi({ description: 'A comment given with the review.' }).optional(),
      })
      .openapi('SubmitChangeRequestReview'),
    bodyExample: { status: 'approved', comment: documentExample },
    responses: {
      201: {
        description: 'The review.',
        schema: ChangeRequestReview,
        example: reviewExample,
        headers: { Location: { description: 'URL of the review.', example: reviewExample.urls.location } },
      },
    },
    errors: [403, 404, 409],
    access: access.space('review'),
    statements: 11,
  },
  getReviewsByChangeRequestId: {
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
    tag: 'change-requests',
    summary: 'List the reviews of a change request',
    description:
      'Lists the reviews of the change request, oldest first, with their comments in the requested `format`; ' +
      '`outdated` keeps only the outdated (true) or current (false) ones. An unknown change request is not found.',
    params: ChangeRequestIdParams,
    query: z.object({
      ...paginationQuery,
      format: commentBodyFormat,
      outdated: queryBoolean('Only the outdated reviews (true) or only the current ones (false).').optional(),
    }),
    responses: {
      200: { description: 'A page of reviews.', schema: listOf('ChangeRequestReviewList', ChangeRequestReview), example: listExample([reviewExample]) },
    },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getChangeRequestReviewById: {
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}',
    tag: 'change-requests',
    summary: 'Get a review of a change request',
    description: 'Returns a review of the change request, with its comment in the requested `format`. An unknown review is not found.',
    params: ReviewIdParams,
    query: z.object({ format: commentBodyFormat }),
    responses: { 200: { description: 'The review.', schema: ChangeRequestReview, example: reviewExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
});
