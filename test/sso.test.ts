import { describe, expect, it } from 'vitest';
import { idpCertificate } from './support/matrix/sso-certificate.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';

const h = useHarness();

const complete = {
  label: 'Acme Okta',
  ssoURL: 'https://idp.test.example/sso',
  entityID: 'https://idp.test.example/entity',
  certificate: idpCertificate,
};

async function provider(account: Account, body: object = complete) {
  const res = await account.api.post(`/orgs/${account.organizationId}/saml`, body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('SAML providers', () => {
  it('post /orgs/{organizationId}/saml creates an active provider with its service URLs', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.post(`/orgs/${admin.organizationId}/saml`, { ...complete, defaultRole: 'edit' });
    expect(res.status).toBe(201);
    const p = res.body;
    expect(p).toMatchObject({ object: 'saml-provider', label: 'Acme Okta', status: 'active', defaultRole: 'edit', ssoURL: complete.ssoURL });
    expect(p.certificate).toContain('-----BEGIN CERTIFICATE-----');
    expect(p.service).toEqual({
      acsURL: `${PUBLIC_URL}/auth/saml/${p.id}/acs`,
      startURL: `${PUBLIC_URL}/auth/saml/${p.id}/start`,
      entityID: `${PUBLIC_URL}/auth/saml/${p.id}/metadata`,
    });
    expect(p.urls.location).toBe(`${PUBLIC_URL}/v1/orgs/${admin.organizationId}/saml/${p.id}`);
    expect(res.headers.location).toBe(p.urls.location);
  });

  it('post /orgs/{organizationId}/saml keeps a provider pending until ssoURL, entityID and certificate are set; defaultRole null means guests', async () => {
    const admin = await h.current.newAdmin();
    const p = await provider(admin, { label: 'Later', defaultRole: null });
    expect(p.status).toBe('pending');
    expect(p.defaultRole).toBeNull();
    expect(p.ssoURL).toBeUndefined();
    // Without its own, a provider's role is the organization's default role, as it is in effect.
    expect((await admin.api.patch(`/orgs/${admin.organizationId}`, { defaultRole: 'comment' })).status).toBe(200);
    const bare = await provider(admin, { label: 'Bare' });
    expect(bare.defaultRole).toBe('comment');
  });

  it('post /orgs/{organizationId}/saml returns 400 for a certificate that is not X.509, a missing label or an unknown team; 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'create');
    const fake = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----';
    const bad = await admin.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'X', certificate: fake });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.certificate');
    const noLabel = await admin.api.post(`/orgs/${admin.organizationId}/saml`, { ssoURL: complete.ssoURL });
    expect(noLabel.status).toBe(400);
    expect(noLabel.body.error.message).toContain('body.label');
    const team = await admin.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'X', defaultTeam: 'tea_unknown' });
    expect(team.status).toBe(400);
    expect(team.body.error.message).toContain('body.defaultTeam');
    expect((await editor.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'X' })).status).toBe(403);
  });

  it('post /orgs/{organizationId}/saml returns the default team as a Team, and a deleted team stops being the default', async () => {
    const admin = await h.current.newAdmin();
    const team = await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title: 'Newcomers' });
    expect(team.status).toBe(201);
    const p = await provider(admin, { ...complete, defaultTeam: team.body.id });
    expect(p.defaultTeam).toMatchObject({ object: 'team', id: team.body.id, title: 'Newcomers' });
    const listed = await admin.api.get(`/orgs/${admin.organizationId}/saml`);
    expect(listed.body.items[0].defaultTeam.id).toBe(team.body.id);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/teams/${team.body.id}`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/saml/${p.id}`)).body.defaultTeam).toBeUndefined();
  });

  it('post /orgs/{organizationId}/saml returns 400 for a team of another organization', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const foreign = await other.api.put(`/orgs/${other.organizationId}/teams`, { title: 'Theirs' });
    const res = await admin.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'X', defaultTeam: foreign.body.id });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.defaultTeam');
  });

  it('get /orgs/{organizationId}/saml lists providers in creation order with pagination', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const a = await provider(admin, { label: 'A' });
    const b = await provider(admin, { label: 'B' });
    const c = await provider(admin, { label: 'C' });
    const first = await reader.api.get(`/orgs/${admin.organizationId}/saml`, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((p: { id: string }) => p.id)).toEqual([a.id, b.id]);
    expect(first.body.count).toBe(3);
    const second = await reader.api.get(`/orgs/${admin.organizationId}/saml`, { limit: 2, page: first.body.next.page });
    expect(second.body.items.map((p: { id: string }) => p.id)).toEqual([c.id]);
    expect(second.body.next).toBeUndefined();
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/saml`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/saml/{samlProviderId} returns it, and 404 for unknown or foreign providers', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const p = await provider(admin);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/saml/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(p);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/saml/sml_unknown`)).status).toBe(404);
    const foreign = await provider(other);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/saml/${foreign.id}`)).status).toBe(404);
  });

  it('patch /orgs/{organizationId}/saml/{samlProviderId} changes the given settings and activates a complete provider', async () => {
    const admin = await h.current.newAdmin();
    const p = await provider(admin, { label: 'Draft' });
    const team = (await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title: 'SSO' })).body;
    const res = await admin.api.patch(`/orgs/${admin.organizationId}/saml/${p.id}`, { ...complete, label: 'Live', defaultRole: 'comment', defaultTeam: team.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: 'Live', status: 'active', defaultRole: 'comment', entityID: complete.entityID });
    expect(res.body.defaultTeam.id).toBe(team.id);
    const same = await admin.api.patch(`/orgs/${admin.organizationId}/saml/${p.id}`, {});
    expect(same.body).toEqual(res.body);
    const back = await admin.api.get(`/orgs/${admin.organizationId}/saml/${p.id}`);
    expect(back.body).toEqual(res.body);
  });

  it('patch /orgs/{organizationId}/saml/{samlProviderId} returns 400 for a bad certificate or URL, 403 below admin, 404 unknown', async () => {
    const admin = await h.current.newAdmin();
    const reviewer = await h.current.newMember(admin.organizationId, 'review');
    const p = await provider(admin);
    const cert = await admin.api.patch(`/orgs/${admin.organizationId}/saml/${p.id}`, {
      certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
    });
    expect(cert.status).toBe(400);
    expect(cert.body.error.message).toContain('body.certificate');
    const url = await admin.api.patch(`/orgs/${admin.organizationId}/saml/${p.id}`, { ssoURL: 'not a url' });
    expect(url.status).toBe(400);
    expect(url.body.error.message).toContain('body.ssoURL');
    expect((await reviewer.api.patch(`/orgs/${admin.organizationId}/saml/${p.id}`, { label: 'X' })).status).toBe(403);
    expect((await admin.api.patch(`/orgs/${admin.organizationId}/saml/sml_unknown`, { label: 'X' })).status).toBe(404);
  });

  it('delete /orgs/{organizationId}/saml/{samlProviderId} removes it, 204 also when missing, 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const creator = await h.current.newMember(admin.organizationId, 'create');
    const p = await provider(admin);
    expect((await creator.api.delete(`/orgs/${admin.organizationId}/saml/${p.id}`)).status).toBe(403);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/saml/${p.id}`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/saml/${p.id}`)).status).toBe(404);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/saml/${p.id}`)).status).toBe(204);
  });
});

describe('SSO sign-in options', () => {
  it('get /orgs/{organizationId}/sso lists the start URLs of active providers, to any authenticated caller', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const active = await provider(admin);
    await provider(admin, { label: 'Pending' });
    const res = await outsider.api.get(`/orgs/${admin.organizationId}/sso`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [{ id: active.id, label: 'Acme Okta', startURL: active.service.startURL }] });
  });

  it('get /orgs/{organizationId}/sso lists nothing for an organization without an active provider', async () => {
    const admin = await h.current.newAdmin();
    await provider(admin, { label: 'Pending' });
    const res = await admin.api.get(`/orgs/${admin.organizationId}/sso`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [] });
  });

  it('get /orgs/{organizationId}/sso returns 404 for an unknown organization', async () => {
    const admin = await h.current.newAdmin();
    expect((await admin.api.get('/orgs/org_unknown/sso')).status).toBe(404);
  });
});
