import type { userOperations } from '../../contract/users.js';
import type { AppHandlers } from '../handler-types.js';
import { NotFound } from '../errors.js';
import { mayReadUser } from './user-visibility.js';
import { getUser } from './users.store.js';

export const userHandlers = {
  async getAuthenticatedUser(_input, ctx) {
    return { status: 200, body: await getUser(ctx.db, ctx.urls, ctx.caller.userId) };
  },
  async getUserById({ params }, ctx) {
    // Someone the caller may not read is not found, exactly as an unknown id is.
    if (!(await mayReadUser(ctx, params.userId))) throw new NotFound(`User ${params.userId} (path.userId) not found`);
    return { status: 200, body: await getUser(ctx.db, ctx.urls, params.userId) };
  },
} satisfies Pick<AppHandlers, keyof typeof userOperations>;
