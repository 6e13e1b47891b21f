// The access rules of a request made with an integration token (integration-tokens.ts), applied instead of
// the role-based ones (access.ts): an integration acts on itself and its installations only, as GitBook's
// integration tokens do: reading itself, its installations and their space and site installations, their
// events, minting installation tokens, updating installations' configuration and external IDs, and queueing
// its tasks. Any
// other operation is refused (403), and one naming another integration is not found (404). Within them,
// the stores treat the integration as its own administrator (integration-access.ts,
// installation-access.ts).
import type { OperationId } from '../../generated/router.js';
import type { IntegrationCaller } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import type { AccessDecision } from './access.js';

/** What an integration token may call (every one names the integration in its path). */
export const INTEGRATION_TOKEN_OPERATIONS: ReadonlySet<OperationId> = new Set<OperationId>([
  'getIntegrationByName',
  'listIntegrationInstallations',
  'getIntegrationInstallationById',
  'updateIntegrationInstallation',
  'createIntegrationInstallationToken',
  'listIntegrationSpaceInstallations',
  'listIntegrationSiteInstallations',
  'listIntegrationInstallationSpaces',
  'listIntegrationInstallationSites',
  'getIntegrationSpaceInstallation',
  'getIntegrationSiteInstallation',
  'updateIntegrationSpaceInstallation',
  'updateIntegrationSiteInstallation',
  'listIntegrationEvents',
  'getIntegrationEvent',
  // Tasks are work the integration splits for itself (integration-tasks.ts): GitBook queues them with this token.
  'queueIntegrationTask',
]);

/** The access decision for an integration's request to `operationId` with `body`. */
export function checkIntegrationTokenAccess(integration: IntegrationCaller, operationId: string, params: Record<string, string>, body: unknown): AccessDecision {
  if (!INTEGRATION_TOKEN_OPERATIONS.has(operationId as OperationId)) throw new Forbidden(`An integration token cannot call ${operationId}`);
  if (params.integrationName !== integration.name) throw new NotFound(`Integration ${params.integrationName} not found`);
  // Which spaces and sites an installation covers is its organization's choice, not the integration's.
  if (operationId === 'updateIntegrationInstallation' && body && typeof body === 'object') {
    for (const field of ['space_selection', 'site_selection']) {
      if (field in body) throw new Forbidden(`body.${field}: an integration token cannot change which spaces and sites its installation covers`);
    }
  }
  return { grant: undefined };
}
