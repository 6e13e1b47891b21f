import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizationInvites } from '../server/db/schema/index.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('organization creation, joining and invites', () => {
  it('post /orgs creates an organization whose admin is the caller', async () => {
    const someone = await h.current.newAdmin();
    const res = await someone.api.post('/orgs', { title: 'New Co', emailDomains: ['NewCo.example'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'organization', title: 'New Co', emailDomains: ['newco.example'], permissions: { admin: true } });
    expect(res.headers.location).toBe(res.body.urls.location);
    const member = await someone.api.get(`/orgs/${res.body.id}/members/${someone.userId}`);
    expect(member.body.role).toBe('admin');
    const mine = await someone.api.get('/orgs');
    expect(mine.body.items.map((o: { id: string }) => o.id)).toContain(res.body.id);
  });

  it('post /orgs?withDefaultSite=true starts the organization with a site set up from the onboarding answers, its default content', async () => {
    const someone = await h.current.newAdmin();
    const openapiUrl = 'https://acme.example.com/openapi.yaml';
    const res = await someone.api.post(`/orgs?withDefaultSite=true&openapiUrl=${encodeURIComponent(openapiUrl)}`, {
      title: 'Starter Co',
      onboardingPreferences: { source: 'template', audience: 'protected', interests: ['adaptive-content', 'api-docs'] },
    });
    expect(res.status).toBe(201);
    const siteId = res.body.defaultContent?.site as string;
    expect(siteId).toMatch(/^sit_/);
    const site = await someone.api.get(`/orgs/${res.body.id}/sites/${siteId}`);
    expect(site.status).toBe(200);
    expect(site.body).toMatchObject({ title: 'Starter Co', visibility: 'visitor-auth', published: false, adaptiveContent: { enabled: true } });
    const siteSpaces = await someone.api.get(`/orgs/${res.body.id}/sites/${siteId}/site-spaces`);
    expect(siteSpaces.status).toBe(200);
    expect(siteSpaces.body.items).toHaveLength(1);
    const space = await someone.api.get(`/spaces/${siteSpaces.body.items[0].space.id}`);
    expect(space.status).toBe(200);
    expect(space.body).toMatchObject({ title: 'Starter Co', organization: res.body.id });
    const spec = await someone.api.get(`/orgs/${res.body.id}/openapi/api`);
    expect(spec.status).toBe(200);
    expect(spec.body.sourceURL).toBe(openapiUrl);

    // A mixed audience: a public site with adaptive content; no openapiUrl, no specification.
    const mixed = await someone.api.post('/orgs?withDefaultSite=true', { title: 'Mixed Co', onboardingPreferences: { audience: 'mixed', interests: [] } });
    expect(mixed.status).toBe(201);
    const mixedSite = await someone.api.get(`/orgs/${mixed.body.id}/sites/${mixed.body.defaultContent.site}`);
    expect(mixedSite.body).toMatchObject({ visibility: 'public', adaptiveContent: { enabled: true } });
    expect((await someone.api.get(`/orgs/${mixed.body.id}/openapi`)).body.items).toEqual([]);

    // Without withDefaultSite: no site, no default content.
    const bare = await someone.api.post('/orgs', { title: 'Bare Co' });
    expect(bare.status).toBe(201);
    expect(bare.body.defaultContent).toBeUndefined();
    expect((await someone.api.get(`/orgs/${bare.body.id}/sites`)).body.items).toEqual([]);
  });

  it('post /orgs refuses an unknown onboarding audience or interest with a 400 naming it, and creates nothing', async () => {
    const someone = await h.current.newAdmin();
    const before = (await someone.api.get('/orgs')).body.items.length;
    const audience = await someone.api.post('/orgs?withDefaultSite=true', { title: 'Odd Co', onboardingPreferences: { audience: 'everyone' } });
    expect(audience.status).toBe(400);
    expect(audience.body.error.message).toContain('body.onboardingPreferences.audience');
    const interest = await someone.api.post('/orgs?withDefaultSite=true', { title: 'Odd Co', onboardingPreferences: { interests: ['gardening'] } });
    expect(interest.status).toBe(400);
    expect(interest.body.error.message).toContain('body.onboardingPreferences.interests');
    expect((await someone.api.get('/orgs')).body.items.length).toBe(before);
  });

  it('post /orgs returns 400 for a missing or blank title', async () => {
    const someone = await h.current.newAdmin();
    const missing = await someone.api.post('/orgs', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.title');
    expect((await someone.api.post('/orgs', { title: '   ' })).status).toBe(400);
  });

  it('post /orgs/{organizationId}/join adds a caller whose email domain is allowed, with the default role', async () => {
    const owner = await h.current.newAdmin();
    const org = (await owner.api.post('/orgs', { title: 'Open Co', emailDomains: ['example.com'] })).body;
    await owner.api.patch(`/orgs/${org.id}`, { defaultRole: 'comment' });
    const joiner = await h.current.newAdmin();
    expect((await joiner.api.get(`/orgs/${org.id}`)).status).toBe(404);
    expect((await joiner.api.post(`/orgs/${org.id}/join`)).status).toBe(204);
    expect((await joiner.api.get(`/orgs/${org.id}`)).body.permissions.view).toBe(true);
    expect((await owner.api.get(`/orgs/${org.id}/members/${joiner.userId}`)).body.role).toBe('comment');
    // Joining again changes nothing.
    expect((await joiner.api.post(`/orgs/${org.id}/join`)).status).toBe(204);
  });

  it('post /orgs/{organizationId}/join returns 400 for an email domain not allowed, 404 for an unknown organization', async () => {
    const owner = await h.current.newAdmin();
    const org = (await owner.api.post('/orgs', { title: 'Closed Co', emailDomains: ['closed.example'] })).body;
    const joiner = await h.current.newAdmin();
    const refused = await joiner.api.post(`/orgs/${org.id}/join`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('example.com');
    expect((await owner.api.get(`/orgs/${org.id}/members/${joiner.userId}`)).status).toBe(404);
    expect((await joiner.api.post('/orgs/org_nope/join')).status).toBe(404);
  });

  it('get /email-domains/{emailDomain}/orgs lists the organizations allowing a domain, with the caller\'s permissions', async () => {
    const owner = await h.current.newAdmin();
    const domain = `d${Math.random().toString(36).slice(2, 8)}.example`;
    const a = (await owner.api.post('/orgs', { title: 'Org A', emailDomains: [domain] })).body;
    const b = (await owner.api.post('/orgs', { title: 'Org B', emailDomains: ['other.example', domain] })).body;
    await owner.api.post('/orgs', { title: 'Org C', emailDomains: ['other.example'] });
    const res = await owner.api.get(`/email-domains/${domain.toUpperCase()}/orgs`);
    expect(res.status).toBe(200);
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([a.id, b.id]);
    expect(res.body.organizations[0].permissions.admin).toBe(true);
    // Someone else sees another domain's organizations only where it is a member, and those of its own
    // email's domain (example.com for the harness's users) whether a member or not.
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.get(`/email-domains/${domain}/orgs`)).body).toEqual({ organizations: [] });
    const open = (await owner.api.post('/orgs', { title: 'Open to example.com', emailDomains: ['example.com', domain] })).body;
    const own = await stranger.api.get('/email-domains/example.com/orgs');
    const seen = own.body.organizations.find((o: { id: string }) => o.id === open.id);
    expect(seen.permissions).toMatchObject({ view: false, admin: false });
    await h.current.addMembership(b.id, stranger.userId, 'read');
    const asMember = await stranger.api.get(`/email-domains/${domain}/orgs`);
    expect(asMember.body.organizations.map((o: { id: string }) => o.id)).toEqual([b.id]);
    expect(asMember.body.organizations[0].permissions).toMatchObject({ view: true, admin: false });
  });

  it('delete /orgs/{organizationId}/link-invites/{inviteId} revokes an invite, idempotently; 403 below admin, 404 outsider', async () => {
    const owner = await h.current.newAdmin();
    const org = owner.organizationId;
    await h.current.db.insert(organizationInvites).values({ id: 'inv_test1', organizationId: org, role: 'read', createdAt: new Date() });
    expect((await owner.api.delete(`/orgs/${org}/link-invites/inv_test1`)).status).toBe(204);
    expect(await h.current.db.select().from(organizationInvites).where(eq(organizationInvites.id, 'inv_test1'))).toEqual([]);
    expect((await owner.api.delete(`/orgs/${org}/link-invites/inv_test1`)).status).toBe(204);
    const editor = await h.current.newMember(org, 'edit');
    expect((await editor.api.delete(`/orgs/${org}/link-invites/inv_x`)).status).toBe(403);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.delete(`/orgs/${org}/link-invites/inv_x`)).status).toBe(404);
  });
});
