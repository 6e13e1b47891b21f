// Comments of a space and their replies.
import { DateTime, listExample, listOf, paginationQuery, queryArray } from './common.js';
import { pageId as commentPageId } from './content-schemas.js';
import { Document } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { User, userExample } from './users.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const commentId = 'cmt_01JD3QE6T9WH5MB';
export const commentReplyId = 'rpl_01JD3QE8V2XJ7NC';
const commentNodeId = 'b7fQz2';

/**
 * Rich text given or returned as Markdown (`{ markdown }`), as a rich-text document (`{ document }`), or
 * empty (`{}`). Comment and reply bodies use it, and so do the page documents of change-request content
 * updates.
 */
export const MarkdownOrDocument = z
  .union([
    z.strictObject({ markdown: z.string().min(1).max(100_000).openapi({ description: 'The text, in Markdown.' }) }),
    z.strictObject({ document: Document }),
    z.strictObject({}),
  ])
  .openapi('MarkdownOrDocument', {
    description: 'Rich text: `{ markdown }` (1–100000 characters), `{ document }` (a rich-text document), or `{}` (empty).',
    example: { markdown: 'Should this step mention the **API token** scope?' },
  });

const reactionEmoji = z.string().min(1).max(50).openapi({ description: 'An emoji.', example: '👍' });

export const CommentReaction = z
  .object({
    emoji: z.string(),
    count: z.number().int().openapi({ description: 'Number of users who reacted with this emoji.' }),
    users: z.array(z.object({ user: User, reactedAt: DateTime })),
  })
  .openapi('CommentReaction', { description: 'The users who reacted to a comment or reply with one emoji.' });

const CommentPermissions = z.object({
  view: z.boolean(),
  edit: z.boolean().openapi({ description: 'Whether the caller may change the body (the author only).' }),
  reply: z.boolean(),
  delete: z.boolean(),
});

export const CommentStatus = z
  .enum(['open', 'resolved'])
  .openapi('CommentStatus', { description: 'open, or resolved (then `resolvedAt` and `resolvedBy` are set).', example: 'open' });

const reactionExample = {
  emoji: '👍',
  count: 1,
  users: [{ user: userExample, reactedAt: '2026-05-02T17:03:12.000Z' }],
};

export const commentExample = {
  object: 'comment' as const,
  id: commentId,
  postedBy: userExample,
  postedAt: ex.createdAt,
  editedAt: '2026-03-14T09:31:20.000Z',
  reactions: [reactionExample],
  replies: 1,
  repliers: [{ updatedAt: ex.updatedAt, count: 1, user: userExample }],
  body: { markdown: 'Should this step mention the **API token** scope?' },
  target: { node: { id: commentNodeId }, page: { id: commentPageId }, space: ex.spaceId, revision: ex.revisionId },
  urls: { location: `${ex.baseUrl}/v1/spaces/${ex.spaceId}/comments/${commentId}` },
  permissions: { view: true, edit: true, reply: true, delete: true },
  status: 'open' as const,
};

/** What a comment and a reply both are: a body posted, maybe edited, by a user, with reactions. */
const postFields = {
  id: z.string(),
  postedBy: User,
  postedAt: DateTime,
  editedAt: DateTime.openapi(conditional('When the body was last changed; absent if never edited.')).optional(),
  reactions: z.array(CommentReaction),
  body: MarkdownOrDocument,
  urls: z.object({ location: z.url() }),
  permissions: CommentPermissions,
};

/** The body a comment or a reply is posted with, and what changing one takes. */
const postBody = { body: MarkdownOrDocument };
const reactions = (description: string) => z.array(reactionEmoji).max(100).openapi({ description }).optional();
const updateBodyFields = {
  body: MarkdownOrDocument.optional(),
  addedReactions: reactions('Emojis the caller reacts with.'),
  removedReactions: reactions('Emojis whose reaction by the caller is removed.'),
};

export const Comment = z
  .object({
    object: z.literal('comment'),
    ...postFields,
    replies: z.number().int().openapi({ description: 'Number of replies.' }),
    repliers: z
      .array(z.object({ updatedAt: DateTime, count: z.number().int(), user: User }))
      .openapi({ description: 'The users who replied, with the number of their replies and the time of their latest one.' }),
    target: z
      .object({
        node: z.object({ id: z.string() }).openapi({ description: 'The block of the page the comment is anchored to.' }).optional(),
        tableCell: z
          .object({ record: z.string(), definition: z.string() })
          .optional()
          .openapi({ description: 'The table cell the comment is anchored to: its record (row) and definition (column).' }),
        changeRequest: z.string().openapi({ description: 'Id of the change request the comment belongs to.' }).optional(),
        review: z.string().openapi({ description: 'Id of the change-request review the comment belongs to.' }).optional(),
        page: z.object({ id: z.string() }).openapi({ description: 'The page commented on.' }).optional(),
        space: z.string().optional(),
        revision: z.string().openapi({ description: 'Id of the revision the comment was posted on.' }).optional(),
      })
      .openapi({ description: 'What the comment is about.' }),
    status: CommentStatus,
    resolvedAt: DateTime.optional(),
    resolvedBy: User.optional(),
  })
  .openapi('Comment', { description: 'A comment on a space, a page or a block.', example: commentExample });

export const commentReplyExample = {
  object: 'comment-reply' as const,
  id: commentReplyId,
  postedBy: userExample,
  postedAt: ex.updatedAt,
  reactions: [],
  body: { markdown: 'Yes: it needs the `space:content:write` scope.' },
  urls: { location: `${ex.baseUrl}/v1/spaces/${ex.spaceId}/comments/${commentId}/replies/${commentReplyId}` },
  permissions: { view: true, edit: true, reply: true, delete: true },
};

export const CommentReply = z
  .object({
    object: z.literal('comment-reply'),
    ...postFields,
  })
  .openapi('CommentReply', { description: 'A reply to a comment.', example: commentReplyExample });

const CommentIdParams = SpaceIdParams.extend({
  commentId: z.string().min(1).max(128).openapi({ description: 'The id of the comment.', example: commentId }),
});

const CommentReplyIdParams = CommentIdParams.extend({
  commentReplyId: z.string().min(1).max(128).openapi({ description: 'The id of the reply.', example: commentReplyId }),
});

export const commentBodyFormat = z
  .enum(['document', 'markdown'])
  .optional()
  .openapi({ description: 'Format of the returned bodies: `markdown` (`{ markdown }`, the default) or `document` (`{ document }`).' });

const format = commentBodyFormat;

const commentResponse = (description: string) => ({ description, schema: Comment, example: commentExample });
const replyResponse = (description: string) => ({ description, schema: CommentReply, example: commentReplyExample });

export const commentOperations = operations({
  listCommentsInSpace: {
    method: 'get',
    path: '/spaces/{spaceId}/comments',
    tag: 'comments',
    summary: 'List the comments of a space',
    description:
      'Lists the comments of a space (those of its change requests included), newest first unless `order=asc`. Filters: ' +
      '`status` (open, resolved, or all by default), `targetPage` (comments on one page), `changeRequest` (comments of one ' +
      'change request) and `authors` (comments posted by any of these users).',
    params: SpaceIdParams,
    query: z.object({
      ...paginationQuery,
      order: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'Sort by posting time (default desc: newest first).' }),
      status: z
        .enum(['all', 'open', 'resolved'])
        .default('all')
        .openapi({ description: 'Only open, or only resolved comments (default all).' }),
      format,
      targetPage: z.string().min(1).max(128).openapi({ description: 'Only the comments on this page (a page id).' }).optional(),
      changeRequest: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .openapi({ description: 'Only the comments of this change request (its id or number).' }),
      authors: queryArray(z.string().min(1).max(128), 'Only the comments posted by these users (user ids; repeat the parameter).').optional(),
    }),
    responses: {
      200: { description: 'A page of comments.', schema: listOf('CommentList', Comment), example: listExample([commentExample]) },
    },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  postCommentInSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/comments',
    tag: 'comments',
    summary: 'Post a comment',
    description:
      'Posts a comment on the space, or on one of its pages (`page`), a block of that page (`node`) or a table cell ' +
      '(`tableCell`); with `changeRequest`, on that change request (its pages are then those of the change request). ' +
      '`node` and `tableCell` need their `page` (400 otherwise). An unknown space, change request or page is not found, ' +
      'and so is a `node` that is not the `key` of a block of that page in that content (read the keys from the ' +
      "page's `format=document`).",
    params: SpaceIdParams,
    body: z
      .strictObject({
        ...postBody,
        changeRequest: z
          .string()
          .min(1)
          .max(128)
          .optional()
          .openapi({ description: 'Id (or number) of the change request of the space commented on.' }),
        node: z
          .string()
          .min(1)
          .max(128)
          .optional()
          .openapi({ description: "Key of the block commented on: a block `key` of the page's document (needs `page`)." }),
        page: z.string().min(1).max(128).openapi({ description: 'Id of the page commented on.' }).optional(),
        tableCell: z
          .strictObject({
            record: z.string().min(1).max(128).openapi({ description: 'Id of the row.' }),
            definition: z.string().min(1).max(128).openapi({ description: 'Id of the column.' }),
          })
          .optional()
          .openapi({ description: 'The table cell commented on.' }),
      })
      .openapi('PostComment'),
    bodyExample: { body: { markdown: 'Should this step mention the **API token** scope?' }, page: commentPageId, node: commentNodeId },
    responses: { 200: commentResponse('The posted comment.') },
    errors: [403, 404],
    access: access.space('comment'),
    statements: 7,
  },
  getCommentInSpace: {
    method: 'get',
    path: '/spaces/{spaceId}/comments/{commentId}',
    tag: 'comments',
    summary: 'Get a comment',
    description: 'Returns a comment of the space, with its body in the requested `format`. An unknown comment is not found.',
    params: CommentIdParams,
    query: z.object({ format }),
    responses: { 200: commentResponse('The comment.') },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  updateCommentInSpace: {
    method: 'put',
    path: '/spaces/{spaceId}/comments/{commentId}',
    tag: 'comments',
    summary: 'Update a comment',
    description:
      'Changes a comment: resolves or reopens it (`resolved`), replaces its body (the author only), and adds or removes ' +
      "the caller's reactions. Omitted fields are unchanged. Needs the comment role; changing the body of someone else's " +
      'comment is forbidden.',
    params: CommentIdParams,
    body: z
      .strictObject({
        resolved: z.boolean().openapi({ description: 'true resolves the comment, false reopens it.' }).optional(),
        ...updateBodyFields,
      })
      .openapi('UpdateComment'),
    bodyExample: { resolved: true, addedReactions: ['👍'] },
    responses: { 200: commentResponse('The updated comment.') },
    errors: [403, 404],
    access: access.space('comment'),
    statements: 8,
  },
  deleteCommentInSpace: {
    method: 'delete',
    path: '/spaces/{spaceId}/comments/{commentId}',
    tag: 'comments',
    summary: 'Delete a comment',
    description:
      'Deletes a comment with its replies. Needs to be its author or to have the admin role. ' +
      'Succeeds with no content also when the comment did not exist.',
    params: CommentIdParams,
    responses: { 204: { description: 'The comment is gone.' } },
    errors: [403],
    access: access.space('comment'),
    statements: 4,
  },
  listCommentRepliesInSpace: {
    method: 'get',
    path: '/spaces/{spaceId}/comments/{commentId}/replies',
    tag: 'comments',
    summary: 'List the replies to a comment',
    description: 'Lists the replies to a comment, oldest first. An unknown comment is not found.',
    params: CommentIdParams,
    query: z.object({ ...paginationQuery, format }),
    responses: {
      200: {
        description: 'A page of replies.',
        schema: listOf('CommentReplyList', CommentReply),
        example: listExample([commentReplyExample]),
      },
    },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  postCommentReplyInSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/comments/{commentId}/replies',
    tag: 'comments',
    summary: 'Reply to a comment',
    description: 'Posts a reply to a comment. An unknown comment is not found.',
    params: CommentIdParams,
    body: z.strictObject(postBody).openapi('PostCommentReply'),
    bodyExample: { body: { markdown: 'Yes: it needs the `space:content:write` scope.' } },
    responses: { 200: replyResponse('The posted reply.') },
    errors: [403, 404],
    access: access.space('comment'),
    statements: 6,
  },
  getCommentReplyInSpace: {
    method: 'get',
    path: '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
    tag: 'comments',
    summary: 'Get a reply to a comment',
    description: 'Returns a reply, with its body in the requested `format`. An unknown comment or reply is not found.',
    params: CommentReplyIdParams,
    query: z.object({ format }),
    responses: { 200: replyResponse('The reply.') },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  updateCommentReplyInSpace: {
    method: 'put',
    path: '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
    tag: 'comments',
    summary: 'Update a reply to a comment',
    description:
      "Replaces the body of a reply (the author only) and adds or removes the caller's reactions. Omitted fields are " +
      'unchanged.',
    params: CommentReplyIdParams,
    body: z
      .strictObject(updateBodyFields)
      .openapi('UpdateCommentReply'),
    bodyExample: { body: { markdown: 'Yes: it needs the `space:content:write` scope, see [Scopes](https://docs.example.com/scopes).' } },
    responses: { 200: replyResponse('The updated reply.') },
    errors: [403, 404],
    access: access.space('comment'),
    statements: 8,
  },
  deleteCommentReplyInSpace: {
    method: 'delete',
    path: '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
    tag: 'comments',
    summary: 'Delete a reply to a comment',
    description:
      'Deletes a reply. Needs to be its author or to have the admin role. ' +
      'Succeeds with no content also when the comment or the reply did not exist.',
    params: CommentReplyIdParams,
    responses: { 204: { description: 'The reply is gone.' } },
    errors: [403],
    access: access.space('comment'),
    statements: 6,
  },
});
