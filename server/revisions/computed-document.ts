// Documents computed from the built-in source (getComputedDocument; integrations' sources are computed by
// their scripts, server/integrations/content-compute.ts). `builtin:openapi`: the latest processed version of an OpenAPI specification of the space's organization,
// as GitBook's API reference pages show it, in OpenAPI blocks that refer to the specification (the blocks
// hold no copy of it, a renderer reads it by the reference). Block keys come from the seed, so the same
// seed and source give the same document.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ComputeDocument } from '../../contract/computed-content.js';
import type { SpaceGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import type { Block, Document } from '../content/markdown-document.js';
import { openAPISpecs, openAPISpecVersions } from '../db/schema/index.js';
import { BadRequest } from '../errors.js';

type Source = Extract<z.output<typeof ComputeDocument>['source'], { type: 'builtin:openapi' }>;
type Props = Source['props'];
type OpenAPIDoc = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function keyMaker(seed: string) {
  let n = 0;
  return () => createHash('sha256').update(`${seed}\u0000${n++}`).digest('base64url').slice(0, 10);
}

const text = (value: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: value, marks: [] }] });

/** The parsed document of the specification `slug` the caller may read: public, or the caller a member with a role. */
export async function specDocument(ctx: Ctx, grant: SpaceGrant, slug: string): Promise<OpenAPIDoc> {
  const at = 'body.source.dependencies.spec';
  const [spec] = await ctx.db
    .select()
    .from(openAPISpecs)
    .where(and(eq(openAPISpecs.organizationId, grant.row.organizationId), eq(openAPISpecs.slug, slug)));
  const readable = spec && (spec.visibility === 'public' || grant.orgRole !== null);
  if (!readable) throw new BadRequest(`${at}: no OpenAPI specification ${JSON.stringify(slug)} in the space's organization`);
  if (!spec.lastVersionId) throw new BadRequest(`${at}: the OpenAPI specification ${JSON.stringify(slug)} has no processed version yet`);
  const [version] = await ctx.db.select().from(openAPISpecVersions).where(and(eq(openAPISpecVersions.specId, spec.id), eq(openAPISpecVersions.id, spec.lastVersionId)));
  const [document] = Object.values(version?.filesystem ?? {});
  if (!document || typeof document !== 'object') throw new BadRequest(`${at}: the OpenAPI specification ${JSON.stringify(slug)} holds no document`);
  return document as OpenAPIDoc;
}

/** The own property `key` of `value` (never one inherited, such as `constructor` or `__proto__`). */
function own(value: unknown, key: string): unknown {
  const o = object(value);
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

export function object(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenAPIDoc): { path: string; method: string; operation: Record<string, unknown> }[] {
  return Object.entries(object(doc.paths)).flatMap(([path, item]) =>
    methods.filter((m) => own(item, m) !== undefined).map((method) => ({ path, method, operation: object(own(item, method)) })),
  );
}

function compute(doc: OpenAPIDoc, slug: string, props: Props, key: () => string): Block[] {
  const ref = { kind: 'openapi', spec: slug };
  const block = (type: Block['type'], data: Record<string, unknown>): Block => ({ object: 'block', type, key: key(), isVoid: true, data: { ref, ...data } });
  const heading = (value: string): Block => ({ object: 'block', type: 'heading-1', key: key(), isVoid: false, data: {}, nodes: [text(value)] });
  const paragraph = (value: string): Block => ({ object: 'block', type: 'paragraph', key: key(), isVoid: false, data: {}, nodes: [text(value)] });
  switch (props.doc) {
    case 'operation': {
      const { page, method } = props;
      if (method === 'hook') {
        if (own(doc.webhooks, page) === undefined) throw new BadRequest(`body.source.props.page: the specification has no webhook ${JSON.stringify(page)}`);
        return [block('openapi-webhook', { name: page })];
      }
      if (own(own(doc.paths, page), method) === undefined) throw new BadRequest(`body.source.props.page: the specification has no operation ${method.toUpperCase()} ${page}`);
      return [block('openapi-operation', { path: page, method })];
    }
    case 'operations':
    case 'tag': {
      const { page } = props;
      const tag = (Array.isArray(doc.tags) ? doc.tags : []).map(object).find((t) => t.name === page);
      const tagged = operationsOf(doc).filter((o) => Array.isArray(o.operation.tags) && o.operation.tags.includes(page));
      if (!tag && tagged.length === 0) throw new BadRequest(`body.source.props.page: the specification has no tag ${JSON.stringify(page)}`);
      const title = typeof tag?.['x-displayName'] === 'string' ? tag['x-displayName'] : page;
      return [
        heading(title),
        ...(typeof tag?.description === 'string' && tag.description !== '' ? [paragraph(tag.description)] : []),
        ...tagged.map((o) => block('openapi-operation', { path: o.path, method: o.method })),
      ];
    }
    case 'models': {
      const schemas = Object.keys(object(object(doc.components).schemas));
      return [block('openapi-schemas', { schemas, grouped: false })];
    }
    case 'info': {
      const info = object(doc.info);
      return [
        heading(typeof info.title === 'string' ? info.title : slug),
        ...(typeof info.version === 'string' ? [paragraph(`Version ${info.version}`)] : []),
        ...(typeof info.description === 'string' && info.description !== '' ? [paragraph(info.description)] : []),
      ];
    }
  }
}

/** The document the `builtin:openapi` source computes, its block keys made from `seed`. */
export async function computeOpenAPIDocument(ctx: Ctx, grant: SpaceGrant, source: Source, seed: string): Promise<Document> {
  const slug = source.dependencies.spec.ref.spec;
  const doc = await specDocument(ctx, grant, slug);
  return { object: 'document', data: {}, nodes: compute(doc, slug, source.props, keyMaker(seed)) };
}
