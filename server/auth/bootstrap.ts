// Accounts and tokens: the first-start bootstrap and the admin CLI both go through these functions.
import { count, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiTokens, members, organizations, users } from '../db/schema/index.js';
import { whenUniqueViolation } from '../db/errors.js';
import { Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Role } from './roles.js';
import { hashToken, newToken } from './tokens.js';

/** Creates a user; throws Conflict when the email is taken. */
export async function createUser(db: Db, input: { email: string; displayName: string; photoUrl?: string }, now = new Date()) {
  const [user] = await db
    .insert(users)
    .values({ id: newId('usr', now.getTime()), email: input.email, displayName: input.displayName, photoUrl: input.photoUrl ?? null, createdAt: now })
    .returning()
    .catch(whenUniqueViolation(() => new Conflict(`A user with email ${input.email} already exists`)));
  return user;
}

/** Creates an organization with the given user as its first admin. */
export async function createOrganization(db: Db, input: { title: string; ownerId: string }, now = new Date()) {
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({
        id: newId('org', now.getTime()),
        title: input.title,
        mergeRules: { type: 'none' },
        createdAt: now,
      })
      .returning();
    await tx.insert(members).values({ organizationId: organization.id, userId: input.ownerId, role: 'admin', joinedAt: now });
    return organization;
  });
}

/** Adds a user to an organization with a role (null for a guest), or changes the role of a member. */
export async function addMember(db: Db, organizationId: string, userId: string, role: Role | null, now = new Date()) {
  await db
    .insert(members)
    .values({ organizationId, userId, role, joinedAt: now })
    .onConflictDoUpdate({ target: [members.organizationId, members.userId], set: { role } });
}

/** Issues an access token for a user and returns it: the only time it is visible. `value` fixes it (scripts). */
export async function issueToken(db: Db, userId: string, label: string, value = newToken(), now = new Date()): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new NotFound(`User ${userId} not found`);
  await db
    .insert(apiTokens)
    .values({ id: newId('tok', now.getTime()), userId, tokenHash: hashToken(value), label, createdAt: now })
    .catch(whenUniqueViolation(() => new Conflict('This token value is already in use')));
  return value;
}

export interface BootstrapResult {
  organizationId: string;
  userId: string;
  token: string;
}

/**
 * On a fresh database (no user yet): one organization, one admin user and one token, returned so the
 * caller can print the token once. Does nothing (undefined) when the database already has users.
 */
export async function bootstrapIfEmpty(db: Db, tokenValue?: string): Promise<BootstrapResult | undefined> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return undefined;
  const user = await createUser(db, { email: 'admin@localhost', displayName: 'Administrator' });
  const organization = await createOrganization(db, { title: 'My organization', ownerId: user.id });
  const token = await issueToken(db, user.id, 'bootstrap', tokenValue);
  return { organizationId: organization.id, userId: user.id, token };
}
