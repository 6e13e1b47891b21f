import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/** Merges pages into a new space: `[title, markdown, parentIndex?]`. Returns the space and page ids. */
async function spaceWith(admin: Account, title: string, pages: [string, string, number?][]) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  const res = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: pages.map(([t, markdown, parent], i) => ({
      operation: 'insert_page',
      title: t,
      document: { markdown },
      ref: `p${i}`,
      ...(parent !== undefined && { into: `p${parent}` }),
    })),
  });
  expect(res.status).toBe(200);
  await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
  return { spaceId: space.id as string, pages: res.body.changes.map((c: { page: { id: string } }) => c.page.id) as string[] };
}

describe('search', () => {
  it('get /spaces/{spaceId}/search finds pages by title and body with their matching sections', async () => {
    const admin = await h.current.newAdmin();
    const s = await spaceWith(admin, 'Docs', [
      ['Getting started', 'Welcome.'],
      ['Quickstart', 'Intro text.\n\n## Installing the CLI\n\nInstall the CLI with npm.\n\n## Tokens\n\nCreate a token.', 0],
      ['Pricing', 'Plans and prices.'],
    ]);
    const res = await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'installing' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.items[0]).toMatchObject({
      id: s.pages[1],
      title: 'Quickstart',
      path: 'getting-started/quickstart',
      ancestors: [{ title: 'Getting started' }],
    });
    expect(res.body.items[0].sections).toEqual([
      expect.objectContaining({ id: 'installing-the-cli', title: 'Installing the CLI', path: 'getting-started/quickstart#installing-the-cli' }),
    ]);
    expect(res.body.items[0].sections[0].body).toContain('<b>Install</b>');
    // Every matching section of a page, each with its own path and link.
    const two = await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'install or token' });
    expect(two.body.items).toHaveLength(1);
    expect(two.body.items[0]).toMatchObject({ title: 'Quickstart', path: 'getting-started/quickstart', ancestors: [{ title: 'Getting started' }] });
    expect(two.body.items[0].sections).toEqual([
      expect.objectContaining({ id: 'installing-the-cli', path: 'getting-started/quickstart#installing-the-cli' }),
      expect.objectContaining({ id: 'tokens', title: 'Tokens', path: 'getting-started/quickstart#tokens', body: 'Create a <b>token</b>' }),
    ]);
    expect(two.body.items[0].sections[1].urls.app).toBe(`${two.body.items[0].urls.app}#tokens`);
    const byTitle = await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'pricing' });
    expect(byTitle.body.items.map((i: { id: string }) => i.id)).toEqual([s.pages[2]]);
    expect((await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'kubernetes' })).body).toEqual({ items: [], count: 0 });
  });

  it('get /spaces/{spaceId}/search ranks the best matches first and paginates', async () => {
    const admin = await h.current.newAdmin();
    const s = await spaceWith(admin, 'Docs', [
      ['Other', 'A token is mentioned once.'],
      ['Tokens', 'Tokens, tokens: all about the token.'],
      ['Third', 'token here too'],
    ]);
    const all = await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'token' });
    expect(all.body.count).toBe(3);
    expect(all.body.items[0].id).toBe(s.pages[1]);
    const first = await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'token', limit: 2 });
    const second = await admin.api.get(`/spaces/${s.spaceId}/search`, { query: 'token', limit: 2, page: first.body.next.page });
    expect([...first.body.items, ...second.body.items]).toEqual(all.body.items);
    expect((await admin.api.get(`/spaces/${s.spaceId}/search`, {})).status).toBe(400);
  });

  it('get /orgs/{organizationId}/search groups matching pages by space, only for members who can read', async () => {
    const admin = await h.current.newAdmin();
    const a = await spaceWith(admin, 'Alpha', [['Deploy', 'How to deploy the service.']]);
    const b = await spaceWith(admin, 'Beta', [['Release', 'Deploy every week.'], ['Misc', 'nothing']]);
    await spaceWith(admin, 'Gamma', [['Other', 'unrelated']]);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query: 'deploy' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const spaces = res.body.items.map((i: { id: string; title: string; pages: { id: string }[] }) => [i.title, i.pages.map((p) => p.id)]);
    expect(spaces).toEqual(expect.arrayContaining([['Alpha', [a.pages[0]]], ['Beta', [b.pages[0]]]]));
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await guest.api.get(`/orgs/${admin.organizationId}/search`, { query: 'deploy' })).body).toEqual({ items: [], count: 0 });
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/search`, { query: 'deploy' })).status).toBe(404);
    const other = await outsider.api.get(`/orgs/${outsider.organizationId}/search`, { query: 'deploy' });
    expect(other.body).toEqual({ items: [], count: 0 });
  });

  it('get /orgs/{organizationId}/search follows the organization: spaces as soon as they are written, not deleted ones', async () => {
    const admin = await h.current.newAdmin();
    const alpha = await spaceWith(admin, 'Alpha', [['Deploy', 'How to deploy the service.']]);
    const titles = async () => {
      const res = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query: 'deploy' });
      expect(res.status).toBe(200);
      return { count: res.body.count, titles: res.body.items.map((i: { title: string }) => i.title).sort() };
    };
    expect(await titles()).toEqual({ count: 1, titles: ['Alpha'] });
    // Written after the first search: found at once (the merge indexed it as it committed).
    await spaceWith(admin, 'Delta', [['Rollout', 'We deploy on Tuesdays.']]);
    expect(await titles()).toEqual({ count: 2, titles: ['Alpha', 'Delta'] });
    expect((await admin.api.delete(`/spaces/${alpha.spaceId}`)).status).toBe(204);
    expect(await titles()).toEqual({ count: 1, titles: ['Delta'] });
  });
});
