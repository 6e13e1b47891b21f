// Content computed from a source, as GitBook's computed pages and reusable contents show it: a document
// (getComputedDocument) or the pages and files of a revision (getComputedRevision). A source is built in
// (`builtin:openapi`: an OpenAPI specification of the space's organization) or an integration's content
// source (`integration:<name>:<sourceId>`), computed by the integration's script (`content_compute_*`).
import { ContentRef, Document } from './document.js';
import { RevisionFile, RevisionPage, RevisionReusableContent } from './content-schemas.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

export const computedSourceExample = {
  type: 'builtin:openapi',
  dependencies: { spec: { ref: { kind: 'openapi' as const, spec: 'petstore' } } },
  props: { doc: 'operation', page: '/pets', method: 'get' },
};

const integrationSourceExample = {
  type: 'integration:acme-dashboards:dashboards',
  props: { dashboard: 'weekly-signups' },
  dependencies: { guide: { ref: { kind: 'space' as const, space: 'spc_01JD3Q5J7N3A8QZ' } } },
};

const specDependency = z
  .strictObject({
    spec: z
      .strictObject({
        ref: z.strictObject({ kind: z.literal('openapi'), spec: z.string().min(1).max(100).openapi({ description: 'Slug of the specification.' }) }),
      })
      .openapi({ description: 'The OpenAPI specification, of the space\'s organization: public, or the caller a member with a role.' }),
  })
  .openapi({ description: 'What the computation reads.' });

const openAPIDocumentProps = z
  .discriminatedUnion('doc', [
    z.strictObject({
      doc: z.literal('operation'),
      page: z.string().min(1).max(2048).openapi({ description: 'The path of the operation (`/pets`), or the webhook\'s name with `method: hook`.' }),
      method: z.enum(['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace', 'hook']),
      deprecated: z.boolean().optional().openapi({ description: 'Accepted as the public API has it; the block is the same.' }),
    }),
    z.strictObject({ doc: z.enum(['operations', 'tag']), page: z.string().min(1).max(200).openapi({ description: 'The tag.' }) }),
    z.strictObject({ doc: z.literal('models') }),
    z.strictObject({ doc: z.literal('info'), page: z.string().max(200).optional() }),
  ])
  .openapi({
    description:
      '`operation`: the operation\'s block (`openapi-operation`, or `openapi-webhook` for `hook`); `operations` and `tag`: a ' +
      'heading, the tag\'s description and a block per operation of the tag, in the specification\'s order; `models`: one ' +
      '`openapi-schemas` block listing every schema; `info`: the title, version and description of the API.',
  });

const openAPIRevisionProps = z
  .strictObject({
    models: z.boolean().openapi({ description: 'Whether a `Models` page lists the schemas.' }),
    downloadLink: z.boolean().optional().openapi({ description: 'Accepted as the public API has it; the pages are the same.' }),
    grouping: z
      .enum(['by-tag', 'by-operation'])
      .optional()
      .openapi({ description: '`by-tag` (the default): a page per tag; `by-operation`: a group per tag with a page per operation.' }),
  })
  .openapi({ description: 'How the pages are made.' });

export const integrationSourceType = /^integration:[^:]+:[^:]+$/;

/** Plain JSON properties, as GitBook's `PlainObject`. */
const PlainObject = z.record(z.string().max(200), z.unknown()).openapi({ description: 'Properties passed to the computation, as given.' });

export const ComputedIntegrationSource = z
  .strictObject({
    type: z
      .string()
      .max(300)
      // Aborting: a source of another type is then reported by its own branch's problems (server/http/validation.ts).
      .regex(integrationSourceType, { abort: true })
      .openapi({
        description:
          '`integration:<integration name>:<source id>`: the content source the integration declared when it was published ' +
          '(`contentSources`), computed by its script; the integration must be installed on the space (400 naming `source.type` otherwise).',
      }),
    props: PlainObject,
    dependencies: z
      .record(
        z.string().min(1).max(100),
        z.strictObject({
          ref: ContentRef,
          value: z.unknown().optional().openapi({ description: 'Accepted as GitBook\'s resolved dependency has it; the server resolves the reference itself.' }),
        }),
      )
      .optional()
      .openapi({
        description:
          'Content the computation depends on, by name: a `space` or an `openapi` specification of the space\'s organization, ' +
          'resolved for the script (`value`: the space and its current revision, or the specification and its last version; ' +
          '`null` when the caller cannot see it). Other kinds are refused (400 naming the dependency).',
      }),
  })
  .openapi('ComputedIntegrationSource', { description: 'A content source of an integration.', example: integrationSourceExample });

export const ComputedDocumentSource = z
  .union([
    z
      .strictObject({
        type: z.literal('builtin:openapi').openapi({ description: 'A document from an OpenAPI specification.' }),
        dependencies: specDependency,
        props: openAPIDocumentProps,
      })
      .openapi({ description: 'An OpenAPI specification of the space\'s organization.' }),
    ComputedIntegrationSource,
  ])
  .openapi('ComputedDocumentSource', {
    description: 'What computes the document: `builtin:openapi` or an integration\'s content source. `builtin:translation` is not computed here.',
    example: computedSourceExample,
  });

export const ComputedRevisionSource = z
  .union([
    z
      .strictObject({
        type: z.literal('builtin:openapi').openapi({ description: 'Pages from an OpenAPI specification.' }),
        dependencies: specDependency,
        props: openAPIRevisionProps,
      })
      .openapi({ description: 'An OpenAPI specification of the space\'s organization.' }),
    ComputedIntegrationSource,
  ])
  .openapi('ComputedRevisionSource', {
    description: 'What computes the pages: `builtin:openapi` or an integration\'s content source. `builtin:translation` is not computed here.',
    example: { ...computedSourceExample, props: { models: true } },
  });

const seed = z.string().min(1).max(200).openapi({ description: 'Seed of the generated ids and keys: the same seed and source give the same ones.' });

export const ComputeDocument = z.strictObject({ source: ComputedDocumentSource, seed }).openapi('ComputeDocument');
export const ComputeRevision = z.strictObject({ source: ComputedRevisionSource, seed }).openapi('ComputeRevision');

export const ComputedRevision = z
  .object({
    pages: z.array(RevisionPage).openapi({ description: 'Top-level pages, in order, each with its child pages.' }),
    files: z.array(RevisionFile),
    reusableContents: z.array(RevisionReusableContent).openapi({ description: 'None: a computation makes pages and files.' }),
  })
  .openapi('ComputedRevision', { description: 'The pages and files a source computes.' });

const computedPageExample = {
  id: 'k3Xq9aTn2LbV',
  title: 'pets',
  kind: 'sheet' as const,
  type: 'document' as const,
  slug: 'pets',
  path: 'pets',
  pages: [],
  computed: {
    type: 'builtin:openapi' as const,
    dependencies: { spec: { ref: { kind: 'openapi' as const, spec: 'petstore' } } },
    props: { doc: 'operations', page: 'pets' },
  },
  computedSeed: 'api-pets',
};

const schemaQuery = z.object({
  schema: z.enum(['current', 'next']).optional().openapi({ description: 'Version of the document schema: both answer the same document.' }),
});

const integrationCompute =
  'An integration\'s source (`integration:<name>:<sourceId>`) is computed by the integration\'s script, installed on the space ' +
  '(on it, or on every space of the organization), with GitBook\'s `content_compute_document` / `content_compute_revision` event ' +
  '(`sourceId`, `props`, the resolved `dependencies`, `spaceId`); 400 naming `source.type` when no such integration is installed ' +
  'on the space or it declared no such content source, 400 naming `source` when the script refuses (answers 4xx), 503 ' +
  'when it fails or answers something else than the expected shape.';

export const computedContentOperations = operations({
  getComputedDocument: {
    method: 'post',
    path: '/spaces/{spaceId}/content/computed/document',
    tag: 'content',
    summary: 'Compute a document from a source',
    description:
      'Computes a document from a computed content source, as a computed page or reusable content would show it. `builtin:openapi` ' +
      'reads the latest processed version of an OpenAPI specification of the space\'s organization (`dependencies.spec`) and gives, ' +
      'by `props.doc`, one operation, the operations of a tag, the models or the information of the API, as OpenAPI blocks ' +
      'referring to the specification; an operation, tag or specification that does not exist is refused (400 naming ' +
      '`dependencies.spec` or `props.page`). ' +
      integrationCompute +
      ' `builtin:translation` is refused (400 naming `source.type`). `schema` is accepted as in getDocumentById. 404 when the space does ' +
      'not exist or the caller cannot read it.',
    params: SpaceIdParams,
    query: schemaQuery,
    body: ComputeDocument,
    bodyExample: { source: computedSourceExample, seed: 'api-pets-get' },
    responses: {
      200: {
        description: 'The computed document.',
        schema: Document,
        example: {
          object: 'document',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'openapi-operation',
              key: 'k3Xq9a',
              isVoid: true,
              data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' },
            },
          ],
        },
      },
    },
    errors: [400, 404],
    access: access.space('read'),
    statements: 16,
  },
  getComputedRevision: {
    method: 'post',
    path: '/spaces/{spaceId}/content/computed/revision',
    tag: 'content',
    summary: 'Compute the pages of a revision from a source',
    description:
      'Computes the pages and files a computed page of a revision holds. `builtin:openapi` reads the latest processed version ' +
      'of an OpenAPI specification of the space\'s organization (`dependencies.spec`): with `grouping: by-tag` (the default) a ' +
      'page per tag, with `by-operation` a group per tag with a page per operation, and a `Models` page when `props.models`; ' +
      'each page is computed (`computed`: the `builtin:openapi` document source that getComputedDocument computes, with its ' +
      '`computedSeed`). ' +
      integrationCompute +
      ' The script\'s pages (GitBook\'s `InputPage`: documents, groups, links, computed pages) become revision pages with ids ' +
      '(their own, or made from the seed), slugs (their own, or made from the title) and paths; a document page with ' +
      '`computed` keeps it with a `computedSeed`. Its files (`InputFile`) keep their `downloadURL`. `reusableContents` is empty. ' +
      '`builtin:translation` is refused (400 naming `source.type`). 404 when the space does not exist or the caller cannot read it.',
    params: SpaceIdParams,
    body: ComputeRevision,
    bodyExample: { source: { ...computedSourceExample, props: { models: false } }, seed: 'api' },
    responses: {
      200: {
        description: 'The computed pages and files.',
        schema: ComputedRevision,
        example: { pages: [computedPageExample], files: [], reusableContents: [] },
      },
    },
    errors: [400, 404],
    access: access.space('read'),
    statements: 16,
  },
});
