// renderIntegrationUIWithPost (ui-render.store.ts): the output, with the cache the component asked for.
import type { integrationUiOperations } from '../../contract/integration-ui.js';
import type { AppHandlers } from '../handler-types.js';
import { renderIntegrationUi } from './ui-render.store.js';

export const integrationUiHandlers = {
  async renderIntegrationUIWithPost({ params, body }, ctx) {
    const rendered = await renderIntegrationUi(ctx, params.integrationName, body);
    return { status: 200, body: rendered.output, headers: { 'Cache-Control': rendered.cacheControl ?? 'no-cache' } };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof integrationUiOperations>>;
