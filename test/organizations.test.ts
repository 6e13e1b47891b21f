import { describe, expect, it } from 'vitest';
import { addMember } from '../server/auth/bootstrap.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('organizations', () => {
  it('get /orgs lists the organizations of the caller with their permissions', async () => {
    const admin = await h.current.newAdmin();
    const second = await h.current.newAdmin();
    await addMember(h.current.db, second.organizationId, admin.userId, 'read');
    await h.current.newAdmin(); // an organization the caller does not belong to
    const res = await admin.api.get('/orgs');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([admin.organizationId, second.organizationId]);
    expect(res.body.items[0].permissions.admin).toBe(true);
    expect(res.body.items[1].permissions).toMatchObject({ admin: false, view: true, listMembers: true });
  });

  it('get /orgs pages through the list with limit and page', async () => {
    const admin = await h.current.newAdmin();
    for (let i = 0; i < 2; i++) await addMember(h.current.db, (await h.current.newAdmin()).organizationId, admin.userId, 'read');
    const first = await admin.api.get('/orgs', { limit: 2 });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next.page).toEqual(expect.any(String));
    const second = await admin.api.get('/orgs', { limit: 2, page: first.body.next.page });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
    expect(second.body.count).toBe(3);
  });

  it('get /orgs answers an empty list to a user in no organization, in one statement (the harness holds its budget)', async () => {
    const admin = await h.current.newAdmin();
    const member = await h.current.newMember(admin.organizationId, 'read');
    const removed = await admin.api.delete(`/orgs/${admin.organizationId}/members/${member.userId}`);
    expect(removed.status).toBe(204);
    const res = await member.api.get('/orgs');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0 });
  });

  it('get /orgs returns 400 for a page identifier it did not issue', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.get('/orgs', { page: 'bm90LWEtY3Vyc29y' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('query.page');
  });

  it('get /orgs/{organizationId} returns the organization, 404 for non-members', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const res = await admin.api.get(`/orgs/${admin.organizationId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'organization', id: admin.organizationId, emailDomains: [], mergeRules: { type: 'none' } });
    expect(res.body.urls.location).toBe(`https://api.test.example/v1/orgs/${admin.organizationId}`);
    expect((await outsider.api.get(`/orgs/${admin.organizationId}`)).status).toBe(404);
    expect((await admin.api.get('/orgs/org_unknown')).status).toBe(404);
  });

  it('patch /orgs/{organizationId} changes the given settings', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.patch(`/orgs/${admin.organizationId}`, {
      title: 'Renamed',
      emailDomains: ['example.com'],
      hostname: `acme-${admin.organizationId.slice(-6).toLowerCase()}`,
      defaultRole: 'comment',
      logo: 'https://cdn.example.com/logo.png',
      sso: true,
      ai: false,
      inviteLinks: false,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.userId] }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Renamed', emailDomains: ['example.com'], defaultRole: 'comment', sso: true, ai: false, inviteLinks: false });
    expect(res.body.urls.logo).toBe('https://cdn.example.com/logo.png');
    expect(res.body.mergeRules.rules[0].users).toEqual([admin.userId]);
    expect((await admin.api.get(`/orgs/${admin.organizationId}`)).body.title).toBe('Renamed');
  });

  it('patch /orgs/{organizationId} stores type, use case and community type, read back; a business has no community type', async () => {
    const admin = await h.current.newAdmin();
    const path = `/orgs/${admin.organizationId}`;
    const fresh = await admin.api.get(path);
    expect(fresh.status).toBe(200);
    expect(fresh.body.type).toBe('business'); // until set otherwise, as the schema says (GitBook requires a type)
    expect(fresh.body.trial).toEqual({ status: 'notapplicable', count: 0 });
    const community = await admin.api.patch(path, { type: 'community', useCase: 'openSourceDocs', communityType: 'openSource' });
    expect(community.status, JSON.stringify(community.body)).toBe(200);
    expect(community.body).toMatchObject({ type: 'community', useCase: 'openSourceDocs', communityType: 'openSource' });
    const read = await admin.api.get(path);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ type: 'community', useCase: 'openSourceDocs', communityType: 'openSource' });
    const business = await admin.api.patch(path, { type: 'business' });
    expect(business.status).toBe(200);
    expect(business.body).toMatchObject({ type: 'business', useCase: 'openSourceDocs' });
    expect(business.body).not.toHaveProperty('communityType');
    const refused = await admin.api.patch(path, { communityType: 'education' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^Invalid request: body\.communityType: only for an organization whose type is community/);
    expect((await admin.api.get(path)).body).not.toHaveProperty('communityType');
  });

  it('patch /orgs/{organizationId} returns 400 for an unknown default site and leaves the organization', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.patch(`/orgs/${admin.organizationId}`, { title: 'Lost', defaultContent: { type: 'site', site: 'site_nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.defaultContent.site');
    expect((await admin.api.get(`/orgs/${admin.organizationId}`)).body.title).not.toBe('Lost');
  });

  it('patch /orgs/{organizationId} returns 400 naming invalid fields', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.patch(`/orgs/${admin.organizationId}`, { defaultRole: 'owner', logo: 'not a url' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.defaultRole');
    expect(res.body.error.message).toContain('body.logo');
  });

  it('patch /orgs/{organizationId} returns 409 for a hostname another organization has', async () => {
    const a = await h.current.newAdmin();
    const b = await h.current.newAdmin();
    const hostname = `taken-${a.organizationId.slice(-6).toLowerCase()}`;
    expect((await a.api.patch(`/orgs/${a.organizationId}`, { hostname })).status).toBe(200);
    const res = await b.api.patch(`/orgs/${b.organizationId}`, { hostname });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(hostname);
  });

  it('patch /orgs/{organizationId} returns 403 below admin and 404 for non-members', async () => {
    const admin = await h.current.newAdmin();
    const creator = await h.current.newMember(admin.organizationId, 'create');
    const outsider = await h.current.newAdmin();
    expect((await creator.api.patch(`/orgs/${admin.organizationId}`, { title: 'Mine now' })).status).toBe(403);
    expect((await outsider.api.patch(`/orgs/${admin.organizationId}`, { title: 'Mine now' })).status).toBe(404);
  });
});
