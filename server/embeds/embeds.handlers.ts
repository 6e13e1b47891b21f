import type { embedOperations } from '../../contract/embeds.js';
import type { AppHandlers } from '../handler-types.js';
import { embedOf, embedUrl } from './embeds.js';

export const embedHandlers = {
  // The space is only the access check (read on it): what an embed shows does not depend on the space.
  async getEmbedByUrlInSpace({ query }, ctx) {
    return { status: 200, body: await embedOf(embedUrl(query.url), ctx.log) };
  },
} satisfies Pick<AppHandlers, keyof typeof embedOperations>;
