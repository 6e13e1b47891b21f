// What SSO changes for joining an organization by email domain (POST /v1/orgs/{id}/join):
// - an organization with `sso: true` is joined only by signing in through one of its SAML providers, so
//   its identity provider decides who gets in (and with the provider's default role and team);
// - an account a SAML sign-in created has an email that only that organization's identity provider
//   vouched for: it does not count as a verified email of that domain for any other organization.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { ssoCreatedUsers } from '../db/schema/index.js';
import { BadRequest } from '../errors.js';

export async function checkJoinByEmailDomain(db: Db, organization: { id: string; sso: boolean }, userId: string): Promise<void> {
  if (organization.sso) {
    throw new BadRequest(
      `Invalid request: organization ${organization.id} enforces SSO: join it by signing in through one of its SAML providers (GET /v1/orgs/${organization.id}/sso)`,
    );
  }
  const [created] = await db.select({ organizationId: ssoCreatedUsers.organizationId }).from(ssoCreatedUsers).where(eq(ssoCreatedUsers.userId, userId));
  if (created && created.organizationId !== organization.id) {
    throw new BadRequest("Invalid request: this account was created by another organization's SSO sign-in, so its email is not verified for joining by email domain");
  }
}
