// SAML 2.0 sign-in end to end: a stand-in identity provider (test/support/saml-idp.ts: a key and a
// certificate generated here with node:crypto, responses signed with xml-crypto) answers the AuthnRequests
// of the real app; the one-time code is exchanged for a token that then works on /v1.
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { members, samlAssertions, ssoSignInCodes, users } from '../server/db/schema/index.js';
import { readSamlSigning } from '../server/sso/signing-key.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { newIdp, newKeyPair, samlResponse, type ResponseOptions, type TestIdp } from './support/saml-idp.js';
import { recordToken } from './support/suite-log.js';

const h = useHarness();

// The SSO routes are outside the spec (like /health): they are called with supertest directly, on an app
// whose log lines the tests read.
const logLines: { msg: string; reason?: string; detail?: string }[] = [];
let app: ReturnType<typeof createApp>;
// This app's clock (requests, codes and remembered assertions expire by it); the library checks the
// assertion's own window against the machine's clock.
let clockOffsetMs = 0;
beforeAll(() => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  app = createApp({ db: h.current.db, logger, publicUrl: PUBLIC_URL, now: () => new Date(Date.now() + clockOffsetMs) });
});

const pathOf = (url: string) => url.slice(PUBLIC_URL.length);
let emails = 0;
const newEmail = () => `sso${++emails}-${Date.now()}@acme.test`;

interface Provider {
  id: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

async function createProvider(admin: Account, idp: TestIdp, extra: object = {}): Promise<Provider> {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/saml`, {
    label: 'Test IdP',
    ssoURL: idp.ssoURL,
    entityID: idp.entityID,
    certificate: idp.certificate,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Starts a sign-in as a browser would; returns the AuthnRequest's id and XML and the RelayState. */
async function start(provider: Provider, query: Record<string, string> = {}) {
  const res = await request(app).get(pathOf(provider.service.startURL)).query(query);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location);
  const xml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)![1];
  return { location, xml, id, relayState: location.searchParams.get('RelayState') };
}

/** Posts a response to the ACS URL as the browser does after the identity provider (HTTP-POST binding). */
function post(provider: Provider, samlResponseBase64: string, acsPath = pathOf(provider.service.acsURL)) {
  return request(app).post(acsPath).type('form').send({ SAMLResponse: samlResponseBase64, RelayState: 'x' });
}

function respond(idp: TestIdp, provider: Provider, email: string, options: Partial<ResponseOptions> = {}) {
  return samlResponse(idp, { acsURL: provider.service.acsURL, audience: provider.service.entityID, email, ...options });
}

/** A whole sign-in: start, the identity provider's signed answer, the code exchanged for a token. */
async function signIn(idp: TestIdp, provider: Provider, email: string, query: Record<string, string> = {}, options: Partial<ResponseOptions> = {}) {
  const started = await start(provider, query);
  const acs = await post(provider, respond(idp, provider, email, { inResponseTo: started.id, ...options }));
  expect(acs.status).toBe(303);
  const landing = new URL(acs.headers.location);
  const code = landing.searchParams.get('code')!;
  const exchanged = await request(app).post('/auth/saml/token').send({ code });
  expect(exchanged.status).toBe(200);
  recordToken(exchanged.body.token);
  return { landing, code, token: exchanged.body.token as string, userId: exchanged.body.userId as string, started };
}

async function refusal(res: request.Response, status: number, reason: string) {
  expect(res.status).toBe(status);
  expect(res.headers.location).toBeUndefined();
  expect(res.body.error.code).toBe(status);
  const line = [...logLines].reverse().find((l) => l.msg === 'SAML sign-in refused');
  expect(line?.reason).toBe(reason);
}

async function userIdOf(email: string): Promise<string | undefined> {
  const [row] = await h.current.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row?.id;
}

describe('SAML sign-in: start and metadata', () => {
  it('the start URL redirects to the provider with an AuthnRequest for our ACS URL and the request id as RelayState', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    expect(provider.service.startURL).toBe(`${PUBLIC_URL}/auth/saml/${provider.id}/start`);
    const { location, xml, id, relayState } = await start(provider);
    expect(`${location.origin}${location.pathname}`).toBe(idp.ssoURL);
    expect(xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(xml).toContain(`Destination="${idp.ssoURL}"`);
    expect(xml).toContain(`>${provider.service.entityID}</saml:Issuer>`);
    expect(relayState).toBe(id);
    // Not signed: no key is configured for this app.
    expect(location.searchParams.get('Signature')).toBeNull();
    // The sign-in options hand out the same, answering, start URL.
    const options = await admin.api.get(`/orgs/${admin.organizationId}/sso`);
    expect(options.body.items[0].startURL).toBe(provider.service.startURL);
  });

  it('signs the AuthnRequest (HTTP-Redirect binding, RSA-SHA256) when a key is configured, and the metadata says so', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const signing = newKeyPair();
    const signingApp = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, samlSigning: signing });
    const res = await request(signingApp).get(pathOf(provider.service.startURL));
    expect(res.status).toBe(302);
    const query = new URL(res.headers.location).search.slice(1);
    const params = new URLSearchParams(query);
    expect(params.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    // The signed octets are the query without the Signature, in the order SAMLRequest, RelayState, SigAlg.
    const signed = query.split('&').filter((p) => !p.startsWith('Signature=')).join('&');
    const ok = verify('sha256', Buffer.from(signed), createPublicKey(signing.certificate), Buffer.from(params.get('Signature')!, 'base64'));
    expect(ok).toBe(true);
    const metadata = await request(signingApp).get(pathOf(provider.service.entityID));
    expect(metadata.status).toBe(200);
    expect(metadata.text).toContain('AuthnRequestsSigned="true"');
    expect(metadata.text).toContain(signing.certificate.split('\n')[1]);
  });

  it('the entity id serves this service metadata (entity id, ACS URL with the HTTP-POST binding), also for a pending provider', async () => {
    const admin = await h.current.newAdmin();
    const provider = await createProvider(admin, newIdp());
    const res = await request(app).get(pathOf(provider.service.entityID));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(res.text).toContain(`entityID="${provider.service.entityID}"`);
    expect(res.text).toMatch(new RegExp(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${provider.service.acsURL}"`));
    const pending = (await admin.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'Later' })).body as Provider;
    expect((await request(app).get(pathOf(pending.service.entityID))).status).toBe(200);
    expect((await request(app).get('/auth/saml/sml_unknown/metadata')).status).toBe(404);
  });

  it('start refuses an unknown provider (404), a pending one (403) and a returnTo on another origin (400)', async () => {
    const admin = await h.current.newAdmin();
    const provider = await createProvider(admin, newIdp());
    await refusal(await request(app).get('/auth/saml/sml_unknown/start'), 404, 'unknown-provider');
    const pending = (await admin.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'Later' })).body as Provider;
    await refusal(await request(app).get(pathOf(pending.service.startURL)), 403, 'provider-not-active');
    const evil = await request(app).get(pathOf(provider.service.startURL)).query({ returnTo: 'https://evil.example/steal' });
    await refusal(evil, 400, 'bad-return-to');
    expect(evil.body.error.message).toContain('query.returnTo');
  });
});

describe('SAML sign-in: first and later sign-ins', () => {
  it('the first sign-in creates the user, adds them with the default role and team, and hands over a one-time code', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const team = await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title: 'Newcomers' });
    expect(team.status).toBe(201);
    const provider = await createProvider(admin, idp, { defaultRole: 'edit', defaultTeam: team.body.id });
    const email = newEmail();
    expect(await userIdOf(email)).toBeUndefined();

    const { landing, code, token, userId } = await signIn(idp, provider, email, {}, { attributes: { displayName: 'Grace Hopper' } });
    // Back on this server's own page, which answers and shows the code; the URL holds no token.
    expect(`${landing.origin}${landing.pathname}`).toBe(`${PUBLIC_URL}/auth/saml/signed-in`);
    expect([...landing.searchParams.keys()]).toEqual(['code']);
    const page = await request(app).get(pathOf(landing.toString()));
    expect(page.status).toBe(200);
    expect(page.text).toContain(code);
    expect(token).toMatch(/^dwt_/);
    expect(landing.toString()).not.toContain(token);

    expect(await userIdOf(email)).toBe(userId);
    const me = await request(h.current.app).get('/v1/user').set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: userId, email, displayName: 'Grace Hopper' });
    const member = await admin.api.get(`/orgs/${admin.organizationId}/members/${userId}`);
    expect(member.status).toBe(200);
    expect(member.body).toMatchObject({ role: 'edit', sso: true });
    const teams = await admin.api.get(`/orgs/${admin.organizationId}/members/${userId}/teams`);
    expect(teams.status).toBe(200);
    expect(teams.body.items.map((t: { team: { id: string }; member: { role: string } }) => [t.team.id, t.member.role])).toEqual([[team.body.id, 'member']]);
    // The new member works in the organization with their token.
    const asMember = await request(h.current.app).get(`/v1/orgs/${admin.organizationId}/members/${admin.userId}`).set('Authorization', `Bearer ${token}`);
    expect(asMember.status).toBe(200);

    // The code is good once.
    const again = await request(app).post('/auth/saml/token').send({ code });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('body.code');
    expect((await h.current.db.select().from(ssoSignInCodes).where(eq(ssoSignInCodes.userId, userId))).length).toBe(0);
  });

  it('a later sign-in keeps the role an administrator gave, and comes back to the returnTo of its start URL', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp, { defaultRole: 'read' });
    const email = newEmail();
    const first = await signIn(idp, provider, email);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/members/${first.userId}`)).body.role).toBe('read');
    const promoted = await admin.api.patch(`/orgs/${admin.organizationId}/members/${first.userId}`, { role: 'review' });
    expect(promoted.status).toBe(200);

    const returnTo = `${PUBLIC_URL}/app/after-sign-in?tab=spaces`;
    const second = await signIn(idp, provider, email.toUpperCase(), { returnTo });
    expect(second.userId).toBe(first.userId);
    expect(second.landing.toString()).toBe(`${returnTo}&code=${encodeURIComponent(second.code)}`);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/members/${first.userId}`)).body.role).toBe('review');
    expect(second.token).not.toBe(first.token);
  });

  it('without a provider defaultRole the organization default role applies; a whole signed Response is accepted too', async () => {
    const admin = await h.current.newAdmin();
    const org = await admin.api.patch(`/orgs/${admin.organizationId}`, { defaultRole: 'comment' });
    expect(org.status).toBe(200);
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const { userId } = await signIn(idp, provider, newEmail(), {}, { sign: 'response' });
    expect((await admin.api.get(`/orgs/${admin.organizationId}/members/${userId}`)).body.role).toBe('comment');
  });

  it('an existing account that is not a member is not taken over (403); a disabled member is refused (403)', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const outsider = await h.current.newAdmin();
    const [outsiderUser] = await h.current.db.select({ email: users.email }).from(users).where(eq(users.id, outsider.userId));
    const started = await start(provider);
    await refusal(await post(provider, respond(idp, provider, outsiderUser.email, { inResponseTo: started.id })), 403, 'not-a-member');

    const email = newEmail();
    const { userId } = await signIn(idp, provider, email);
    await h.current.db.update(members).set({ disabled: true }).where(and(eq(members.organizationId, admin.organizationId), eq(members.userId, userId)));
    const next = await start(provider);
    await refusal(await post(provider, respond(idp, provider, email, { inResponseTo: next.id })), 403, 'member-disabled');
  });
});

describe('SAML sign-in: refusals let nobody in', () => {
  /** Posts `response` and checks the refusal, that no user has `email`, and that no code was handed out. */
  async function refused(provider: Provider, email: string, response: string, status: number, reason: string) {
    const codesBefore = (await h.current.db.select().from(ssoSignInCodes)).length;
    await refusal(await post(provider, response), status, reason);
    expect(await userIdOf(email)).toBeUndefined();
    expect((await h.current.db.select().from(ssoSignInCodes)).length).toBe(codesBefore);
  }

  it('refuses an unsigned response, one signed with another key, and one issued by another entity', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const email = newEmail();
    const s1 = await start(provider);
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s1.id, sign: 'none' }), 401, 'bad-signature');
    const s2 = await start(provider);
    const impostor = newIdp();
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s2.id, signWith: impostor.privateKey }), 401, 'bad-signature');
    const s3 = await start(provider);
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s3.id, issuer: 'https://other.example/entity' }), 401, 'wrong-issuer');
  });

  it('refuses an expired response, one not yet valid, one for another audience and one for another recipient', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const email = newEmail();
    const past = new Date(Date.now() - 10 * 60_000);
    const s1 = await start(provider);
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s1.id, notBefore: new Date(Date.now() - 20 * 60_000), notOnOrAfter: past }), 401, 'expired');
    const s2 = await start(provider);
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s2.id, notBefore: new Date(Date.now() + 10 * 60_000) }), 401, 'expired');
    const s3 = await start(provider);
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s3.id, audience: 'https://someone-else.example/sp' }), 401, 'wrong-audience');
    const s4 = await start(provider);
    await refused(provider, email, respond(idp, provider, email, { inResponseTo: s4.id, recipient: `${PUBLIC_URL}/auth/saml/sml_other/acs` }), 401, 'wrong-recipient');
  });

  it('accepts a response within the clock skew (issued a few seconds "in the future")', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const { userId } = await signIn(idp, provider, newEmail(), {}, { notBefore: new Date(Date.now() + 20_000) });
    expect(userId).toMatch(/^usr_/);
  });

  it('refuses a replayed response, an unsolicited (IdP-initiated) one, and one answering an unknown request', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const email = newEmail();
    const started = await start(provider);
    const response = respond(idp, provider, email, { inResponseTo: started.id });
    const first = await post(provider, response);
    expect(first.status).toBe(303);
    const [remembered] = await h.current.db.select().from(samlAssertions).where(eq(samlAssertions.providerId, provider.id));
    expect(remembered.expiresAt.getTime()).toBeGreaterThan(Date.now());
    await refusal(await post(provider, response), 401, 'replayed');

    const other = newEmail();
    await refused(provider, other, respond(idp, provider, other), 401, 'unsolicited');
    await refused(provider, other, respond(idp, provider, other, { inResponseTo: '_never-sent' }), 401, 'unknown-request');
    // A request of another provider is not an answer for this one.
    const second = await createProvider(admin, idp);
    const elsewhere = await start(second);
    await refused(provider, other, respond(idp, provider, other, { inResponseTo: elsewhere.id }), 401, 'unknown-request');
  });

  it('refuses an unknown provider (404), a provider made pending again (403), and a post without SAMLResponse (400)', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const email = newEmail();
    const started = await start(provider);
    const response = respond(idp, provider, email, { inResponseTo: started.id });
    await refusal(await post(provider, response, '/auth/saml/sml_unknown/acs'), 404, 'unknown-provider');
    const deleted = await createProvider(admin, idp);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/saml/${deleted.id}`)).status).toBe(204);
    await refusal(await post(deleted, response), 404, 'unknown-provider');
    await refusal(await request(app).post(pathOf(provider.service.acsURL)).type('form').send({ RelayState: 'x' }), 400, 'malformed-request');
    // A provider whose settings are incomplete cannot be used (the API cannot unset a field: this is the storage's state).
    const pending = (await admin.api.post(`/orgs/${admin.organizationId}/saml`, { label: 'Half', ssoURL: idp.ssoURL, entityID: idp.entityID })).body as Provider;
    await refusal(await post(pending, response), 403, 'provider-not-active');
    expect(await userIdOf(email)).toBeUndefined();
  });

  it('of two posts of one response at the same time, exactly one signs in', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const started = await start(provider);
    const response = respond(idp, provider, newEmail(), { inResponseTo: started.id });
    const answers = await Promise.all([post(provider, response), post(provider, response)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 401]);
  });

  it('refuses a response to a request started more than 10 minutes ago, and a code older than 2 minutes', async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const email = newEmail();
    const started = await start(provider);
    clockOffsetMs = 11 * 60_000;
    try {
      await refusal(await post(provider, respond(idp, provider, email, { inResponseTo: started.id })), 401, 'unknown-request');
    } finally {
      clockOffsetMs = 0;
    }
    const fresh = await start(provider);
    const acs = await post(provider, respond(idp, provider, email, { inResponseTo: fresh.id }));
    expect(acs.status).toBe(303);
    const code = new URL(acs.headers.location).searchParams.get('code');
    clockOffsetMs = 3 * 60_000;
    try {
      const late = await request(app).post('/auth/saml/token').send({ code });
      expect(late.status).toBe(400);
      expect(late.body.error.message).toContain('expired');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('the token exchange refuses a missing or made-up code (400)', async () => {
    const missing = await request(app).post('/auth/saml/token').send({});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.code');
    const madeUp = await request(app).post('/auth/saml/token').type('form').send({ code: `ssc_${'A'.repeat(43)}` });
    expect(madeUp.status).toBe(400);
    const page = await request(app).get('/auth/saml/signed-in');
    expect(page.status).toBe(400);
  });
});

describe('SAML request signing key (SAML_SIGNING_KEY_FILE, SAML_SIGNING_CERT_FILE)', () => {
  it('is read from its files at start, and a key that does not match its certificate stops the start', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'saml-key-'));
    const pair = newKeyPair();
    const other = newKeyPair();
    writeFileSync(path.join(dir, 'key.pem'), pair.privateKey);
    writeFileSync(path.join(dir, 'cert.pem'), pair.certificate);
    writeFileSync(path.join(dir, 'other.pem'), other.certificate);
    expect(readSamlSigning({ keyFile: path.join(dir, 'key.pem'), certFile: path.join(dir, 'cert.pem') }).certificate).toBe(pair.certificate);
    expect(() => readSamlSigning({ keyFile: path.join(dir, 'key.pem'), certFile: path.join(dir, 'other.pem') })).toThrow(/does not match/);
    expect(() => readSamlSigning({ keyFile: path.join(dir, 'missing.pem'), certFile: path.join(dir, 'cert.pem') })).toThrow(/SAML_SIGNING_KEY_FILE/);
    expect(() => loadConfig({ SAML_SIGNING_KEY_FILE: path.join(dir, 'key.pem') })).toThrow(/SAML_SIGNING_CERT_FILE/);
    expect(loadConfig({ SAML_SIGNING_KEY_FILE: 'k.pem', SAML_SIGNING_CERT_FILE: 'c.pem' }).samlSigning).toEqual({ keyFile: 'k.pem', certFile: 'c.pem' });
  });
});

describe('what SSO enforces on joining by email domain', () => {
  it('an organization with sso true is joined only through its providers; without it the same person joins by domain', async () => {
    const admin = await h.current.newAdmin();
    const person = await h.current.newAdmin(); // harness users have @example.com emails
    const enforced = await admin.api.patch(`/orgs/${admin.organizationId}`, { emailDomains: ['example.com'], sso: true });
    expect(enforced.status).toBe(200);
    expect(enforced.body.sso).toBe(true);
    const refused = await person.api.post(`/orgs/${admin.organizationId}/join`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('enforces SSO');
    expect((await admin.api.get(`/orgs/${admin.organizationId}/members/${person.userId}`)).status).toBe(404);
    expect((await admin.api.patch(`/orgs/${admin.organizationId}`, { sso: false })).status).toBe(200);
    expect((await person.api.post(`/orgs/${admin.organizationId}/join`)).status).toBe(204);
  });

  it("an account created by one organization's SSO does not join another organization by email domain", async () => {
    const admin = await h.current.newAdmin();
    const idp = newIdp();
    const provider = await createProvider(admin, idp);
    const email = newEmail(); // @acme.test
    const { token } = await signIn(idp, provider, email);
    const other = await h.current.newAdmin();
    expect((await other.api.patch(`/orgs/${other.organizationId}`, { emailDomains: ['acme.test'] })).status).toBe(200);
    const joined = await request(h.current.app).post(`/v1/orgs/${other.organizationId}/join`).set('Authorization', `Bearer ${token}`);
    expect(joined.status).toBe(400);
    expect(joined.body.error.message).toContain("another organization's SSO");
  });
});
