// The paths of the API served without a bearer token (see `LinkOperation`): the bytes behind a file's
// `downloadURL`, a change request's PDF behind getChangeRequestPDF's URL, an integration's images, and the
// published document itself. Answered by their own routes (server/api.ts); published here so the mock, the
// typed client and the breaking-change gate see them.
import { ex } from './examples.js';
import { changeRequestId } from './content.js';
import { fileId } from './content-schemas.js';
import { exampleIntegrationName } from './integration-schemas.js';
import { linkOperations } from './operation.js';
import { z } from './zod.js';

const segment = (description: string, example: string) => z.string().min(1).max(1024).openapi({ description, example });

export const downloadOperations = linkOperations({
  downloadFile: {
    method: 'get',
    path: '/files/{spaceId}/{fileId}/{name}',
    tag: 'content',
    summary: "Download a file's bytes",
    description:
      "The bytes of a file of a space, at the `downloadURL` its revision gives (the URL is the permission: it opens without a token). " +
      'Shown in place for images, PDF, plain text, MP4 and MP3, downloaded otherwise; `private, max-age=300`. A URL this server did not sign, ' +
      'or a file or space deleted since, is not found; past its `expires`, 410.',
    params: z.object({
      spaceId: segment('The id of the space.', ex.spaceId),
      fileId: segment('The id of the file.', fileId),
      name: segment('The name of the file (any: the link is signed for the space and the file).', 'architecture-overview.png'),
    }),
    query: z.object({
      expires: z.string().min(1).openapi({ description: 'When the link expires, in seconds since the Unix epoch (signed).', example: '1732021200' }),
      signature: z.string().min(1).openapi({ description: 'The signature of the link.', example: 'Jx0aQe4c2m1q6y8Vb3nR9tK5wL7pZs0dFh2gUiOoE1c' }),
    }),
    responses: {
      200: {
        description: "The file's bytes, as its `contentType`, with `Content-Disposition` naming it.",
        mediaTypes: ['*/*'], // the file's own type
        headers: { 'Content-Disposition': { description: '`inline` or `attachment`, with the file name.', example: "inline; filename=\"architecture-overview.png\"; filename*=UTF-8''architecture-overview.png" } },
      },
    },
    errors: [404, 410, 500, 503],
    permission: 'signed',
  },
  downloadChangeRequestPDF: {
    method: 'get',
    path: '/pdf/{spaceId}/{file}',
    tag: 'change-requests',
    summary: 'Download the PDF of a change request',
    description:
      'The PDF behind a URL getChangeRequestPDF gave (`<changeRequestId>.pdf?token=…`; the token is the permission: it opens without an ' +
      'access token), of the content as it was when the URL was made. An unknown or mismatched link is not found; after 1 hour, 410.',
    params: z.object({
      spaceId: segment('The id of the space.', ex.spaceId),
      file: segment('The change request id followed by `.pdf`.', `${changeRequestId}.pdf`),
    }),
    query: z.object({
      token: z.string().min(1).openapi({ description: 'The token of the link.', example: 'f3Jk9QxB' }),
    }),
    responses: { 200: { description: 'The PDF.', mediaTypes: ['application/pdf'] } },
    errors: [404, 410, 500, 503],
    permission: 'signed',
  },
  getIntegrationAsset: {
    method: 'get',
    path: '/integrations/{integrationName}/assets/{file}',
    tag: 'integrations',
    summary: 'Get an image of an integration',
    description:
      "An icon or preview image of a public or unlisted integration: the URLs its `urls.icon` and `previewImages` give, which browsers " +
      'load without a token. Typed by the image it is (PNG, JPEG, GIF, WebP, SVG); an SVG cannot run scripts. A private integration\'s, or an unknown file, is not found.',
    params: z.object({
      integrationName: segment('The name of the integration.', exampleIntegrationName),
      file: segment('The name of the image file.', 'preview-1.png'),
    }),
    responses: { 200: { description: 'The image.', mediaTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] } },
    errors: [404, 500, 503],
    permission: 'public',
  },
  getOpenAPIDocument: {
    method: 'get',
    path: '/openapi.json',
    tag: 'api',
    summary: 'Get this API description as JSON',
    description: 'This OpenAPI 3.1 document, as JSON, to anyone.',
    responses: {
      200: {
        description: 'The OpenAPI document.',
        schema: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }).loose(), paths: z.record(z.string(), z.unknown()) }).loose(),
        example: { openapi: '3.1.0', info: { title: 'Documentation Workspace Management API', version: '5.0.0' }, paths: {} },
      },
    },
    errors: [500],
    permission: 'public',
  },
  getOpenAPIDocumentYaml: {
    method: 'get',
    path: '/openapi.yaml',
    tag: 'api',
    summary: 'Get this API description as YAML',
    description: 'This OpenAPI 3.1 document, as YAML, to anyone.',
    responses: {
      200: {
        description: 'The OpenAPI document.',
        text: {
          mediaType: 'application/yaml',
          description: 'This OpenAPI 3.1 document as YAML text (the same document as GET /openapi.json).',
          example: "openapi: 3.1.0\ninfo:\n  title: Documentation Workspace Management API\n  version: 5.0.0\npaths: {}\n",
        },
      },
    },
    errors: [500],
    permission: 'public',
  },
});
