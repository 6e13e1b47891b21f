// Matrix fixtures of OpenAPI specifications: a specification processed from text (so it has a version).
import { pino } from 'pino';
import { createJobRunner } from '../../../server/jobs/runner.js';
import { processOpenAPISpecHandler, PROCESS_OPENAPI_SPEC } from '../../../server/openapi/process.job.js';
import type { Harness } from '../harness.js';
import type { MatrixFixtures } from './types.js';

export const petstoreYaml = `openapi: 3.1.0
info:
  title: Pet store
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: The pets.
`;

/** Runs the queued OpenAPI processing jobs of the harness database, with a fetch deadline of `timeoutMs`. */
export async function drainOpenAPIJobs(h: Harness, timeoutMs = 2000): Promise<number> {
  const runner = createJobRunner({
    db: h.db,
    logger: pino({ level: 'silent' }),
    handlers: { [PROCESS_OPENAPI_SPEC]: processOpenAPISpecHandler({ timeoutMs, maxBytes: 1024 * 1024 }) },
  });
  return runner.drain();
}

let counter = 0;

export const openAPIFixtures: MatrixFixtures = {
  params: {
    specSlug: async ({ admin, h }) => {
      const slug = `matrix-${++counter}`;
      await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug, source: { text: petstoreYaml } });
      await drainOpenAPIJobs(h);
      return slug;
    },
    versionId: async ({ admin }, path) =>
      (await admin.api.get(`/orgs/${admin.organizationId}/openapi/${path.specSlug}/versions/latest`)).body.id,
  },
  bodies: {
    createOpenAPISpec: () => ({ slug: `matrix-new-${++counter}`, source: { text: petstoreYaml } }),
    createOrUpdateOpenAPISpecBySlug: () => ({ source: { text: petstoreYaml } }),
    updateOpenAPISpecBySlug: () => ({ visibility: 'public' }),
  },
};
