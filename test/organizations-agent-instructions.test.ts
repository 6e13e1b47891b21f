import { describe, expect, it } from 'vitest';
import { documentExample } from '../contract/document.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('agent instructions', () => {
  it('get /orgs/{organizationId}/agent-instructions returns 404 before the first put, then the saved document with who and when', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const reader = await h.current.newMember(org, 'read');
    expect((await reader.api.get(`/orgs/${org}/agent-instructions`)).status).toBe(404);
    const put = await admin.api.put(`/orgs/${org}/agent-instructions`, { instructions: documentExample });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ object: 'agent-instructions', instructions: documentExample, updatedBy: admin.userId });
    const got = await reader.api.get(`/orgs/${org}/agent-instructions`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
    expect(got.body.urls.location).toBe(`https://api.test.example/v1/orgs/${org}/agent-instructions`);
  });

  it('put /orgs/{organizationId}/agent-instructions replaces the document and records the latest editor and time', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const second = await h.current.newMember(org, 'admin');
    const first = await admin.api.put(`/orgs/${org}/agent-instructions`, { instructions: documentExample });
    h.current.advanceClock(5000);
    const empty = { object: 'document', data: {}, nodes: [] };
    const res = await second.api.put(`/orgs/${org}/agent-instructions`, { instructions: empty });
    expect(res.body.instructions).toEqual(empty);
    expect(res.body.updatedBy).toBe(second.userId);
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(first.body.updatedAt));
  });

  it('put /orgs/{organizationId}/agent-instructions returns 400 for a bad document, 403 below admin, 404 for an outsider', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const bad = await admin.api.put(`/orgs/${org}/agent-instructions`, { instructions: 'plain text' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.instructions');
    const creator = await h.current.newMember(org, 'create');
    expect((await creator.api.put(`/orgs/${org}/agent-instructions`, { instructions: documentExample })).status).toBe(403);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.put(`/orgs/${org}/agent-instructions`, { instructions: documentExample })).status).toBe(404);
    expect((await outsider.api.get(`/orgs/${org}/agent-instructions`)).status).toBe(404);
  });
});
