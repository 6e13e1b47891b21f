import { describe, expect, it } from 'vitest';
import { useHarness, PUBLIC_URL, type Account } from './support/harness.js';

const h = useHarness();

async function space(account: Account, title = 'Guides') {
  return (await account.api.post(`/orgs/${account.organizationId}/spaces`, { title })).body.id as string;
}

async function translation(account: Account, body: object = {}) {
  const res = await account.api.post(`/orgs/${account.organizationId}/translations`, {
    source: { space: await space(account), language: 'en' },
    language: 'fr',
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body;
}

const instructions = {
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Keep "Acme" untranslated.', marks: [] }] }] }],
};

describe('translations', () => {
  it('post /orgs/{organizationId}/translations creates a pending translation with its instructions', async () => {
    const admin = await h.current.newAdmin();
    const source = await space(admin);
    const res = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'de', instructions });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'translation',
      status: 'pending',
      source: { space: source, language: 'en' },
      language: 'de',
      instructions,
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0 },
      permissions: { view: true, edit: true },
    });
    expect(res.body.result).toBeUndefined();
    expect(res.body.stats).toMatchObject({ latestRunDuration: 0, latestPages: 0, latestWords: 0 }); // no run yet
    expect(res.body.urls.location).toBe(`${PUBLIC_URL}/v1/orgs/${admin.organizationId}/translations/${res.body.id}`);
    expect(res.headers.location).toBe(res.body.urls.location);
  });

  it('post /orgs/{organizationId}/translations returns 400 for equal languages or an unknown language, 403 below create, 404 for a foreign space', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const source = await space(admin);
    const same = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'en' });
    expect(same.status).toBe(400);
    expect(same.body.error.message).toContain('body.language');
    const unknown = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'klingon' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('body.language');
    expect((await editor.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'fr' })).status).toBe(403);
    const foreign = await space(other);
    expect((await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: foreign, language: 'en' }, language: 'fr' })).status).toBe(404);
  });

  it('get /orgs/{organizationId}/translations lists translations newest first with pagination', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const a = await translation(admin);
    const b = await translation(admin);
    const c = await translation(admin);
    const first = await reader.api.get(`/orgs/${admin.organizationId}/translations`, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((t: { id: string }) => t.id)).toEqual([c.id, b.id]);
    expect(first.body.items[0].permissions).toEqual({ view: true, edit: false });
    expect(first.body.count).toBe(3);
    const second = await reader.api.get(`/orgs/${admin.organizationId}/translations`, { limit: 2, page: first.body.next.page });
    expect(second.body.items.map((t: { id: string }) => t.id)).toEqual([a.id]);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/translations`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/translations/{translationId} returns it, and 404 for unknown or foreign ones', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const t = await translation(admin);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/translations/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(t);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/translations/trn_unknown`)).status).toBe(404);
    const foreign = await translation(other);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/translations/${foreign.id}`)).status).toBe(404);
  });

  it('put /orgs/{organizationId}/translations/{translationId} replaces the instructions', async () => {
    const admin = await h.current.newAdmin();
    const t = await translation(admin);
    const res = await admin.api.put(`/orgs/${admin.organizationId}/translations/${t.id}`, { instructions });
    expect(res.status).toBe(200);
    expect(res.body.instructions).toEqual(instructions);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/translations/${t.id}`)).body.instructions).toEqual(instructions);
  });

  it('put /orgs/{organizationId}/translations/{translationId} returns 400 without instructions, 403 below create, 404 unknown', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const t = await translation(admin);
    const bad = await admin.api.put(`/orgs/${admin.organizationId}/translations/${t.id}`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.instructions');
    expect((await editor.api.put(`/orgs/${admin.organizationId}/translations/${t.id}`, { instructions })).status).toBe(403);
    expect((await admin.api.put(`/orgs/${admin.organizationId}/translations/trn_unknown`, { instructions })).status).toBe(404);
  });

  it('delete /orgs/{organizationId}/translations/{translationId} removes it, 204 also when missing, 403 below create', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const t = await translation(admin);
    expect((await editor.api.delete(`/orgs/${admin.organizationId}/translations/${t.id}`)).status).toBe(403);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/translations/${t.id}`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/translations/${t.id}`)).status).toBe(404);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/translations/${t.id}`)).status).toBe(204);
  });

  it('post /orgs/{organizationId}/translations/{translationId}/run queues a run (pending), 403 below create, 404 unknown', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const t = await translation(admin);
    expect((await admin.api.post(`/orgs/${admin.organizationId}/translations/${t.id}/run`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/translations/${t.id}`)).body.status).toBe('pending');
    expect((await editor.api.post(`/orgs/${admin.organizationId}/translations/${t.id}/run`)).status).toBe(403);
    expect((await admin.api.post(`/orgs/${admin.organizationId}/translations/trn_unknown/run`)).status).toBe(404);
  });
});
