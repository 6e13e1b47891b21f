import type { userOperations } from '../../contract/users.js';
import type { AppHandlers } from '../handler-types.js';
import { getReadableUser, getUser } from './users.store.js';

export const userHandlers = {
  async getAuthenticatedUser(_input, ctx) {
    return { status: 200, body: await getUser(ctx.db, ctx.urls, ctx.caller.userId) };
  },
  async getUserById({ params }, ctx) {
    return { status: 200, body: await getReadableUser(ctx, params.userId) };
  },
} satisfies Pick<AppHandlers, keyof typeof userOperations>;
