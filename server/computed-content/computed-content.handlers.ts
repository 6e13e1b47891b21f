// getComputedDocument and getComputedRevision: content computed from a source, by its type. The built-in
// `builtin:openapi` is computed from the space's organization's specification (revisions/computed-*.ts); an
// integration's source (`integration:<name>:<sourceId>`) by the integration's script
// (integrations/content-compute.ts). This area composes both, so the core area of revisions imports no
// platform area (docs/architecture.md).
import type { computedContentOperations } from '../../contract/computed-content.js';
import { published } from '../content/markdown-document.js';
import type { AppHandlers } from '../handler-types.js';
import { integrationDocument, integrationRevision } from '../integrations/content-compute.js';
import { computeOpenAPIDocument } from '../revisions/computed-document.js';
import { computedId, computedPages } from '../revisions/computed-pages.js';
import { openAPIRevisionPages } from '../revisions/computed-revision.js';

/** Whether the source is the built-in one (an integration's `type` is any `integration:…` string, which TypeScript cannot tell apart by itself). */
const builtin = <S extends { type: string }>(source: S): source is Extract<S, { type: 'builtin:openapi' }> => source.type === 'builtin:openapi';

export const computedContentHandlers = {
  async getComputedDocument({ grant, body }, ctx) {
    const { source, seed } = body;
    const document = builtin(source) ? await computeOpenAPIDocument(ctx, grant, source, seed) : await integrationDocument(ctx, grant, source);
    return { status: 200, body: published(document) };
  },
  async getComputedRevision({ grant, body }, ctx) {
    const { source, seed } = body;
    const app = (path: string) => ctx.urls.app(`/s/${grant.row.id}/${path}`);
    if (builtin(source)) {
      return { status: 200, body: { pages: computedPages(await openAPIRevisionPages(ctx, grant, source), seed, app), files: [], reusableContents: [] } };
    }
    const { pages, files } = await integrationRevision(ctx, grant, source);
    return {
      status: 200,
      body: {
        pages: computedPages(pages, seed, app),
        files: files.map((file, i) => ({ ...file, id: file.id ?? computedId(seed, `file/${i}`) })),
        reusableContents: [],
      },
    };
  },
} satisfies Pick<AppHandlers, keyof typeof computedContentOperations>;
