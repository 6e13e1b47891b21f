// Matrix fixtures of change-request reviews: a review by the admin, and who is asked to review.
import type { MatrixFixtures } from './types.js';

export const changeRequestReviewFixtures: MatrixFixtures = {
  params: {
    reviewId: async ({ admin }, path) =>
      (await admin.api.post(`/spaces/${path.spaceId}/change-requests/${path.changeRequestId}/reviews`, { status: 'approved' })).body.id,
  },
  bodies: {
    // The admin can review every space of the organization.
    requestReviewersForChangeRequest: ({ admin }) => ({ users: [admin.userId] }),
    submitChangeRequestReview: () => ({ status: 'changes-requested' }),
  },
};
