import type { userOperations } from '../../contract/users.js';
import type { AppHandlers } from '../handler-types.js';
import { getUser } from './users.store.js';

export const userHandlers = {
  async getAuthenticatedUser(_input, ctx) {
    return { status: 200, body: await getUser(ctx.db, ctx.urls, ctx.caller.userId) };
  },
} satisfies Pick<AppHandlers, keyof typeof userOperations>;
