// createIntegrationInstallationToken: the admins of the organization owning an integration stand for the
// integration (this API has no token of the integration itself), so they may mint tokens of any of its
// installations. What a token may do is decided in server/auth/installation-caller.ts.
import { and, eq } from 'drizzle-orm';
import { mintInstallationToken } from '../auth/installation-tokens.js';
import type { Ctx } from '../context.js';
import { integrationInstallations } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { administeredIntegration } from './integration-access.js';

export async function createInstallationToken(ctx: Ctx, name: string, installationId: string) {
  await administeredIntegration(ctx, name);
  const [installation] = await ctx.db
    .select({ id: integrationInstallations.id })
    .from(integrationInstallations)
    .where(and(eq(integrationInstallations.id, installationId), eq(integrationInstallations.integrationName, name)));
  const minted = installation && (await mintInstallationToken(ctx.db, installationId, ctx.now()));
  if (!minted) throw new NotFound(`Installation ${installationId} of the integration ${name} not found`);
  return { token: minted.token, expiresAt: minted.expiresAt.toISOString() };
}
