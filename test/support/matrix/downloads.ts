// Recipes of the paths served without a token (contract/downloads.ts): a valid URL of each, as a client
// gets it from the API (a file's `downloadURL`, getChangeRequestPDF's `url`, an integration's `urls.icon`),
// relative to the server's origin. Shared by the access matrix and the fuzz test.
import { PUBLIC_URL } from '../harness.js';
import { publishAs } from './integrations.js';
import type { MatrixFixtures, MatrixWorld } from './types.js';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
let counter = 0;

/** The path and query of an absolute URL this server handed out. */
function local(url: string): string {
  if (!url.startsWith(`${PUBLIC_URL}/v1/`)) throw new Error(`not a URL of this server: ${url}`);
  return url.slice(PUBLIC_URL.length);
}

/** A change request of a new space, with a page and a file in it. */
async function changeRequestWithFile({ admin }: MatrixWorld) {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Downloads' });
  const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`, { subject: 'Downloads' });
  const done = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', document: { markdown: '# Downloads\n\nA page.' } },
      { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: png }] },
    ],
  });
  if (done.status !== 200) throw new Error(`insert failed: ${done.status} ${JSON.stringify(done.body)}`);
  return { spaceId: space.body.id as string, changeRequestId: cr.body.id as string, downloadURL: done.body.insertedFiles[0].downloadURL as string };
}

export const downloadFixtures: MatrixFixtures = {
  links: {
    downloadFile: async (world) => local((await changeRequestWithFile(world)).downloadURL),
    downloadChangeRequestPDF: async (world) => {
      const { spaceId, changeRequestId } = await changeRequestWithFile(world);
      const res = await world.admin.api.get(`/spaces/${spaceId}/change-requests/${changeRequestId}/pdf`);
      if (res.status !== 200) throw new Error(`getChangeRequestPDF failed: ${res.status} ${JSON.stringify(res.body)}`);
      return local(res.body.url);
    },
    getIntegrationAsset: async (world) => local((await publishAs(world.admin, `downloads-${Date.now().toString(36)}-${++counter}`, { icon: png })).urls.icon),
    getOpenAPIDocument: async () => '/v1/openapi.json',
    getOpenAPIDocumentYaml: async () => '/v1/openapi.yaml',
  },
};
