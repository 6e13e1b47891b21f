// An export changes only what changed: a repository written in a style this server does not write (`*`
// bullets, `__bold__`, extra blank lines, `1)` lists, …) exported unmodified to a new branch gives that
// branch the very commit of the last sync; an edited paragraph changes only its own lines; front matter
// keys GitBook writes come back as they were.
import { describe, expect, it, vi } from 'vitest';
import { useHarness } from './support/harness.js';
import { gitCredentials, gitSyncWorld, useGitHttpServer } from './support/git-sync-world.js';
import type { GitHttpServer } from './support/git-http-server.js';

const h = useHarness();
vi.setConfig({ testTimeout: 180_000 });
let git: GitHttpServer;
const { drain, requestImport, requestExport, info, editInSpace } = gitSyncWorld(h, () => git);

useGitHttpServer(gitCredentials, (server) => (git = server));

/** Pages written by hand, not as this server writes them. */
const styled = {
  'SUMMARY.md': '# Table of contents\n\n- [Welcome](README.md)\n- [Guide](guide.md)\n    - [Setup](guide/setup.md)\n',
  'README.md': '# Welcome\n\n\nHello *there*, this is __the__ start.\n\n* one\n* two\n\n\n',
  'guide.md': '---\ndescription: All about it\n---\n\n# Guide\n\nSome text\nwith a soft break.\n\n1) first\n2) second\n\n***\n\n```js\nconst a = 1;\n```\n\nLast  words here.\n',
  'guide/setup.md': '# Setup\n\n+ install\n+ configure\n\n> Quoted __advice__.\n\nClosing paragraph.\n',
};

interface PageNode {
  id: string;
  title: string;
  pages?: PageNode[];
}

/** Every page of the space (nested ones too) by title. */
async function pagesByTitle(admin: Awaited<ReturnType<typeof h.current.newAdmin>>, spaceId: string): Promise<Record<string, string>> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/pages`);
  expect(res.status).toBe(200);
  const flat = (pages: PageNode[]): PageNode[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
  return Object.fromEntries(flat(res.body.pages).map((p) => [p.title, p.id]));
}

async function importedSpace(admin: Awaited<ReturnType<typeof h.current.newAdmin>>, name: string, files: Record<string, string>) {
  const url = git.createRepository(name);
  const imported = git.commit(name, files, 'Docs written by hand');
  const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: name });
  expect(created.status).toBe(201);
  const spaceId = created.body.id as string;
  await requestImport(admin, spaceId, url, { timestamp: '2026-03-01T10:00:00.000Z' });
  expect(await drain()).toBe(1);
  expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: imported });
  return { url, spaceId, imported };
}

describe('git sync: an export changes only what changed', () => {
  it('exports an unmodified import to a new branch as the commit of the last sync: no file changes', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, imported } = await importedSpace(admin, 'new-branch', styled);

    await requestExport(admin, spaceId, url, { ref: 'refs/heads/draft', timestamp: '2026-03-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const state = await info(admin, spaceId);
    expect(state.operation).toMatchObject({ state: 'success', result: 'applied', direction: 'export', commit: imported });
    expect(state.operation.warnings).toBeUndefined();
    // The branch is made at the commit the space last synced: every file is that commit's.
    expect(git.head('new-branch', 'refs/heads/draft')).toBe(imported);
    expect(git.changedLines('new-branch', imported, 'refs/heads/draft')).toEqual({});
    expect(state.commit).toBe(imported);
    const revision = await admin.api.get(`/spaces/${spaceId}/content`);
    expect(revision.status).toBe(200);
    expect(revision.body.git).toMatchObject({ oid: imported, ref: 'refs/heads/draft', createdByGitBook: false });
  });

  it('starts a new branch from the commit of the last sync, changing only the page the space edited', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, imported } = await importedSpace(admin, 'new-branch-edit', styled);
    const pages = await pagesByTitle(admin, spaceId);
    await editInSpace(admin, spaceId, pages.Setup, '- install\n- configure\n\n> Quoted **advice**.\n\nClosing paragraph, edited.');

    await requestExport(admin, spaceId, url, { ref: 'refs/heads/edited', timestamp: '2026-03-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('new-branch-edit', 'refs/heads/edited');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    expect(git.commitInfo('new-branch-edit', head).parents).toEqual([imported]);
    expect(git.changedLines('new-branch-edit', imported, head)).toEqual({ 'guide/setup.md': ['-Closing paragraph.', '+Closing paragraph, edited.'] });
  });

  it('an edit through a change request changes only its paragraph; a description changed only its line, the keys GitBook writes kept', async () => {
    const admin = await h.current.newAdmin();
    const page = [
      '---',
      'description: Written by GitBook',
      'cover: .gitbook/assets/cover.png',
      'coverY: 0',
      'layout:',
      '  width: wide',
      '  title:',
      '    visible: true',
      'tags:',
      '  - guide',
      'metadata:',
      '  visible: false',
      'name: handmade',
      '---',
      '',
      '# Handmade',
      '',
      '{% hint style="info" %}',
      'A *hint* first.',
      '{% endhint %}',
      '',
      '* one',
      '* two',
      '',
      '<details>',
      '',
      '<summary>More</summary>',
      '',
      'Hidden __text__.',
      '',
      '</details>',
      '',
      'The paragraph to edit.',
      '',
      'Last  words.',
      '',
    ].join('\n');
    const { url, spaceId, imported } = await importedSpace(admin, 'edit-one', { 'SUMMARY.md': '# Table of contents\n\n* [Handmade](README.md)\n', 'README.md': page });
    const pages = await pagesByTitle(admin, spaceId);
    const current = await admin.api.get(`/spaces/${spaceId}/content/page/${pages.Handmade}`, { format: 'markdown' });
    expect(current.status).toBe(200);
    expect(current.body.markdown).toContain('The paragraph to edit.');
    await editInSpace(admin, spaceId, pages.Handmade, current.body.markdown.replace('The paragraph to edit.', 'The paragraph, edited.'));

    await requestExport(admin, spaceId, url, { timestamp: '2026-03-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const edited = git.head('edit-one');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: edited });
    expect(git.commitInfo('edit-one', edited).parents).toEqual([imported]);
    expect(git.changedLines('edit-one', imported, edited)).toEqual({ 'README.md': ['-The paragraph to edit.', '+The paragraph, edited.'] });

    // The description changed through the API: front matter written again, with every key the page has no field for.
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Describe' });
    expect(cr.status).toBe(201);
    const change = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'update_page', page: pages.Handmade, description: 'Written in the space' }] });
    expect(change.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    await requestExport(admin, spaceId, url, { timestamp: '2026-03-01T12:00:00.000Z' });
    expect(await drain()).toBe(1);
    const described = git.head('edit-one');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: described });
    expect(git.changedLines('edit-one', edited, described)).toEqual({ 'README.md': ['-description: Written by GitBook', '+description: Written in the space'] });

    // Read back into another space: the description the export wrote.
    const copy = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Copy' });
    expect(copy.status).toBe(201);
    await requestImport(admin, copy.body.id, url, { timestamp: '2026-03-01T13:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, copy.body.id)).operation).toMatchObject({ state: 'success', result: 'applied', commit: described });
    const copyPages = await pagesByTitle(admin, copy.body.id);
    const copied = await admin.api.get(`/spaces/${copy.body.id}/content/page/${copyPages.Handmade}`);
    expect(copied.status).toBe(200);
    expect(copied.body.description).toBe('Written in the space');
  });

  it('starts a new branch from the commit of the last sync when the branch it came from moved on, fetching it by id', async () => {
    const admin = await h.current.newAdmin();
    // Git's own server (git http-backend) serves any commit a branch reaches by its id over HTTP, as GitHub and GitLab do.
    const { url, spaceId, imported } = await importedSpace(admin, 'moved-on', styled);
    const moved = git.commit('moved-on', { 'guide.md': '# Guide\n\nChanged in Git.\n' }, 'Edit in Git');

    await requestExport(admin, spaceId, url, { ref: 'refs/heads/from-sync', timestamp: '2026-03-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const state = await info(admin, spaceId);
    expect(state.operation).toMatchObject({ state: 'success', result: 'applied', commit: imported });
    expect(state.operation.warnings).toBeUndefined();
    expect(git.head('moved-on', 'refs/heads/from-sync')).toBe(imported);
    expect(git.head('moved-on')).toBe(moved);
  });

  it('without the commit of the last sync in the repository, a new branch holds every file as this server writes it, and says so', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, imported } = await importedSpace(admin, 'first-repository', styled);
    const other = git.createRepository('other-repository');

    await requestExport(admin, spaceId, other, { ref: 'refs/heads/main', timestamp: '2026-03-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('other-repository');
    const operation = (await info(admin, spaceId)).operation;
    expect(operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    expect(operation.warnings).toEqual([`refs/heads/main: the commit of the last sync (${imported}) is not in the repository, so the new branch holds every file as this server writes it`]);
    expect(git.commitInfo('other-repository', head).parents).toEqual([]);
    expect(git.show('other-repository', head, 'README.md')).toBe('# Welcome\n\nHello _there_, this is **the** start.\n\n* one\n* two\n');
  });
});
