import type { openAPISpecOperations } from '../../contract/openapi-specs.js';
import type { AppHandlers } from '../handler-types.js';
import {
  createSpec,
  deleteSpec,
  getSpec,
  getVersion,
  getVersionContent,
  listSpecs,
  listVersions,
  putSpec,
  setSpecVisibility,
} from './specs.store.js';

export const openAPIHandlers = {
  async listOpenAPISpecs({ grant, query }, ctx) {
    return { status: 200, body: await listSpecs(ctx, grant, query) };
  },
  async createOpenAPISpec({ grant, body }, ctx) {
    const spec = await createSpec(ctx, grant, body.slug, body.source);
    return { status: 201, body: spec, headers: { Location: spec.urls.location } };
  },
  async getOpenAPISpecBySlug({ grant, params }, ctx) {
    return { status: 200, body: await getSpec(ctx, grant, params.specSlug) };
  },
  async createOrUpdateOpenAPISpecBySlug({ grant, params, body }, ctx) {
    const { created, spec } = await putSpec(ctx, grant, params.specSlug, body.source);
    return created ? { status: 201, body: spec, headers: { Location: spec.urls.location } } : { status: 200, body: spec };
  },
  async deleteOpenAPISpecBySlug({ grant, params }, ctx) {
    await deleteSpec(ctx, grant, params.specSlug);
    return { status: 204 };
  },
  async updateOpenAPISpecBySlug({ grant, params, body }, ctx) {
    return { status: 200, body: await setSpecVisibility(ctx, grant, params.specSlug, body.visibility) };
  },
  async listOpenAPISpecVersions({ grant, params, query }, ctx) {
    return { status: 200, body: await listVersions(ctx, grant, params.specSlug, query) };
  },
  async getLatestOpenAPISpecVersion({ grant, params }, ctx) {
    return { status: 200, body: await getVersion(ctx, grant, params.specSlug, 'latest') };
  },
  async getLatestOpenAPISpecVersionContent({ grant, params }, ctx) {
    return { status: 200, body: await getVersionContent(ctx, grant, params.specSlug, 'latest') };
  },
  async getOpenAPISpecVersionById({ grant, params }, ctx) {
    return { status: 200, body: await getVersion(ctx, grant, params.specSlug, params.versionId) };
  },
  async getOpenAPISpecVersionContentById({ grant, params }, ctx) {
    return { status: 200, body: await getVersionContent(ctx, grant, params.specSlug, params.versionId) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof openAPISpecOperations>>;
