// Invites by email (inviteUsersToOrganization). Each person gets a one-time join link: an
// organization_invites row with their email, whose link carries a secret of its own (only its sha256 is
// stored). The link's page (invite.routes.ts) creates a new account, joins it and hands it an access
// token; an existing account joins signed in as itself (joinOrganizationWithInvite with the invite's id,
// invite-links.store.ts), so a link seen by the inviter never signs anyone in to an account that exists.
// In an organization that enforces SSO a person without an account is added at once as an SSO member and
// signs in through its SAML provider. Decisions in docs/permissions.md ("Invitations by email").
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { inviteOperations } from '../../contract/invites.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import { addMember, issueToken } from '../auth/bootstrap.js';
import { asRole, type Role } from '../auth/roles.js';
import { hashToken } from '../auth/tokens.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { inviteCreatedUsers, members, organizationInvites, organizations, samlProviders, ssoCreatedUsers, users } from '../db/schema/index.js';
import { whenUniqueViolation } from '../db/errors.js';
import { BadRequest, Conflict } from '../errors.js';
import { newId } from '../ids.js';
import { publicBase, serviceUrls } from '../sso/service-urls.js';
import type { Urls } from '../urls.js';
import { sendInvitations, type InvitationMail } from './invite-mail.js';
import { newInviteId } from './invite-links.store.js';

type InviteBody = z.output<typeof inviteOperations.inviteUsersToOrganization.body>;
type InvitedUsers = components['schemas']['InvitedUsers'];

/** A join link works this long unless the inviter says otherwise. */
export const EMAIL_INVITE_TTL_MS = 7 * 24 * 60 * 60_000;

/** Where the join links are served (outside /v1: the invited person opens them before holding any token). */
export const JOIN_PATH = '/auth/invite';

const TOKEN_PATTERN = /^eit_[A-Za-z0-9_-]{43}$/;

/** The secret of a join link: 256 random bits, shown once (in the link), stored as its sha256. */
const newLinkToken = () => `eit_${randomBytes(32).toString('base64url')}`;

/** The join link of a secret: in the query string, which the request log never writes. */
export const joinLinkUrl = (urls: Urls, token: string) => `${publicBase(urls)}${JOIN_PATH}?token=${token}`;

/** The role asked for each distinct email (lower-cased; the last mention wins), in the order given. */
function rolesByEmail(body: InviteBody, defaultRole: Role | null): Map<string, Role | null> {
  const fallback = body.role === undefined ? defaultRole : body.role;
  const byEmail = new Map<string, Role | null>();
  for (const item of body.emails) {
    const email = (typeof item === 'string' ? item : item.email).trim().toLowerCase();
    byEmail.delete(email);
    byEmail.set(email, typeof item === 'string' ? fallback : item.role);
  }
  return byEmail;
}

/** The first SAML provider of the organization that can sign people in (as the sign-in options list them). */
async function signInProvider(ctx: Ctx, organizationId: string): Promise<string | undefined> {
  const [row] = await ctx.db
    .select({ id: samlProviders.id })
    .from(samlProviders)
    .where(and(eq(samlProviders.organizationId, organizationId), isNotNull(samlProviders.ssoUrl), isNotNull(samlProviders.entityId), isNotNull(samlProviders.certificate)))
    .orderBy(samlProviders.id)
    .limit(1);
  return row?.id;
}

/** Invites each email; see the contract and docs/permissions.md for the rules. */
export async function inviteUsers(ctx: Ctx, org: OrganizationGrant, body: InviteBody): Promise<InvitedUsers> {
  const organization = org.organization;
  const now = ctx.now();
  const expiresAt = body.expiresAt === undefined ? new Date(now.getTime() + EMAIL_INVITE_TTL_MS) : new Date(body.expiresAt);
  if (expiresAt.getTime() <= now.getTime()) throw new BadRequest('body.expiresAt: must be in the future');
  const sso = body.sso === true || organization.sso;
  const wanted = rolesByEmail(body, asRole(organization.defaultRole));
  const emails = [...wanted.keys()];
  const accounts = await ctx.db
    .select({ id: users.id, email: sql<string>`lower(${users.email})`, member: sql<boolean>`${members.userId} IS NOT NULL`, ssoOrganization: ssoCreatedUsers.organizationId })
    .from(users)
    .leftJoin(members, and(eq(members.organizationId, organization.id), eq(members.userId, users.id)))
    .leftJoin(ssoCreatedUsers, eq(ssoCreatedUsers.userId, users.id))
    .where(inArray(sql`lower(${users.email})`, emails));
  const accountOf = new Map(accounts.map((a) => [a.email, a]));
  const providerId = sso && emails.some((e) => !accountOf.has(e)) ? await signInProvider(ctx, organization.id) : undefined;
  if (sso && providerId === undefined && emails.some((e) => !accountOf.has(e))) {
    throw new BadRequest(
      `body.sso: organization ${organization.id} ${organization.sso ? 'enforces' : 'is asked for'} SSO but has no SAML provider to sign in with: configure one first`,
    );
  }

  const result: InvitedUsers & { failedSSOEmails: string[] } = { users: [], invited: 0, failedSSOEmails: [], alreadyMembers: [], invitations: [] };
  // Who gets what, decided before writing: the writes are then a few statements whatever the number of people.
  const linkRows: (typeof organizationInvites.$inferInsert)[] = [];
  const newSsoMembers: { id: string; email: string; role: Role | null }[] = [];
  for (const [email, role] of wanted) {
    const account = accountOf.get(email);
    if (account?.member) {
      result.alreadyMembers.push(email);
    } else if (account?.ssoOrganization && account.ssoOrganization !== organization.id) {
      result.failedSSOEmails.push(email);
    } else if (sso && !account) {
      const id = newId('usr', now.getTime());
      newSsoMembers.push({ id, email, role });
      result.users.push(id);
      result.invitations.push({ email, role, sso, url: serviceUrls(ctx.urls, providerId!).startURL, user: id, mail: 'off' });
    } else {
      const token = newLinkToken();
      const id = newInviteId();
      linkRows.push({ id, organizationId: organization.id, role, email, tokenHash: hashToken(token), sso, expiresAt, createdAt: now });
      result.invitations.push({ email, role, sso, url: joinLinkUrl(ctx.urls, token), invite: id, expiresAt: expiresAt.toISOString(), mail: 'off' });
    }
  }
  const invitedEmails = result.invitations.map((i) => i.email);
  if (invitedEmails.length > 0) {
    await ctx.transaction(async (tx) => {
      // A newer invite of the same person replaces the pending one: only the latest link works.
      await tx.db.delete(organizationInvites).where(and(eq(organizationInvites.organizationId, organization.id), inArray(organizationInvites.email, invitedEmails)));
      if (linkRows.length > 0) await tx.db.insert(organizationInvites).values(linkRows);
      if (newSsoMembers.length > 0) await addSsoMembers(tx.db, organization.id, newSsoMembers, now);
    });
  }
  const mails: InvitationMail[] = result.invitations.map((i) => ({
    to: i.email,
    organizationTitle: organization.title,
    role: i.role,
    url: i.url,
    sso: i.user !== undefined,
    expiresAt: i.invite ? expiresAt : undefined,
  }));
  // Mailed once the invites are stored: a mail server that fails loses no invite.
  const outcomes = await sendInvitations(mails, `no-reply@${new URL(publicBase(ctx.urls)).hostname}`, ctx.log);
  outcomes.forEach((mail, i) => (result.invitations[i].mail = mail));
  result.invited = result.invitations.length;
  ctx.log.info(
    { requestId: ctx.requestId, organizationId: organization.id, invited: result.invited, mail: outcomes.filter((o) => o === 'failed').length > 0 ? 'failed' : outcomes[0] },
    'users invited by email',
  );
  const { failedSSOEmails, ...rest } = result;
  return failedSSOEmails.length > 0 ? { ...rest, failedSSOEmails } : rest;
}

/** New accounts, SSO members of the organization, vouched for by its identity provider only (their sign-in will say who they are). */
async function addSsoMembers(db: Db, organizationId: string, people: { id: string; email: string; role: Role | null }[], now: Date): Promise<void> {
  await db
    .insert(users)
    .values(people.map((p) => ({ id: p.id, email: p.email, displayName: p.email.slice(0, p.email.indexOf('@')), createdAt: now })))
    .catch(whenUniqueViolation(() => new Conflict('An account with one of these emails was created meanwhile: invite them again')));
  await db.insert(ssoCreatedUsers).values(people.map((p) => ({ userId: p.id, organizationId, createdAt: now })));
  await db.insert(members).values(people.map((p) => ({ organizationId, userId: p.id, role: p.role, sso: true, joinedAt: now })));
}

/** What a join link's page shows: the invite, its organization, and whether an account has its email. */
export interface JoinLink {
  inviteId: string;
  organizationId: string;
  organizationTitle: string;
  email: string;
  role: Role | null;
  expiresAt: Date | null;
  accountExists: boolean;
}

/** The live invite of a join link's secret; undefined when unknown, used, revoked or expired (one answer for all). */
export async function findJoinLink(db: Db, token: unknown, now: Date): Promise<JoinLink | undefined> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ invite: organizationInvites, title: organizations.title, account: users.id })
    .from(organizationInvites)
    .innerJoin(organizations, eq(organizations.id, organizationInvites.organizationId))
    .leftJoin(users, sql`lower(${users.email}) = ${organizationInvites.email}`)
    .where(eq(organizationInvites.tokenHash, hashToken(token)));
  if (!row || (row.invite.expiresAt && row.invite.expiresAt.getTime() <= now.getTime())) return undefined;
  return {
    inviteId: row.invite.id,
    organizationId: row.invite.organizationId,
    organizationTitle: row.title,
    email: row.invite.email!,
    role: asRole(row.invite.role),
    expiresAt: row.invite.expiresAt,
    accountExists: row.account !== null,
  };
}

export interface JoinedByLink {
  token: string;
  userId: string;
  organizationId: string;
}

/**
 * Uses a join link: creates the account of its email, makes it a member with the invite's role and issues
 * it an access token, once. An account that already has the email joins signed in as itself instead (400
 * here, saying how); an organization that enforces SSO takes no account made by a link (400).
 */
export async function joinByLink(db: Db, token: unknown, now: Date): Promise<JoinedByLink> {
  const link = await findJoinLink(db, token, now);
  if (!link) throw new BadRequest('Invalid request: body.token: unknown, used, revoked or expired invitation link; ask for a new invitation');
  if (link.accountExists) {
    throw new BadRequest(
      `Invalid request: an account with the email ${link.email} exists: sign in as it and join with POST /v1/orgs/${link.organizationId}/invites/${link.inviteId}`,
    );
  }
  return db.transaction(async (txDb) => {
    const tx = txDb as unknown as Db;
    const [org] = await tx.select({ sso: organizations.sso }).from(organizations).where(eq(organizations.id, link.organizationId));
    if (org.sso) {
      throw new BadRequest(`Invalid request: organization ${link.organizationId} enforces SSO: ask its administrator to invite you again, as an SSO member`);
    }
    // Deleting the row is what makes the link one-time: a second use finds nothing.
    const [used] = await tx.delete(organizationInvites).where(eq(organizationInvites.id, link.inviteId)).returning({ id: organizationInvites.id });
    if (!used) throw new BadRequest('Invalid request: body.token: unknown, used, revoked or expired invitation link; ask for a new invitation');
    const [user] = await tx
      .insert(users)
      .values({ id: newId('usr', now.getTime()), email: link.email, displayName: link.email.slice(0, link.email.indexOf('@')), createdAt: now })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) throw new BadRequest(`Invalid request: an account with the email ${link.email} was just created: sign in as it and join with POST /v1/orgs/${link.organizationId}/invites/${link.inviteId}`);
    await tx.insert(inviteCreatedUsers).values({ userId: user.id, organizationId: link.organizationId, createdAt: now });
    await addMember(tx, link.organizationId, user.id, link.role, now);
    const accessToken = await issueToken(tx, user.id, `invitation to ${link.organizationTitle}`, undefined, now);
    return { token: accessToken, userId: user.id, organizationId: link.organizationId };
  });
}
