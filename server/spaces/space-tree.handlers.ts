import type { spaceOperations } from '../../contract/spaces.js';
import type { AppHandlers } from '../handler-types.js';
import { duplicateSpace, moveSpace, transferSpace } from './space-tree.store.js';

export const spaceTreeHandlers = {
  async duplicateSpace({ grant }, ctx) {
    const space = await duplicateSpace(ctx, grant);
    return { status: 201, body: space, headers: { Location: space.urls.location } };
  },
  async moveSpace({ grant, body }, ctx) {
    return { status: 200, body: await moveSpace(ctx, grant, body) };
  },
  async transferSpace({ grant, body }, ctx) {
    return { status: 200, body: await transferSpace(ctx, grant, body) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof spaceOperations>>;
