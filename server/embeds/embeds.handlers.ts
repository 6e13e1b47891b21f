import type { embedOperations } from '../../contract/embeds.js';
import type { AppHandlers } from '../handler-types.js';
import { embedOf, embedUrl } from './embeds.js';

export const embedHandlers = {
  async getEmbedByUrlInSpace({ query }, ctx) {
    void ctx;
    return { status: 200, body: await embedOf(embedUrl(query.url)) };
  },
} satisfies Pick<AppHandlers, keyof typeof embedOperations>;
