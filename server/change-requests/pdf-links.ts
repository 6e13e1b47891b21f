// getChangeRequestPDF answers a download link rather than the PDF itself. Browsers open that link without
// an API token, so the link is a capability: `/v1/pdf/<space>/<change request>.pdf?token=<token>`, where
// the token is 32 random bytes (base64url) and only its SHA-256 is stored. The token sits in the query
// so the request log, which drops queries, never records it. A link:
// - pins the change request's revision at the time it was issued (the PDF shows that content, even if the
//   change request moves on), and the page selection;
// - lives PDF_LINK_LIFETIME_MS (1 hour); after that it answers 410 Gone until its row is deleted, which
//   the next link issued does for rows expired a day or more (then 404, like a token that never existed
//   or a path that does not match the token);
// - dies with the change request or space (404).
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { SpaceGrant } from '../auth/access.js';
import { childrenOf, type RevisionContent } from '../content/revision-content.js';
import { loadRevision } from '../content/revisions.store.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { changeRequestPdfs, changeRequests, spaces } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { embedded, type AttachedRead } from '../db/attached-select.js';
import { attachedChangeRequest, changeRequestRevision } from './change-request-content.js';
import { changeRequestSelect } from './change-requests.store.js';
import { renderPdf, type PdfPage } from './pdf-render.js';

export const PDF_LINK_LIFETIME_MS = 60 * 60 * 1000;
const EXPIRED_ROWS_KEPT_MS = 24 * 60 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A link's token, and what its row stores besides the change request it names. */
interface NewLink {
  token: string;
  page: string | null;
  only: boolean;
  now: Date;
}

/** The link made for each request while its grant was read (pdfLinkAttached), handed to issuePdfLink. */
const linksOfRequests = new WeakMap<Ctx, NewLink>();

function newLink(ctx: Ctx, query: { page?: string; only?: boolean }): NewLink {
  return { token: randomBytes(32).toString('base64url'), page: query.page ?? null, only: query.only === true, now: ctx.now() };
}

/**
 * SQL of the condition that the page `page` is one of the revision `revision` (SQL naming its id): in the
 * row's page list or in one of its page chunks (revisions.store.ts).
 */
const pageInRevisionSql = (revision: string, page: string) => `EXISTS (SELECT 1 FROM content_revisions r WHERE r.id = ${revision} AND (
      EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(r.content->'pages', '[]'::jsonb)) e WHERE e->>'id' = ${page})
      OR EXISTS (SELECT 1 FROM content_documents c CROSS JOIN jsonb_array_elements(c.document) e
        WHERE c.hash IN (SELECT jsonb_array_elements_text(r.content->'pageChunks')) AND e->>'id' = ${page})))`;

/**
 * `read` (the change request `ref`, and its revision when the link starts at a page) with the link's row
 * written in the grant's statement (db/attached-select.ts AttachedWrite): only for a caller the rule lets
 * through, when the change request is one of the space and the page one of its revision; links expired
 * for more than a day are forgotten on the way. issuePdfLink answers the link when it was written.
 */
export function pdfLinkAttached(ctx: Ctx, spaceId: string, ref: string, query: { page?: string; only?: boolean }, read: AttachedRead | undefined): AttachedRead | undefined {
  if (!read) return undefined;
  const link = newLink(ctx, query);
  linksOfRequests.set(ctx, link);
  const cr = embedded(changeRequestSelect(ctx, spaceId, ref));
  const withPage = link.page !== null;
  // `only` as 1 or 0: a prepared statement on PGlite takes no booleans.
  const params = [
    new Date(link.now.getTime() - EXPIRED_ROWS_KEPT_MS),
    hashOf(link.token),
    link.page,
    link.only ? 1 : 0,
    new Date(link.now.getTime() + PDF_LINK_LIFETIME_MS),
    link.now,
    ...cr.params,
  ];
  return {
    ...read,
    write: {
      name: `pdf_link_${withPage ? 'page' : 'all'}_${cr.hash}`,
      ctes: (first, allowed) => {
        const $ = (i: number) => `$${first + i}`;
        const onPage = withPage ? ` AND ${pageInRevisionSql('cr.revision_id', `${$(2)}::text`)}` : '';
        return `pdf_forgotten AS (DELETE FROM change_request_pdfs WHERE expires_at < ${$(0)}::timestamptz AND EXISTS (SELECT 1 FROM g WHERE ${allowed})),
  pdf_link AS (INSERT INTO change_request_pdfs (token_hash, space_id, change_request_id, revision_id, page_id, "only", expires_at, created_at)
    SELECT ${$(1)}::text, g.id, cr.id, cr.revision_id, ${$(2)}::text, ${$(3)}::int = 1, ${$(4)}::timestamptz, ${$(5)}::timestamptz
    FROM g CROSS JOIN (${cr.sql(first + 6)}) cr WHERE ${allowed}${onPage} RETURNING 1)`;
      },
      column: '(SELECT count(*) FROM pdf_link)::int AS pdf_link_written',
      params,
    },
  };
}

/** A new download link for the PDF of the change request `ref` (all pages, from `page`, or `page` only). */
export async function issuePdfLink(ctx: Ctx, grant: SpaceGrant, ref: string, query: { page?: string; only?: boolean }): Promise<string> {
  const cr = await attachedChangeRequest(ctx, grant, ref);
  if (query.page !== undefined) {
    const { content } = await changeRequestRevision(ctx, grant, ref, cr, { documents: false, git: false });
    if (!content.pages.some((p) => p.id === query.page)) throw new NotFound(`Page ${query.page} (query.page) not found in change request ${cr.number}`);
  }
  const url = (token: string) => ctx.urls.api(`/pdf/${grant.row.id}/${cr.id}.pdf?token=${token}`);
  const attached = linksOfRequests.get(ctx);
  if (attached && grant.attached?.pdf_link_written === 1) return url(attached.token);
  // Its grant read another way (an installation's) wrote nothing: one statement more, housekeeping on the way.
  const link = newLink(ctx, query);
  await runSql(
    ctx.db,
    sqlText`WITH forgotten AS (DELETE FROM change_request_pdfs WHERE expires_at < ${new Date(link.now.getTime() - EXPIRED_ROWS_KEPT_MS)}::timestamptz)
      INSERT INTO change_request_pdfs (token_hash, space_id, change_request_id, revision_id, page_id, "only", expires_at, created_at)
      VALUES (${hashOf(link.token)}::text, ${grant.row.id}::text, ${cr.id}::text, ${cr.revisionId}::text, ${link.page}::text,
        ${link.only ? 1 : 0}::int = 1, ${new Date(link.now.getTime() + PDF_LINK_LIFETIME_MS)}::timestamptz, ${link.now}::timestamptz)`,
  );
  return url(link.token);
}

/** The pages in reading order (depth first, siblings in order), with their depth. */
function readingOrder(content: RevisionContent): PdfPage[] {
  const out: PdfPage[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const page of childrenOf(content, parent)) {
      out.push({ page, depth });
      walk(page.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/**
 * The PDFs rendered for live links, by token hash: a link's content is pinned, so its PDF is rendered once
 * rather than on every download (rendering a change request of many pages holds the event loop). The
 * link's row is still checked on every download, so a deleted space or change request, or an expired
 * link, is refused even when its PDF is here. The change request's subject is the one of the first download.
 */
const renderedPdfs = new LRUCache<string, Buffer>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (pdf) => Math.max(1, pdf.length), ttl: PDF_LINK_LIFETIME_MS });

export type PdfDownload = { status: 'ok'; pdf: Buffer; filename: string } | { status: 'expired' } | { status: 'unknown' };

/** The PDF a link serves, or why it serves none. */
export async function downloadPdf(db: Db, link: { spaceId: string; changeRequestId: string; token: string }, now: Date): Promise<PdfDownload> {
  const [row] = await db
    .select({ link: changeRequestPdfs, number: changeRequests.number, subject: changeRequests.subject, spaceTitle: spaces.title, spaceCreatedAt: spaces.createdAt })
    .from(changeRequestPdfs)
    .innerJoin(changeRequests, eq(changeRequests.id, changeRequestPdfs.changeRequestId))
    .innerJoin(spaces, eq(spaces.id, changeRequestPdfs.spaceId))
    .where(
      and(
        eq(changeRequestPdfs.tokenHash, hashOf(link.token)),
        eq(changeRequestPdfs.spaceId, link.spaceId),
        eq(changeRequestPdfs.changeRequestId, link.changeRequestId),
        isNull(spaces.deletedAt),
      ),
    );
  if (!row) return { status: 'unknown' };
  if (row.link.expiresAt.getTime() <= now.getTime()) return { status: 'expired' };

  const filename = `change-request-${row.number}.pdf`;
  const rendered = renderedPdfs.get(row.link.tokenHash);
  if (rendered) return { status: 'ok', pdf: rendered, filename };
  const { content } = await loadRevision(db, row.link.revisionId, row.spaceCreatedAt);
  let pages = readingOrder(content);
  // The revision is pinned, so the page checked when the link was issued is still there.
  const start = pages.findIndex((p) => p.page.id === row.link.pageId);
  if (start >= 0 && row.link.only) pages = [{ page: pages[start].page, depth: 0 }];
  else if (start >= 0) pages = pages.slice(start).map((p) => ({ ...p, depth: Math.max(0, p.depth - pages[start].depth) }));
  const title = `Change request #${row.number}${row.subject ? `: ${row.subject}` : ''}`;
  const pdf = await renderPdf({ title, lines: [`Space: ${row.spaceTitle}`, `Revision: ${row.link.revisionId}`, `Generated: ${now.toISOString()}`] }, pages, content);
  renderedPdfs.set(row.link.tokenHash, pdf);
  return { status: 'ok', pdf, filename };
}
