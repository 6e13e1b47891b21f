// The space events beside content updates: `space_visibility_updated` when a space leaves its collection
// (in-collection becomes private), `space_gitsync_started` / `_completed` around a Git Sync import, each
// recorded for the installations on the space with the payload GitBook's API declares (Ajv over
// @gitbook/api's spec), and none for a space the integration is not on.
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { gitSyncHandler, GIT_SYNC } from '../server/git-sync/sync.job.js';
import { createJobRunner } from '../server/jobs/runner.js';
import type { GitHttpServer } from './support/git-http-server.js';
import { gitCredentials, THREE_PAGES_SUMMARY, useGitHttpServer } from './support/git-sync-world.js';
import { gitbookSchemaErrors } from './support/gitbook-schemas.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
vi.setConfig({ testTimeout: 120_000 });
let git: GitHttpServer;
useGitHttpServer(gitCredentials, (server) => (git = server));
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

const script = 'export default { async fetch() { return new Response("ok"); } };';

/** A space integration installed on a new space of `owner`'s organization (in `parent` when given). */
async function installedOnNewSpace(owner: Account, parent?: string) {
  const name = unique('space-events');
  await publishAs(owner, name, { script, target: 'space' });
  const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
  expect(installation.status).toBe(200);
  const space = await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Events', ...(parent && { parent }) });
  expect(space.status).toBe(201);
  const onSpace = await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: space.body.id });
  expect(onSpace.status).toBe(201);
  return { name, installationId: installation.body.id as string, spaceId: space.body.id as string };
}

async function eventsOf(owner: Account, name: string, type: string) {
  const res = await owner.api.get(`/integrations/${name}/events?limit=100`);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string; installationId?: string; payload: Record<string, any> }[]).filter((e) => e.payload.type === type).reverse();
}

describe('space events for integrations', () => {
  it('a space moved out of its collection sends space_visibility_updated (in-collection to private), shaped as GitBook\'s', async () => {
    const owner = await h.current.newAdmin();
    const collection = await owner.api.post(`/orgs/${owner.organizationId}/collections`, { title: 'Guides' });
    expect(collection.status).toBe(201);
    const s = await installedOnNewSpace(owner, collection.body.id);
    const before = await owner.api.get(`/spaces/${s.spaceId}`);
    expect(before.body.visibility).toBe('in-collection');

    // Moved within the collection: the visibility stays, no event.
    const within = await owner.api.post(`/spaces/${s.spaceId}/move`, { parent: collection.body.id });
    expect(within.status).toBe(200);
    expect(await eventsOf(owner, s.name, 'space_visibility_updated')).toEqual([]);

    const moved = await owner.api.post(`/spaces/${s.spaceId}/move`, { parent: null });
    expect(moved.status).toBe(200);
    expect(moved.body.visibility).toBe('private');
    const [event] = await eventsOf(owner, s.name, 'space_visibility_updated');
    expect(event.payload).toEqual({
      eventId: event.id,
      type: 'space_visibility_updated',
      installationId: s.installationId,
      spaceId: s.spaceId,
      previousVisibility: 'in-collection',
      visibility: 'private',
    });
    expect(gitbookSchemaErrors('SpaceVisibilityUpdatedEvent', event.payload)).toEqual([]);
  });

  it('a Git Sync import sends space_gitsync_started then space_gitsync_completed with the commit, shaped as GitBook\'s', async () => {
    const owner = await h.current.newAdmin();
    const s = await installedOnNewSpace(owner);
    const unrelated = await installedOnNewSpace(owner);
    const repo = unique('events-repo');
    const url = git.createRepository(repo);
    const commit = git.commit(repo, { 'README.md': '# Welcome\n', 'alpha.md': '# Alpha\n', 'beta.md': '# Beta\n', 'SUMMARY.md': THREE_PAGES_SUMMARY }, 'Three pages');
    const authed = new URL(url);
    authed.username = gitCredentials.username;
    authed.password = gitCredentials.password;
    const requested = await owner.api.post(`/spaces/${s.spaceId}/git/import`, { url: authed.toString(), ref: 'refs/heads/main' });
    expect(requested.status).toBe(204);
    const revisionBefore = (await owner.api.get(`/spaces/${s.spaceId}`)).body.revision as string;
    await createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [GIT_SYNC]: gitSyncHandler() } }).drain();
    const info = await owner.api.get(`/spaces/${s.spaceId}/git/info`);
    expect(info.status).toBe(200);
    const revisionAfter = (await owner.api.get(`/spaces/${s.spaceId}`)).body.revision as string;
    expect(revisionAfter).not.toBe(revisionBefore);

    const [started] = await eventsOf(owner, s.name, 'space_gitsync_started');
    expect(started.payload).toEqual({ eventId: started.id, type: 'space_gitsync_started', installationId: s.installationId, spaceId: s.spaceId, revisionId: revisionBefore, commitId: '' });
    expect(gitbookSchemaErrors('SpaceGitSyncStartedEvent', started.payload)).toEqual([]);
    const [completed] = await eventsOf(owner, s.name, 'space_gitsync_completed');
    expect(completed.payload).toEqual({
      eventId: completed.id,
      type: 'space_gitsync_completed',
      installationId: s.installationId,
      spaceId: s.spaceId,
      state: 'success',
      revisionId: revisionAfter,
      commitId: commit,
    });
    expect(gitbookSchemaErrors('SpaceGitSyncCompletedEvent', completed.payload)).toEqual([]);
    expect(completed.id > started.id).toBe(true);
    expect(await eventsOf(owner, unrelated.name, 'space_gitsync_started')).toEqual([]);

    // A failing import (a ref the repository does not have) completes with `failure`.
    const failing = await owner.api.post(`/spaces/${s.spaceId}/git/import`, { url: authed.toString(), ref: 'refs/heads/nowhere' });
    expect(failing.status).toBe(204);
    await createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [GIT_SYNC]: gitSyncHandler() } }).drain();
    const completions = await eventsOf(owner, s.name, 'space_gitsync_completed');
    expect(completions).toHaveLength(2);
    expect(completions[1].payload).toMatchObject({ state: 'failure', revisionId: revisionAfter, commitId: commit });
    expect(gitbookSchemaErrors('SpaceGitSyncCompletedEvent', completions[1].payload)).toEqual([]);
  });
});
