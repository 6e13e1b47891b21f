import type { commentOperations } from '../../contract/comments.js';
import type { AppHandlers } from '../handler-types.js';
import {
  deleteComment,
  deleteReply,
  getComment,
  getReply,
  listComments,
  listReplies,
  postComment,
  postReply,
  updateComment,
  updateReply,
} from './comments.store.js';

export const commentHandlers = {
  async listCommentsInSpace({ grant, query }, ctx) {
    return { status: 200, body: await listComments(ctx, grant, query) };
  },
  async postCommentInSpace({ grant, body }, ctx) {
    return { status: 200, body: await postComment(ctx, grant, body) };
  },
  async getCommentInSpace({ grant, params, query }, ctx) {
    return { status: 200, body: await getComment(ctx, grant, params.commentId, query.format ?? 'markdown') };
  },
  async updateCommentInSpace({ grant, params, body }, ctx) {
    return { status: 200, body: await updateComment(ctx, grant, params.commentId, body) };
  },
  async deleteCommentInSpace({ grant, params }, ctx) {
    await deleteComment(ctx, grant, params.commentId);
    return { status: 204 };
  },
  async listCommentRepliesInSpace({ grant, params, query }, ctx) {
    return { status: 200, body: await listReplies(ctx, grant, params.commentId, query) };
  },
  async postCommentReplyInSpace({ grant, params, body }, ctx) {
    return { status: 200, body: await postReply(ctx, grant, params.commentId, body) };
  },
  async getCommentReplyInSpace({ grant, params, query }, ctx) {
    return { status: 200, body: await getReply(ctx, grant, params.commentId, params.commentReplyId, query.format ?? 'markdown') };
  },
  async updateCommentReplyInSpace({ grant, params, body }, ctx) {
    return { status: 200, body: await updateReply(ctx, grant, params.commentId, params.commentReplyId, body) };
  },
  async deleteCommentReplyInSpace({ grant, params }, ctx) {
    await deleteReply(ctx, grant, params.commentId, params.commentReplyId);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof commentOperations>>;
