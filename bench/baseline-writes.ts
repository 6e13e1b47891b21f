// The write path of the baseline server (bench/baseline-server.ts), for bench/write-path.ts: plain Express
// handlers that write the same rows as the project's createSpace, createChangeRequest,
// updateChangeRequestContent (one inserted page) and mergeChangeRequest, each in one transaction of plain
// SQL, and answer the written row. Like the read baseline: the token is looked up on every request, and
// there is no validation, no permission check, no logging, no Markdown parsing (the page keeps the text it
// was given) and no three-way merge (a merge takes the change request's content), and no job runner picks
// up the search-index job that a merge queues.
import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { keyAfter } from '../server/content/order-keys.js';
import { newId } from '../server/ids.js';
import type { Query, Storage } from './baseline-server.js';

const EMPTY_CONTENT = { files: [], pages: [], variables: {}, reusableContents: [] };

export function writeRoutes(storage: Storage): express.Router {
  const router = express.Router();
  router.use(express.json());

  /** The caller's user id, or a 401 answered (null). */
  async function caller(req: Request, res: Response): Promise<string | null> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const hash = createHash('sha256').update(token ?? '').digest('hex');
    const [row] = await storage.query('select user_id from api_tokens where token_hash = $1', [hash]);
    if (!row) res.status(401).json({ error: { code: 401, message: 'Invalid access token' } });
    return (row?.user_id as string | undefined) ?? null;
  }
  const notFound = (res: Response, what: string) => res.status(404).json({ error: { code: 404, message: `${what} not found` } });

  // createSpace: the organization's tree locked (as the project does, so two creations do not take the same
  // position), the last position read, the space inserted.
  router.post('/v1/orgs/:organizationId/spaces', async (req, res) => {
    const userId = await caller(req, res);
    if (!userId) return;
    const organizationId = req.params.organizationId;
    const space = await storage.transaction(async (q) => {
      const [org] = await q('select id from organizations where id = $1 for no key update', [organizationId]);
      if (!org) return undefined;
      const [last] = await q(
        `select (select max(position) from collections where organization_id = $1 and parent_id is null) as c,
                (select max(position) from spaces where organization_id = $1 and parent_id is null) as s`,
        [organizationId],
      );
      const keys = [last.c, last.s].filter((k): k is string => typeof k === 'string').sort();
      const now = new Date();
      const [row] = await q(
        `insert into spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, merge_rules, language, revision_id, position, created_at, updated_at)
         values ($1, $2, null, $3, '', 'private', 'live', '{"type":"inherit"}', null, $4, $5, $6, $6) returning *`,
        [newId('spc', now.getTime()), organizationId, req.body?.title || 'Untitled', newId('rev', now.getTime()), keyAfter(keys.at(-1)), now],
      );
      return row;
    });
    if (!space) return void notFound(res, 'Organization');
    res.status(201).json(space);
  });

  // createChangeRequest: the space locked, the next number, the change request inserted on the space's revision.
  router.post('/v1/spaces/:spaceId/change-requests', async (req, res) => {
    const userId = await caller(req, res);
    if (!userId) return;
    const cr = await storage.transaction(async (q) => {
      const [space] = await q('select organization_id, revision_id from spaces where id = $1 for no key update', [req.params.spaceId]);
      if (!space) return undefined;
      const [next] = await q('select coalesce(max(number), 0) + 1 as n from change_requests where space_id = $1', [req.params.spaceId]);
      const now = new Date();
      const [row] = await q(
        `insert into change_requests (id, organization_id, space_id, number, status, subject, created_by, contributors, revision_id, revision_initial, created_at, updated_at)
         values ($1, $2, $3, $4, 'open', $5, $6, '[]', $7, $7, $8, $8) returning *`,
        [newId('crq', now.getTime()), space.organization_id, req.params.spaceId, next.n, req.body?.subject ?? null, userId, space.revision_id, now],
      );
      return row;
    });
    if (!cr) return void notFound(res, 'Space');
    res.status(201).json(cr);
  });

  /**
   * A revision's content (an empty one for a space's first revision, which has no row). The revisions this
   * baseline writes hold their pages inline; one the project wrote (the bench's set-up) names its page list's
   * chunks in content_documents (server/content/page-chunks.ts), read here in one more query.
   */
  async function contentOf(q: Query, revisionId: string): Promise<typeof EMPTY_CONTENT> {
    const [row] = await q('select content from content_revisions where id = $1', [revisionId]);
    const content = row?.content as (typeof EMPTY_CONTENT & { pageChunks?: string[] }) | undefined;
    if (!content) return EMPTY_CONTENT;
    if (!content.pageChunks) return content;
    const { pageChunks, ...rest } = content;
    const chunks = await q('select hash, document from content_documents where hash = any($1::text[])', [pageChunks]);
    const byHash = new Map(chunks.map((c) => [c.hash as string, c.document as never[]]));
    return { ...rest, pages: pageChunks.flatMap((hash) => byHash.get(hash) ?? []) };
  }

  // updateChangeRequestContent with one insert_page: the change request locked, its content read, a revision
  // with the page appended inserted, the change request moved to it (the caller among its contributors).
  router.post('/v1/spaces/:spaceId/change-requests/:changeRequestId/content', async (req, res) => {
    const userId = await caller(req, res);
    if (!userId) return;
    const updated = await storage.transaction(async (q) => {
      const [cr] = await q('select revision_id from change_requests where id = $1 and space_id = $2 for no key update', [req.params.changeRequestId, req.params.spaceId]);
      if (!cr) return undefined;
      const content = await contentOf(q, cr.revision_id as string);
      const now = new Date();
      const pages: { position?: string }[] = [];
      for (const change of (req.body?.changes ?? []) as { document?: { markdown?: string } }[]) {
        const markdown = change.document?.markdown ?? '';
        const title = /^#\s+(.*)$/m.exec(markdown)?.[1] ?? 'Untitled';
        const last = [...content.pages, ...pages].map((p) => (p as { position?: string }).position).filter(Boolean).sort().at(-1);
        pages.push({
          id: newId('pag', now.getTime()),
          slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
          type: 'document',
          title,
          hidden: false,
          parent: null,
          noIndex: false,
          noRobotsIndex: false,
          markdown,
          position: keyAfter(last),
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        } as { position: string });
      }
      const revisionId = newId('rev', now.getTime());
      await q(`insert into content_revisions (id, space_id, parents, type, content, created_at) values ($1, $2, $3, 'edits', $4, $5)`, [
        revisionId,
        req.params.spaceId,
        JSON.stringify([cr.revision_id]),
        JSON.stringify({ ...content, pages: [...content.pages, ...pages] }),
        now,
      ]);
      const [row] = await q(
        `update change_requests set contributors = case when contributors @> $1::jsonb then contributors else contributors || $1::jsonb end,
           revision_id = $2, updated_at = $3 where id = $4 returning *`,
        [JSON.stringify([userId]), revisionId, now, req.params.changeRequestId],
      );
      return row;
    });
    if (!updated) return void notFound(res, 'Change request');
    res.json(updated);
  });

  // mergeChangeRequest: the space and the change request locked, a merge revision with the change request's
  // content, the space moved to it, a search-index job queued, the change request marked merged.
  router.post('/v1/spaces/:spaceId/change-requests/:changeRequestId/merge', async (req, res) => {
    const userId = await caller(req, res);
    if (!userId) return;
    const merged = await storage.transaction(async (q) => {
      const [space] = await q('select revision_id from spaces where id = $1 for no key update', [req.params.spaceId]);
      const [cr] = await q(`select revision_id from change_requests where id = $1 and space_id = $2 and status = 'open' for no key update`, [req.params.changeRequestId, req.params.spaceId]);
      if (!space || !cr) return undefined;
      const content = await contentOf(q, cr.revision_id as string);
      const now = new Date();
      const revisionId = newId('rev', now.getTime());
      await q(`insert into content_revisions (id, space_id, parents, type, content, created_at) values ($1, $2, $3, 'merge', $4, $5)`, [
        revisionId,
        req.params.spaceId,
        JSON.stringify([space.revision_id, cr.revision_id]),
        JSON.stringify(content),
        now,
      ]);
      await q('update spaces set revision_id = $1, updated_at = $2 where id = $3', [revisionId, now, req.params.spaceId]);
      await q(
        `insert into jobs (id, kind, payload, unique_key, run_at, max_attempts, created_at, updated_at)
         values ($1, 'index-space-search', $2, $3, $4, 10, $5, $5) on conflict do nothing`,
        [newId('job', now.getTime()), JSON.stringify({ spaceId: req.params.spaceId }), `index-space-search:${req.params.spaceId}`, new Date(now.getTime() + 2000), now],
      );
      const [row] = await q(`update change_requests set status = 'merged', revision_merged = $1, updated_at = $2 where id = $3 returning *`, [revisionId, now, req.params.changeRequestId]);
      return row;
    });
    if (!merged) return void notFound(res, 'Change request');
    res.json(merged);
  });

  return router;
}
