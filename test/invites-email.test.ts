// Invitations by email (inviteUsersToOrganization), against a local SMTP server the test starts: the mail
// arrives with the one-time join link, the link works once (a new account, a member with the invite's role,
// an access token), an existing account joins signed in as itself, links are revoked and expire, a failing
// mail server loses no invite, SSO enforcement and the email-domain rules hold, and no log line carries a
// link's secret.
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../server/app.js';
import { samlProviders, ssoCreatedUsers } from '../server/db/schema/index.js';
import { createUser } from '../server/auth/bootstrap.js';
import { apiClient } from './support/api.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { recordToken } from './support/suite-log.js';

const h = useHarness();

interface Mail {
  to: string;
  text: string;
}
const inbox: Mail[] = [];
let smtp: SMTPServer;
let smtpPort = 0;

/** The text of a raw message: headers dropped, quoted-printable undone (nodemailer's default for text). */
function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'], // a plain local server: no certificate to trust
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, text: bodyOf(Buffer.concat(chunks).toString('utf8')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
afterEach(() => {
  delete process.env.SMTP_URL;
  inbox.length = 0;
});

const email = (name: string) => `${name}-${randomBytes(3).toString('hex')}@example.com`;
const linkIn = (text: string) => /https:\/\/api\.test\.example\/auth\/invite\?token=eit_[A-Za-z0-9_-]{43}/.exec(text)?.[0];
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

describe('invitations by email', () => {
  it('mails a one-time join link that makes a new account a member with the invite role', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const ada = email('ada');
    const invited = await admin.api.post(`/orgs/${org}/invites`, { emails: [{ email: ada.toUpperCase(), role: 'edit' }], role: 'read' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ users: [], invited: 1, alreadyMembers: [] });
    const [invitation] = invited.body.invitations;
    expect(invitation).toMatchObject({ email: ada, role: 'edit', sso: false, mail: 'sent', invite: expect.stringMatching(/^inv_/) });
    recordToken(tokenOf(invitation.url));

    // The mail arrived with the same link.
    expect(inbox.map((m) => m.to)).toEqual([ada]);
    expect(linkIn(inbox[0].text)).toBe(invitation.url);
    expect(inbox[0].text).toContain('edit');

    // The invite is listed with its email; the link's page shows it without using it.
    const listed = await admin.api.get(`/orgs/${org}/link-invites`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: invitation.invite, email: ada, role: 'edit' })]);
    const shown = await request(h.current.app).get(pathOf(invitation.url));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Accept');
    expect(shown.headers['cache-control']).toBe('no-store');

    // Used: a new account, a member with the invite's role, whose token works.
    const joined = await request(h.current.app).post('/auth/invite').send({ token: tokenOf(invitation.url) });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ object: 'invite-token', organizationId: org, token: expect.stringMatching(/^dwt_/) });
    recordToken(joined.body.token);
    const me = await apiClient(h.current.app, joined.body.token).get('/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ada);
    const member = await admin.api.get(`/orgs/${org}/members/${joined.body.userId}`);
    expect(member.status).toBe(200);
    expect(member.body.role).toBe('edit');

    // Once: the link is gone.
    expect((await request(h.current.app).post('/auth/invite').send({ token: tokenOf(invitation.url) })).status).toBe(400);
    expect((await request(h.current.app).get(pathOf(invitation.url))).status).toBe(404);
    expect((await admin.api.get(`/orgs/${org}/link-invites`)).body.count).toBe(0);
    // Inviting a member again invites nobody.
    const again = await admin.api.post(`/orgs/${org}/invites`, { emails: [ada] });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ invited: 0, alreadyMembers: [ada], invitations: [] });
  });

  it('lets an existing account join signed in as itself, not through the link, and only that account', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const existing = await h.current.newAdmin();
    const stranger = await h.current.newAdmin();
    const me = (await existing.api.get('/user')).body.email as string;
    const invited = await admin.api.post(`/orgs/${org}/invites`, { emails: [me], role: 'comment' });
    expect(invited.status).toBe(200);
    const [invitation] = invited.body.invitations;
    expect(invitation.mail).toBe('off'); // no SMTP_URL
    recordToken(tokenOf(invitation.url));

    // The link never hands out a token for an account that exists (the inviter saw the link too).
    const page = await request(h.current.app).get(pathOf(invitation.url));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`/v1/orgs/${org}/invites/${invitation.invite}`);
    const refused = await request(h.current.app).post('/auth/invite').send({ token: tokenOf(invitation.url) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('sign in');

    expect((await stranger.api.post(`/orgs/${org}/invites/${invitation.invite}`)).status).toBe(400);
    expect((await existing.api.post(`/orgs/${org}/invites/${invitation.invite}`)).status).toBe(200);
    expect((await admin.api.get(`/orgs/${org}/members/${existing.userId}`)).body.role).toBe('comment');
    expect((await existing.api.post(`/orgs/${org}/invites/${invitation.invite}`)).status).toBe(404);
  });

  it('revokes and expires join links, and works whatever inviteLinks says', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    expect((await admin.api.patch(`/orgs/${org}`, { inviteLinks: false })).status).toBe(200);
    const revoked = (await admin.api.post(`/orgs/${org}/invites`, { emails: [email('rev')] })).body.invitations[0];
    expect((await admin.api.delete(`/orgs/${org}/link-invites/${revoked.invite}`)).status).toBe(204);
    expect((await request(h.current.app).post('/auth/invite').send({ token: tokenOf(revoked.url) })).status).toBe(400);

    const soon = new Date(Date.now() + 60_000).toISOString();
    const expiring = await admin.api.post(`/orgs/${org}/invites`, { emails: [email('exp')], expiresAt: soon });
    expect(expiring.status).toBe(200);
    expect(expiring.body.invitations[0].expiresAt).toBe(soon);
    const kept = (await admin.api.post(`/orgs/${org}/invites`, { emails: [email('kept')], role: null })).body.invitations[0];
    h.current.advanceClock(120_000);
    expect((await request(h.current.app).post('/auth/invite').send({ token: tokenOf(expiring.body.invitations[0].url) })).status).toBe(400);
    // Another link, still live: a guest (role null), although the organization takes no invite links.
    const joined = await request(h.current.app).post('/auth/invite').type('form').send({ token: tokenOf(kept.url) });
    expect(joined.status).toBe(200);
    expect(joined.text).toContain('dwt_');
    const listed = await admin.api.get(`/orgs/${org}/members`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((m: { user: { email: string }; role: string | null }) => [m.user.email, m.role])).toContainEqual([kept.email, null]);
    expect(listed.body.count).toBe(2);

    expect((await admin.api.post(`/orgs/${org}/invites`, { emails: [email('past')], expiresAt: '2000-01-01T00:00:00.000Z' })).status).toBe(400);
    const bad = await admin.api.post(`/orgs/${org}/invites`, { emails: ['not-an-email'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('emails');
  });

  it('keeps the invite and its link when the mail server fails, and never logs the secret', async () => {
    // A mail server that hangs up on every connection. (A port closed again after listening could be taken
    // by another test's server meanwhile, which would leave the mail waiting for a greeting.)
    const closed = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    onTestFinished(() => new Promise<void>((resolve) => closed.close(() => resolve())));
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;

    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const app = createApp({ db: h.current.db, logger, publicUrl: PUBLIC_URL });
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const invited = await apiClient(app, admin.token).post(`/orgs/${org}/invites`, { emails: [email('a'), email('b')] });
    expect(invited.status).toBe(200);
    expect(invited.body.invitations.map((i: { mail: string }) => i.mail)).toEqual(['failed', 'failed']);
    const token = tokenOf(invited.body.invitations[0].url);
    recordToken(token);
    expect((await apiClient(app, admin.token).get(`/orgs/${org}/link-invites`)).body.count).toBe(2);
    expect((await request(app).get(`/auth/invite?token=${token}`)).status).toBe(200);
    const joined = await request(app).post('/auth/invite').send({ token });
    expect(joined.status).toBe(200);
    recordToken(joined.body.token);
    expect(lines.some((l) => l.includes('invitation mail failed'))).toBe(true);
    expect(lines.some((l) => l.includes('/auth/invite'))).toBe(true); // the page and the join were logged…
    expect(lines.filter((l) => l.includes(token.slice(4)))).toEqual([]); // …without the secret
  });

  it('adds new people at once as SSO members where the organization enforces SSO', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const pending = (await admin.api.post(`/orgs/${org}/invites`, { emails: [email('before')] })).body.invitations[0];
    recordToken(tokenOf(pending.url));
    expect((await admin.api.patch(`/orgs/${org}`, { sso: true })).status).toBe(200);
    // No SAML provider: nobody new could sign in.
    const none = await admin.api.post(`/orgs/${org}/invites`, { emails: [email('nobody')] });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('body.sso');
    // A link handed out before SSO was enforced makes no account now.
    const late = await request(h.current.app).post('/auth/invite').send({ token: tokenOf(pending.url) });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain('SSO');

    await h.current.db.insert(samlProviders).values({
      id: `sml_${randomBytes(6).toString('hex')}`,
      organizationId: org,
      label: 'Corporate IdP',
      ssoUrl: 'https://idp.example.com/sso',
      entityId: 'https://idp.example.com',
      certificate: 'MIIB',
      createdAt: new Date(),
    });
    // An account another organization's SSO created belongs to that identity provider: not invited.
    const elsewhere = await h.current.newAdmin();
    const theirs = await createUser(h.current.db, { email: email('theirs'), displayName: 'Theirs' });
    await h.current.db.insert(ssoCreatedUsers).values({ userId: theirs.id, organizationId: elsewhere.organizationId, createdAt: new Date() });
    const grace = email('grace');
    const invited = await admin.api.post(`/orgs/${org}/invites`, { emails: [grace, theirs.email], role: 'review' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ invited: 1, failedSSOEmails: [theirs.email] });
    const [invitation] = invited.body.invitations;
    expect(invitation).toMatchObject({ email: grace, sso: true, role: 'review', mail: 'sent', user: invited.body.users[0] });
    expect(invitation.url).toMatch(new RegExp(`^${PUBLIC_URL}/auth/saml/sml_[0-9a-f]+/start$`));
    expect(inbox.find((m) => m.to === grace)?.text).toContain(invitation.url);
    const member = await admin.api.get(`/orgs/${org}/members/${invitation.user}`);
    expect(member.status).toBe(200);
    expect(member.body).toMatchObject({ role: 'review', sso: true });
    // The sign-in URL answers (it sends the browser to the identity provider).
    expect((await request(h.current.app).get(pathOf(invitation.url))).status).toBe(302);

    // An existing account gets a link and, joining signed in as itself, becomes an SSO member.
    const existing = await h.current.newAdmin();
    const mine = (await existing.api.get('/user')).body.email as string;
    const linked = await admin.api.post(`/orgs/${org}/invites`, { emails: [mine], role: 'comment' });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ users: [], invited: 1 });
    expect(linked.body.invitations[0]).toMatchObject({ sso: true, invite: expect.stringMatching(/^inv_/) });
    recordToken(tokenOf(linked.body.invitations[0].url));
    expect((await existing.api.post(`/orgs/${org}/invites/${linked.body.invitations[0].invite}`)).status).toBe(200);
    expect((await admin.api.get(`/orgs/${org}/members/${existing.userId}`)).body).toMatchObject({ role: 'comment', sso: true });
  });

  it('does not let an account made by an invitation join another organization by its email domain', async () => {
    const inviter = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    expect((await other.api.patch(`/orgs/${other.organizationId}`, { emailDomains: ['example.com'] })).status).toBe(200);
    const invitation = (await inviter.api.post(`/orgs/${inviter.organizationId}/invites`, { emails: [email('dom')] })).body.invitations[0];
    recordToken(tokenOf(invitation.url));
    const joined = await request(h.current.app).post('/auth/invite').send({ token: tokenOf(invitation.url) });
    expect(joined.status).toBe(200);
    recordToken(joined.body.token);
    const byDomain = await apiClient(h.current.app, joined.body.token).post(`/orgs/${other.organizationId}/join`);
    expect(byDomain.status).toBe(400);
    expect(byDomain.body.error.message).toContain('invitation');
    // An account of the domain that no invitation created still joins by domain.
    const native = await h.current.newAdmin();
    expect((await native.api.post(`/orgs/${other.organizationId}/join`)).status).toBe(204);
  });
});
