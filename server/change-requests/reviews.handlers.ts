import type { changeRequestReviewOperations } from '../../contract/change-request-reviews.js';
import type { AppHandlers } from '../handler-types.js';
import { getReview, listRequestedReviewers, listReviews, removeRequestedReviewer, requestReviewers, submitReview } from './reviews.store.js';

export const changeRequestReviewHandlers = {
  async requestReviewersForChangeRequest({ grant, params, body }, ctx) {
    return { status: 200, body: { users: await requestReviewers(ctx, grant, params.changeRequestId, body) } };
  },
  async getRequestedReviewersByChangeRequestId({ grant, params, query }, ctx) {
    return { status: 200, body: await listRequestedReviewers(ctx, grant, params.changeRequestId, query) };
  },
  async removeRequestedReviewerFromChangeRequest({ grant, params }, ctx) {
    const removed = await removeRequestedReviewer(ctx, grant, params.changeRequestId, params.userId);
    return { status: removed ? 205 : 204 };
  },
  async submitChangeRequestReview({ grant, params, body }, ctx) {
    const review = await submitReview(ctx, grant, params.changeRequestId, body);
    return { status: 201, body: review, headers: { Location: review.urls.location } };
  },
  async getReviewsByChangeRequestId({ grant, params, query }, ctx) {
    return { status: 200, body: await listReviews(ctx, grant, params.changeRequestId, query) };
  },
  async getChangeRequestReviewById({ grant, params, query }, ctx) {
    return { status: 200, body: await getReview(ctx, grant, params.changeRequestId, params.reviewId, query.format) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof changeRequestReviewOperations>>;
