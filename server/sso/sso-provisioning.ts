// Who a valid SAML assertion signs in: the user with its email, added to the organization on the first
// sign-in with the provider's default role and team. Later sign-ins keep the member's role.
//
// An account that already exists and is not a member of the organization is NOT taken over by an identity
// provider: a user's token works in every organization of that user, so an organization's own identity
// provider could otherwise sign in as anyone whose email it asserts. Such a person is added by an
// administrator first (invite link), then signs in with SSO.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { members, organizations, ssoCreatedUsers, teamMembers, users } from '../db/schema/index.js';
import { newId } from '../ids.js';
import type { ActiveProvider } from './saml-settings.js';
import { SignInRefused } from './sign-in-refused.js';

export interface Provisioned {
  userId: string;
  role: string | null;
  /** The sign-in added the person to the organization. */
  joined: boolean;
}

async function userByEmail(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row?.id;
}

/** The user with `email`, created when nobody has it (created: true, recorded as created by this organization's SSO). */
async function findOrCreateUser(db: Db, organizationId: string, email: string, displayName: string, now: Date): Promise<{ id: string; created: boolean }> {
  const existing = await userByEmail(db, email);
  if (existing) return { id: existing, created: false };
  const [created] = await db
    .insert(users)
    .values({ id: newId('usr', now.getTime()), email, displayName, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (created) {
    await db.insert(ssoCreatedUsers).values({ userId: created.id, organizationId, createdAt: now });
    return { id: created.id, created: true };
  }
  // Created by a concurrent sign-in of the same email in the meantime.
  const raced = await userByEmail(db, email);
  if (!raced) throw new Error(`user ${email} neither created nor found`);
  return { id: raced, created: false };
}

/** Signs `email` in to the provider's organization (run inside the sign-in's transaction). */
export async function provisionMember(db: Db, provider: ActiveProvider, email: string, displayName: string, now: Date): Promise<Provisioned> {
  const user = await findOrCreateUser(db, provider.organizationId, email, displayName, now);
  const [member] = await db
    .select({ role: members.role, disabled: members.disabled })
    .from(members)
    .where(and(eq(members.organizationId, provider.organizationId), eq(members.userId, user.id)));
  if (member) {
    if (member.disabled) throw new SignInRefused(403, 'member-disabled', 'Your membership of this organization is disabled');
    await db
      .update(members)
      .set({ sso: true, lastSeenAt: now })
      .where(and(eq(members.organizationId, provider.organizationId), eq(members.userId, user.id)));
    return { userId: user.id, role: member.role, joined: false };
  }
  if (!user.created) {
    throw new SignInRefused(
      403,
      'not-a-member',
      'An account with this email already exists and is not a member of this organization: an administrator must add it before it can sign in with SSO',
    );
  }
  const [organization] = await db.select({ defaultRole: organizations.defaultRole }).from(organizations).where(eq(organizations.id, provider.organizationId));
  const role = provider.defaultRoleSet ? provider.defaultRole : (organization?.defaultRole ?? null);
  await db.insert(members).values({ organizationId: provider.organizationId, userId: user.id, role, sso: true, joinedAt: now, lastSeenAt: now });
  if (provider.defaultTeamId !== null) {
    await db
      .insert(teamMembers)
      .values({ teamId: provider.defaultTeamId, organizationId: provider.organizationId, userId: user.id, role: 'member', createdAt: now })
      .onConflictDoNothing();
  }
  return { userId: user.id, role, joined: true };
}
