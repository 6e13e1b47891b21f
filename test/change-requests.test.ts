import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function newSpace(admin: Account): Promise<{ id: string; revision: string }> {
  return (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
}

describe('change requests', () => {
  it('post /spaces/{spaceId}/change-requests creates a change request from the current revision, numbered in the space', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const res = await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'Fix typos', extra: 'ignored' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'Fix typos',
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      comments: 0,
      createdBy: { id: admin.userId },
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    const second = await admin.api.post(`/spaces/${space.id}/change-requests`);
    expect(second.status).toBe(201);
    expect(second.body.number).toBe(2);
    expect(second.body.subject).toBe(''); // none given: GitBook's empty subject
  });

  it('post /spaces/{spaceId}/change-requests answers 403 below edit and 404 for an unknown space', async () => {
    const admin = await h.current.newAdmin();
    const commenter = await h.current.newMember(admin.organizationId, 'comment');
    const space = await newSpace(admin);
    expect((await commenter.api.post(`/spaces/${space.id}/change-requests`, {})).status).toBe(403);
    expect((await admin.api.post(`/spaces/spc_missing/change-requests`, {})).status).toBe(404);
  });

  it('post /spaces/{spaceId}/change-requests gives 100 concurrent creations the numbers 1..100', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => admin.api.post(`/spaces/${space.id}/change-requests`, { subject: `CR ${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.map((r) => r.body.number as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const list = await admin.api.get(`/spaces/${space.id}/change-requests`, { limit: 1 });
    expect(list.body.count).toBe(100);
  }, 120_000);

  it('get /spaces/{spaceId}/change-requests/{changeRequestId} reads by id or by number, 404 when unknown', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const other = await newSpace(admin);
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'A' })).body;
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}`)).body).toEqual(cr);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/1`)).body.id).toBe(cr.id);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/2`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${other.id}/change-requests/${cr.id}`)).status).toBe(404);
  });

  it('patch /spaces/{spaceId}/change-requests/{changeRequestId} changes subject, description and status', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'A' })).body;
    const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }] };
    const res = await admin.api.patch(`/spaces/${space.id}/change-requests/${cr.number}`, { subject: 'B', description, status: 'draft' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subject: 'B', description, status: 'draft' });
    const kept = await admin.api.patch(`/spaces/${space.id}/change-requests/${cr.id}`, {});
    expect(kept.body).toMatchObject({ subject: 'B', status: 'draft' });
  });

  it('patch /spaces/{spaceId}/change-requests/{changeRequestId} answers 409 for the status of a merged one, 403 below edit, 404 when unknown', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const space = await newSpace(admin);
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
    expect((await reader.api.patch(`/spaces/${space.id}/change-requests/${cr.id}`, { subject: 'x' })).status).toBe(403);
    await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
    expect((await admin.api.patch(`/spaces/${space.id}/change-requests/${cr.id}`, { status: 'open' })).status).toBe(409);
    expect((await admin.api.patch(`/spaces/${space.id}/change-requests/${cr.id}`, { subject: 'After' })).body.subject).toBe('After');
    expect((await admin.api.patch(`/spaces/${space.id}/change-requests/77`, { subject: 'x' })).status).toBe(404);
    expect((await admin.api.patch(`/spaces/${space.id}/change-requests/${cr.id}`, { status: 'merged' })).status).toBe(400);
  });
});
