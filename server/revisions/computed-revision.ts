// The pages the built-in `builtin:openapi` source computes (getComputedRevision), from the latest processed
// version of the specification: by tag (the default) a page per tag, each computing the operations of its
// tag; by operation a group per tag holding a page per operation; the operations without a tag each get a
// page of their own after them; and a `Models` page when `props.models`. Each page is computed in turn by
// getComputedDocument from the source it carries (`computed`), so this reads the specification only for its
// tags and operations.
import type { z } from 'zod';
import type { ComputeRevision } from '../../contract/computed-content.js';
import type { SpaceGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { object, operationsOf, specDocument } from './computed-document.js';
import type { InputPage } from './computed-pages.js';

type Source = Extract<z.output<typeof ComputeRevision>['source'], { type: 'builtin:openapi' }>;

/** The tags of the specification in its order: declared ones, then those only operations name. */
function tagsOf(doc: Record<string, unknown>, operations: ReturnType<typeof operationsOf>): { name: string; title: string }[] {
  const declared = (Array.isArray(doc.tags) ? doc.tags : []).map(object).filter((t) => typeof t.name === 'string');
  const tags = new Map(declared.map((t) => [t.name as string, typeof t['x-displayName'] === 'string' ? t['x-displayName'] : (t.name as string)]));
  for (const o of operations) for (const t of Array.isArray(o.operation.tags) ? o.operation.tags : []) if (typeof t === 'string' && !tags.has(t)) tags.set(t, t);
  return [...tags].map(([name, title]) => ({ name, title }));
}

/** The pages of the source, as input pages (computed-pages.ts makes them revision pages). */
export async function openAPIRevisionPages(ctx: Ctx, grant: SpaceGrant, source: Source): Promise<InputPage[]> {
  const doc = await specDocument(ctx, grant, source.dependencies.spec.ref.spec);
  const computed = (props: Record<string, unknown>) => ({ type: 'builtin:openapi' as const, dependencies: source.dependencies, props });
  const operations = operationsOf(doc);
  const operationPage = (o: (typeof operations)[number]): InputPage => ({
    type: 'document',
    title: typeof o.operation.summary === 'string' && o.operation.summary !== '' ? o.operation.summary : `${o.method.toUpperCase()} ${o.path}`,
    computed: computed({ doc: 'operation', page: o.path, method: o.method }),
  });
  const tagged = (name: string) => operations.filter((o) => Array.isArray(o.operation.tags) && o.operation.tags.includes(name));
  const byOperation = source.props.grouping === 'by-operation';
  const pages: InputPage[] = tagsOf(doc, operations)
    // A group holds pages: a tag of no operation has none by operation.
    .filter(({ name }) => !byOperation || tagged(name).length > 0)
    .map(({ name, title }) =>
      byOperation ? { type: 'group', title, pages: tagged(name).map(operationPage) } : { type: 'document', title, computed: computed({ doc: 'operations', page: name }) },
    );
  pages.push(...operations.filter((o) => !Array.isArray(o.operation.tags) || o.operation.tags.length === 0).map(operationPage));
  if (source.props.models) pages.push({ type: 'document', title: 'Models', computed: computed({ doc: 'models' }) });
  return pages;
}
