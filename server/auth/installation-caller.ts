// The access rules of a request made with an installation token (installation-tokens.ts), applied
// instead of the role-based ones (access.ts): the operation must be allowed by one of the integration's
// scopes (installation-scopes.ts; 403 naming them), and act in the installation's organization (404
// elsewhere, as for anything a caller cannot see) on a space or site the installation covers
// (`space_selection`/`site_selection` `all`, or installed on it; 403 otherwise). Within them the
// installation acts with the admin role: its scopes, not a role, are what limit it.
import type { Access } from '../../contract/access.js';
import type { Ctx, InstallationCaller } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import type { AccessDecision, AccessOptions } from './access.js';
import { readOrganizationGrant, readSpaceGrant } from './grants.js';
import { isIntegrationOwnOperation, scopesAllowing } from './installation-scopes.js';

function requireScope(installation: InstallationCaller, operationId: string) {
  if (isIntegrationOwnOperation(operationId)) return;
  const allowing = scopesAllowing(operationId);
  if (allowing.length === 0) throw new Forbidden(`An installation token cannot call ${operationId}`);
  if (!allowing.some((scope) => installation.scopes.includes(scope))) {
    throw new Forbidden(`The integration ${installation.integrationName} lacks the scope ${allowing.join(' or ')} that ${operationId} needs`);
  }
}

function requireSpaceCovered(installation: InstallationCaller, spaceId: string) {
  if (installation.spaceSelection !== 'all' && !installation.spaceIds.includes(spaceId)) {
    throw new Forbidden(`The installation ${installation.id} is not installed on the space ${spaceId}`);
  }
}

// A site of another organization is answered 404 by the handler, as for any caller.
function requireSiteCovered(installation: InstallationCaller, siteId: string) {
  if (installation.siteSelection !== 'all' && !installation.siteIds.includes(siteId)) {
    throw new Forbidden(`The installation ${installation.id} is not installed on the site ${siteId}`);
  }
}

/** The access decision for an installation's request to `operationId`. */
export async function checkInstallationAccess(
  ctx: Ctx,
  installation: InstallationCaller,
  operationId: string,
  rule: Access,
  params: Record<string, string>,
  options: AccessOptions = { spaceCounters: true },
): Promise<AccessDecision> {
  requireScope(installation, operationId);
  switch (rule.to) {
    case 'caller':
      return { grant: undefined };
    case 'organization': {
      const found = await readOrganizationGrant(ctx.db, params.organizationId, ctx.caller.userId, options.attach);
      if (!found || found.organization.id !== installation.organizationId) throw new NotFound(`Organization ${params.organizationId} not found`);
      if (params.siteId) requireSiteCovered(installation, params.siteId);
      return { grant: { organization: found.organization, role: 'admin', ...(found.attached && { attached: found.attached }) } };
    }
    case 'space': {
      const found = await readSpaceGrant(ctx.db, params.spaceId, ctx.caller.userId, options.spaceCounters, options.attach);
      if (!found || found.space.organizationId !== installation.organizationId || (found.space.deletedAt && rule.deleted !== true)) {
        if (rule.missing === 'no-content') return { noContent: true };
        throw new NotFound(`Space ${params.spaceId} not found`);
      }
      requireSpaceCovered(installation, params.spaceId);
      return { grant: { row: found.space, member: true, orgRole: 'admin', granted: null, inherited: undefined, role: 'admin', counts: found.counts, publishedOn: found.publishedOn, attached: found.attached } };
    }
    case 'collection':
      // No scope allows an operation on collections.
      throw new NotFound(`Collection ${params.collectionId} not found`);
  }
}
