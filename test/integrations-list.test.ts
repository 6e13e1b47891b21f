// GET /integrations: visibility, every filter, pagination.
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();

describe('get /integrations', () => {
  let admin: Account;
  let other: Account;
  let outsider: Account;
  const tag = `l${Date.now().toString(36)}`;
  const names = { chart: `${tag}-chart`, sources: `${tag}-sources`, secret: `${tag}-secret`, hidden: `${tag}-hidden`, foreign: `${tag}-foreign` };
  const namesOf = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

  beforeAll(async () => {
    admin = await h.current.newAdmin();
    other = await h.current.newAdmin();
    outsider = await h.current.newAdmin();
    await publishAs(admin, names.chart, {
      title: 'Chart Maker',
      categories: ['analytics'],
      scopes: ['space:content:read'],
      target: 'space',
      blocks: [{ id: 'c', title: 'C', urlUnfurl: ['https://charts.acme.example.com/x', 'plain.example.org/y'] }],
    });
    await publishAs(admin, names.sources, { categories: ['content'], target: 'all', contentSources: [{ id: 's', title: 'S' }] });
    await publishAs(admin, names.secret, { visibility: 'private', target: 'site' });
    await publishAs(admin, names.hidden, { visibility: 'unlisted' });
    await publishAs(other, names.foreign, { categories: ['marketing'], scopes: ['openapi:read'] });
  });

  it('get /integrations lists public integrations and those of the caller organizations, by name', async () => {
    const mine = await admin.api.get('/integrations', { search: tag });
    expect(mine.status).toBe(200);
    expect(namesOf(mine)).toEqual([names.chart, names.foreign, names.hidden, names.secret, names.sources]);
    expect(mine.body.count).toBe(5);
    expect(namesOf(await outsider.api.get('/integrations', { search: tag }))).toEqual([names.chart, names.foreign, names.sources]);
  });

  it('get /integrations filters by search, category, blockDomain, blocks, contentSources, owner, scope and target', async () => {
    const list = async (query: Record<string, string | boolean>) => namesOf(await admin.api.get('/integrations', { search: tag, ...query }));
    expect(namesOf(await admin.api.get('/integrations', { search: 'CHART mak' }))).toEqual([names.chart]);
    expect(await list({ category: 'analytics' })).toEqual([names.chart]);
    expect(await list({ blockDomain: 'acme.example.com' })).toEqual([names.chart]);
    expect(await list({ blockDomain: 'plain.example.org' })).toEqual([names.chart]);
    expect(await list({ blockDomain: 'example.net' })).toEqual([]);
    expect(await list({ blocks: true })).toEqual([names.chart]);
    expect(await list({ blocks: false })).not.toContain(names.chart);
    expect(await list({ contentSources: true })).toEqual([names.sources]);
    expect(await list({ owner: other.organizationId })).toEqual([names.foreign]);
    expect(await list({ scope: 'openapi:read' })).toEqual([names.foreign]);
    expect(await list({ target: 'site' })).toEqual([names.foreign, names.hidden, names.secret, names.sources]);
    expect(await list({ target: 'space', category: 'analytics' })).toEqual([names.chart]);
  });

  it('get /integrations pages with limit and the next cursor', async () => {
    const first = await admin.api.get('/integrations', { search: tag, limit: 2 });
    expect(namesOf(first)).toEqual([names.chart, names.foreign]);
    expect(first.body.count).toBe(5);
    const second = await admin.api.get('/integrations', { search: tag, limit: 2, page: first.body.next.page });
    expect(namesOf(second)).toEqual([names.hidden, names.secret]);
    const third = await admin.api.get('/integrations', { search: tag, limit: 2, page: second.body.next.page });
    expect(namesOf(third)).toEqual([names.sources]);
    expect(third.body.next).toBeUndefined();
  });

  it('get /integrations returns 400 for an unknown category, scope or target, and a bad blockDomain', async () => {
    for (const [field, value] of [['category', 'games'], ['scope', 'root'], ['target', 'moon'], ['blockDomain', 'a/b'], ['blocks', 'maybe']]) {
      const res = await admin.api.get('/integrations', { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(`query.${field}`);
    }
  });
});
