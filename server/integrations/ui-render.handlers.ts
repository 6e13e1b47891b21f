// renderIntegrationUIWithPost and renderIntegrationUIWithGet (ui-render.store.ts): the output, with the cache the
// component asked for. The GET variant carries the same body in its `request` query parameter, LZ-string
// compressed (render-request.ts), and is answered by the same code.
import type { integrationUiOperations } from '../../contract/integration-ui.js';
import type { AppHandlers } from '../handler-types.js';
import { renderRequestOf } from './render-request.js';
import { renderIntegrationUi } from './ui-render.store.js';

export const integrationUiHandlers = {
  async renderIntegrationUIWithPost({ params, body }, ctx) {
    const rendered = await renderIntegrationUi(ctx, params.integrationName, body);
    return { status: 200, body: rendered.output, headers: { 'Cache-Control': rendered.cacheControl ?? 'no-cache' } };
  },
  async renderIntegrationUIWithGet({ params, query }, ctx) {
    const rendered = await renderIntegrationUi(ctx, params.integrationName, renderRequestOf(query.request), 'query.request');
    return { status: 200, body: rendered.output, headers: { 'Cache-Control': rendered.cacheControl ?? 'no-cache' } };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof integrationUiOperations>>;
