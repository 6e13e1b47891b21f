// applyTemplateToSpace: a built-in template (templates.ts) written as real content, in one new revision,
// either of the space's live content or of one of its change requests.
//
// Decisions (the description says only "fills the space with the content of the template"):
// - Existing content is kept: the template's pages are appended after the existing top-level pages, so
//   applying a template never loses a page. A template slug already taken at the top level gets a
//   numeric suffix (`faq-2`), and the template's own links follow the final paths.
// - Live content gets an `edits` revision whose parent is the space's current revision; open change
//   requests then become `outdated` as after a merge. In a change request, the revision is the change
//   request's next one and the caller becomes a contributor, as with `updateChangeRequestContent`.
// - `editMode: locked` refuses the template with 409 (as the operation declares), and so does a merged or
//   archived change request. Unknown template or change request: 404, naming `body.id` / `body.changeRequestId`.
import { and, eq, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { contentOperations } from '../../contract/content.js';
import type { SpaceGrant, SpaceRow } from '../auth/access.js';
import { findChangeRequest } from '../change-requests/change-requests.store.js';
import type { Ctx } from '../context.js';
import { changeRequests, openAPISpecs, spaces } from '../db/schema/index.js';
import { BadRequest, Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { slugify } from './apply-changes.js';
import { refuseLocked } from './locked.js';
import { keyAfter } from './order-keys.js';
import { childrenOf, type RevisionContent, type StoredPage } from './revision-content.js';
import { insertRevision, loadRevision } from './revisions.store.js';
import { templates, type Template, type TemplatePage } from './templates.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { inWriterStatement } from '../events/domain-events.js';

type Body = z.output<(typeof contentOperations)['applyTemplateToSpace']['body']>;
type ContentRefs = NonNullable<NonNullable<Body['params']>['contentRefs']>;

/** The template `id` with its references checked; NotFound / BadRequest name the body field. */
export function checkedTemplate(id: string, refs: ContentRefs = {}): Template {
  const template = templates.get(id);
  if (!template) throw new NotFound(`Template ${id} (body.id) not found; the built-in templates are ${[...templates.keys()].join(', ')}`);
  for (const [name, ref] of Object.entries(refs)) {
    const expected = template.refs[name];
    if (!expected) throw new BadRequest(`body.params.contentRefs.${name}: the template ${id} uses no content reference of that name`);
    if (!expected.kinds.includes(ref.kind)) {
      throw new BadRequest(`body.params.contentRefs.${name}.kind: expected one of ${expected.kinds.join(', ')}, got ${ref.kind}`);
    }
    if (ref.kind === 'url' && linkTarget(ref.url) === undefined) {
      throw new BadRequest(`body.params.contentRefs.${name}.url: expected an absolute http or https URL, got ${JSON.stringify(ref.url)}`);
    }
  }
  for (const [name, expected] of Object.entries(template.refs)) {
    if (expected.required && !refs[name]) throw new BadRequest(`body.params.contentRefs.${name}: required by the template ${id}`);
  }
  return template;
}

/**
 * A user-given URL as a Markdown link target: http or https only (no `javascript:`), in its normalised form,
 * where spaces, quotes and angle brackets are already escaped; parentheses are escaped too, so that the
 * target cannot end the link early and add Markdown of its own.
 */
function linkTarget(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/** Text shown inside a link's brackets, with the characters Markdown would read escaped. */
const linkText = (text: string) => text.replace(/[\\[\]`*_<>]/g, (ch) => `\\${ch}`).replace(/\s+/g, ' ');

/**
 * `refs` with each OpenAPI spec reference (by id or by slug) naming the spec of the organization by its
 * slug, which the app's address of a spec uses; 400 naming the field when the organization has no such spec.
 */
async function withSpecSlugs(ctx: Ctx, organizationId: string, refs: ContentRefs): Promise<ContentRefs> {
  const resolved: ContentRefs = {};
  for (const [name, ref] of Object.entries(refs)) {
    if (ref.kind !== 'openapi') {
      resolved[name] = ref;
      continue;
    }
    const [spec] = await ctx.db
      .select({ slug: openAPISpecs.slug })
      .from(openAPISpecs)
      .where(and(eq(openAPISpecs.organizationId, organizationId), or(eq(openAPISpecs.id, ref.spec), eq(openAPISpecs.slug, ref.spec))));
    if (!spec) throw new BadRequest(`body.params.contentRefs.${name}.spec: the organization has no OpenAPI spec ${JSON.stringify(ref.spec)}`);
    resolved[name] = { ...ref, spec: spec.slug };
  }
  return resolved;
}

/** The Markdown a content reference becomes in a template page (ids as path segments, escaped). */
function refMarkdown(ctx: Ctx, space: SpaceRow, label: string, ref: ContentRefs[string] | undefined): string {
  if (!ref) return `No ${label.toLowerCase()} is linked yet.`;
  const segment = encodeURIComponent;
  switch (ref.kind) {
    case 'url':
      return `[${label}](${linkTarget(ref.url)})`;
    case 'page':
      return `[${label}](${ref.space && ref.space !== space.id ? ctx.urls.app(`/s/${segment(ref.space)}/${segment(ref.page)}`) : segment(ref.page)})`;
    case 'file':
      return `[${label}](${ref.space && ref.space !== space.id ? ctx.urls.app(`/s/${segment(ref.space)}/files/${segment(ref.file)}`) : segment(ref.file)})`;
    case 'openapi':
      return `[${label}: ${linkText(ref.spec)}](${ctx.urls.app(`/o/${space.organizationId}/openapi/${segment(ref.spec)}`)})`;
    default:
      return label;
  }
}

/** `content` with the template's pages appended at the top level (a copy; `content` is not changed). */
export function withTemplate(ctx: Ctx, space: SpaceRow, content: RevisionContent, template: Template, refs: ContentRefs): RevisionContent {
  const next = structuredClone(content);
  const now = ctx.now();
  const topSlugs = new Set(childrenOf(next, null).map((p) => p.slug));
  const paths = new Map<string, string>();
  const created: { page: StoredPage; source: TemplatePage }[] = [];

  const add = (source: TemplatePage, parent: StoredPage | null, parentPath: string, last: string | undefined): string => {
    let slug = slugify(source.title);
    if (parent === null) {
      for (let n = 2; topSlugs.has(slug); n++) slug = `${slugify(source.title)}-${n}`;
      topSlugs.add(slug);
    }
    const page: StoredPage = {
      id: newId('pag', now.getTime()),
      parent: parent?.id ?? null,
      position: keyAfter(last),
      type: 'document',
      title: source.title,
      slug,
      markdown: '',
      ...(source.description !== undefined && { description: source.description }),
      ...(source.emoji !== undefined && { emoji: source.emoji }),
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    next.pages.push(page);
    created.push({ page, source });
    const path = parentPath ? `${parentPath}/${slug}` : slug;
    paths.set(source.key, path);
    let lastChild: string | undefined;
    for (const child of source.pages ?? []) lastChild = add(child, page, path, lastChild);
    return page.position;
  };

  let last = childrenOf(next, null).at(-1)?.position;
  for (const source of template.pages) last = add(source, null, '', last);

  // Links to other template pages are written from the space root (`/path`), so they hold at any depth.
  for (const { page, source } of created) {
    page.markdown = source.markdown
      .replace(/\{\{page:([a-z0-9-]+)\}\}/g, (_, key: string) => `/${paths.get(key) ?? key}`)
      .replace(/\{\{ref:([a-zA-Z0-9-]+)\}\}/g, (_, name: string) => refMarkdown(ctx, space, template.refs[name]?.label ?? name, refs[name]));
  }
  return next;
}

/** Applies the template to the space's live content, or to the change request `body.changeRequestId`. */
export async function applyTemplate(ctx: Ctx, grant: SpaceGrant, body: Body): Promise<void> {
  const given = body.params?.contentRefs ?? {};
  const template = checkedTemplate(body.id, given);
  const refs = await withSpecSlugs(ctx, grant.row.organizationId, given);
  await ctx.transaction(async (tx) => {
    // The space row lock orders this write with merges and change-request edits (as in change-requests.store.ts).
    const [space] = await tx.db.select().from(spaces).where(eq(spaces.id, grant.row.id)).for('no key update');
    if (!space) throw new NotFound(`Space ${grant.row.id} not found`);
    refuseLocked(space);
    const now = tx.now();

    if (body.changeRequestId === undefined) {
      const current = await loadRevision(tx.db, space.revisionId, space.createdAt);
      const revision = await insertRevision(tx, space.id, { parents: [space.revisionId], type: 'edits', content: withTemplate(tx, space, current.content, template, refs) });
      // One statement moves the space and does what its event's subscribers do (search queues its catch-up,
      // integrations read who hears of it), as a merge does.
      const updated = inWriterStatement('space content updated', { spaceId: space.id, revisionId: revision.id, previousRevisionId: space.revisionId }, now);
      const result = await runSql(
        tx.db,
        sqlText`WITH moved AS (UPDATE spaces SET revision_id = ${revision.id}::text, updated_at = ${now}::timestamptz WHERE id = ${space.id}::text)${updated.ctes}
        ${updated.select}`,
      );
      await updated.publish(tx, result);
      return;
    }

    const cr = await findChangeRequest(tx, space.id, body.changeRequestId, true).catch((err: unknown) => {
      throw err instanceof NotFound ? new NotFound(`Change request ${body.changeRequestId} (body.changeRequestId) not found in this space`) : err;
    });
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw new Conflict(`body.changeRequestId: change request ${cr.number} is ${cr.status}; a template can no longer be applied in it`);
    }
    const current = await loadRevision(tx.db, cr.revisionId, space.createdAt);
    const revision = await insertRevision(tx, space.id, { parents: [cr.revisionId], type: 'edits', content: withTemplate(tx, space, current.content, template, refs) });
    const caller = JSON.stringify([tx.caller.userId]);
    await tx.db
      .update(changeRequests)
      .set({
        revisionId: revision.id,
        updatedAt: now,
        contributors: sql`CASE WHEN ${changeRequests.contributors} @> ${caller}::jsonb THEN ${changeRequests.contributors} ELSE ${changeRequests.contributors} || ${caller}::jsonb END`,
      })
      .where(eq(changeRequests.id, cr.id));
  });
}
