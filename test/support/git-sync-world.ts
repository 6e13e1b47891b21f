// Helpers of the Git Sync operation tests: a job runner draining the queued operations, requests with
// credentials in the URL, the sync's state, and a space synced with a three-page repository served by
// the test's own Git server (git-http-server.ts).
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { defaultRepositoryLimits, gitSyncHandler, GIT_SYNC } from '../../server/git-sync/sync.job.js';
import type { RepositoryLimits } from '../../server/git-sync/work-repository.js';
import type { Account, Harness } from './harness.js';
import { startGitHttpServer, type GitHttpServer } from './git-http-server.js';

/**
 * A Git server (git-http-server.ts) for the tests of the calling file: started before them (handed to `started`) and closed after,
 * with ALLOW_PRIVATE_FETCH=true meanwhile so the API's outbound guard lets it reach the loopback address.
 */
export function useGitHttpServer(credentials: { username: string; password: string }, started: (server: GitHttpServer) => void): void {
  let server: GitHttpServer | undefined;
  let previousPrivateFetch: string | undefined;
  beforeAll(async () => {
    previousPrivateFetch = process.env.ALLOW_PRIVATE_FETCH;
    process.env.ALLOW_PRIVATE_FETCH = 'true';
    server = await startGitHttpServer({ credentials });
    started(server);
  });
  afterAll(async () => {
    if (previousPrivateFetch === undefined) delete process.env.ALLOW_PRIVATE_FETCH;
    else process.env.ALLOW_PRIVATE_FETCH = previousPrivateFetch;
    await server?.close();
  });
}

export const gitCredentials = { username: 'robin', password: 'pa55-w0rd-never-stored' };
export const THREE_PAGES_SUMMARY = '# Table of contents\n\n* [Welcome](README.md)\n* [Alpha](alpha.md)\n* [Beta](beta.md)\n';

export function gitSyncWorld(h: { readonly current: Harness }, server: () => GitHttpServer) {
  /** Runs the queued Git Sync jobs; returns how many ran. */
  const drain = (limits: RepositoryLimits = defaultRepositoryLimits, logger: Logger = pino({ level: 'silent' })) =>
    createJobRunner({ db: h.current.db, logger, handlers: { [GIT_SYNC]: gitSyncHandler(limits) } }).drain();

  const authed = (url: string, password = gitCredentials.password) => {
    const u = new URL(url);
    u.username = gitCredentials.username;
    u.password = password;
    return u.toString();
  };

  async function requestImport(account: Account, spaceId: string, url: string, extra: object = {}) {
    const res = await account.api.post(`/spaces/${spaceId}/git/import`, { url: authed(url), ref: 'refs/heads/main', ...extra });
    expect(res.status).toBe(204);
  }

  async function requestExport(account: Account, spaceId: string, url: string, extra: object = {}) {
    const res = await account.api.post(`/spaces/${spaceId}/git/export`, { url: authed(url), ref: 'refs/heads/main', commitMessage: 'From the space', ...extra });
    expect(res.status).toBe(204);
  }

  async function info(account: Account, spaceId: string) {
    const res = await account.api.get(`/spaces/${spaceId}/git/info`);
    expect(res.status).toBe(200);
    return res.body;
  }

  async function pagesByTitle(account: Account, spaceId: string): Promise<Record<string, string>> {
    const res = await account.api.get(`/spaces/${spaceId}/content/pages`);
    expect(res.status).toBe(200);
    return Object.fromEntries(res.body.pages.map((p: { title: string; id: string }) => [p.title, p.id]));
  }

  async function markdown(account: Account, spaceId: string, pageId: string): Promise<string> {
    const res = await account.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
    expect(res.status).toBe(200);
    return res.body.markdown;
  }

  /** Edits a page of the space through a change request, merged. */
  async function editInSpace(account: Account, spaceId: string, pageId: string, text: string) {
    const cr = await account.api.post(`/spaces/${spaceId}/change-requests`, { subject: `Edit ${text}` });
    expect(cr.status).toBe(201);
    const edit = await account.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'update_page', page: pageId, document: { markdown: text } }] });
    expect(edit.status).toBe(200);
    expect((await account.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  }

  async function revisionOf(account: Account, spaceId: string): Promise<string> {
    const res = await account.api.get(`/spaces/${spaceId}`);
    expect(res.status).toBe(200);
    return res.body.revision;
  }

  /** A repository of three pages, and a space that imported it (synced). */
  async function syncedSpace(admin: Account, name: string) {
    const url = server().createRepository(name);
    server().commit(name, { 'README.md': '# Welcome\n\nHello.\n', 'SUMMARY.md': THREE_PAGES_SUMMARY, 'alpha.md': '# Alpha\n\nAlpha text.\n', 'beta.md': '# Beta\n\nBeta text.\n' }, 'Start');
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: name });
    expect(created.status).toBe(201);
    const spaceId = created.body.id as string;
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T10:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    return { url, spaceId, pages: await pagesByTitle(admin, spaceId) };
  }

  return { drain, authed, requestImport, requestExport, info, pagesByTitle, markdown, editInSpace, revisionOf, syncedSpace };
}
