// What SSO changes for joining an organization by email domain (POST /v1/orgs/{id}/join):
// - an organization with `sso: true` is joined only by signing in through one of its SAML providers, so
//   its identity provider decides who gets in (and with the provider's default role and team);
// - an account a SAML sign-in created has an email that only that organization's identity provider
//   vouched for: it does not count as a verified email of that domain for any other organization.
// - so does an account an organization's invitation by email created (its join link was shown to that
//   organization's admin too), for joining another organization by email domain (not by invite).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { inviteCreatedUsers, ssoCreatedUsers, users } from '../db/schema/index.js';
import { BadRequest } from '../errors.js';

export async function checkJoinByEmailDomain(db: Db, organization: { id: string; sso: boolean }, userId: string, viaInvite = false): Promise<void> {
  if (organization.sso) {
    throw new BadRequest(
      `Invalid request: organization ${organization.id} enforces SSO: join it by signing in through one of its SAML providers (GET /v1/orgs/${organization.id}/sso)`,
    );
  }
  const [created] = await db
    .select({ bySso: ssoCreatedUsers.organizationId, byInvite: inviteCreatedUsers.organizationId })
    .from(users)
    .leftJoin(ssoCreatedUsers, eq(ssoCreatedUsers.userId, users.id))
    .leftJoin(inviteCreatedUsers, eq(inviteCreatedUsers.userId, users.id))
    .where(eq(users.id, userId));
  if (created?.bySso && created.bySso !== organization.id) {
    throw new BadRequest("Invalid request: this account was created by another organization's SSO sign-in, so its email is not verified for joining by email domain");
  }
  if (!viaInvite && created?.byInvite && created.byInvite !== organization.id) {
    throw new BadRequest("Invalid request: this account was created by another organization's invitation, so its email is not verified for joining by email domain");
  }
}
