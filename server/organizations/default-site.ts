// The first docs site of a new organization (`createOrganization` with `withDefaultSite=true`): a space and
// an unpublished site publishing it, both named after the organization, the site made the organization's
// default content, set up from the onboarding answers; and, with `openapiUrl`, the OpenAPI specification
// `api` fetched from it in the background. Runs inside the creation's transaction: all or nothing.
import type { z } from 'zod';
import type { organizationOperations } from '../../contract/organizations.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { organizations } from '../db/schema/index.js';
import { eq } from 'drizzle-orm';
import { createSpec } from '../openapi/specs.store.js';
import { createSite, updateSite } from '../sites/sites.store.js';
import { createSpace } from '../spaces/spaces.store.js';

type Preferences = NonNullable<z.output<typeof organizationOperations.createOrganization.body>['onboardingPreferences']>;

/** Who may read the site, from the onboarding audience (the public API's SiteOnboardingAudience). */
const visibilityOf = {
  public: 'public',
  mixed: 'public',
  protected: 'visitor-auth',
  internal: 'share-link',
} as const;

export async function createDefaultSite(tx: Ctx, org: OrganizationGrant, preferences: Preferences | undefined, openapiUrl: string | undefined): Promise<void> {
  const title = org.organization.title;
  const space = await createSpace(tx, org, { title, emoji: '', editMode: 'live' });
  const site = await createSite(tx, org, { title, spaces: [space.id], ...(preferences?.audience && { visibility: visibilityOf[preferences.audience] }) });
  // Adaptive content: asked for, or implied by an audience that mixes public and signed-in readers.
  if (preferences?.audience === 'mixed' || preferences?.interests?.includes('adaptive-content')) {
    await updateSite(tx, org, site.id, { adaptiveContent: { enabled: true } });
  }
  await tx.db.update(organizations).set({ defaultContentSite: site.id }).where(eq(organizations.id, org.organization.id));
  if (openapiUrl) await createSpec(tx, org, 'api', { url: openapiUrl });
}
