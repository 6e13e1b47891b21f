// What each integration scope lets an installation token do: the operations it allows. A token of an
// installation may call an operation only when the integration asks for one of the scopes allowing it
// (403 naming them otherwise), and only on the organization, spaces and sites the installation covers
// (installation-caller.ts). Scopes about things this API does not serve (git sync, page feedback, site
// views, scripts and visitor authentication of published sites) allow no operation here.
import type { integrationScopes } from '../../contract/integration-schemas.js';
import type { OperationId } from '../../generated/router.js';

export type IntegrationScope = (typeof integrationScopes)[number];

export const scopeOperations: Record<IntegrationScope, readonly OperationId[]> = {
  'space:metadata:read': ['getSpaceById'],
  'space:metadata:write': ['updateSpaceById'],
  'space:content:read': [
    'getCurrentRevision',
    'listPages',
    'getPageById',
    'listFiles',
    'getFileById',
    'listSpaceFileBacklinks',
    'listSpacePageLinks',
    'listSpacePageBacklinks',
    'listSpaceLinks',
    'searchSpaceContent',
    'listChangeRequestsForSpace',
    'getChangeRequestById',
    'getRevisionOfChangeRequestById',
    'listPagesInChangeRequest',
    'getPageInChangeRequestById',
    'listFilesInChangeRequestById',
    'getFileInChangeRequestById',
  ],
  'space:content:write': ['createChangeRequest', 'updateChangeRequestById', 'updateChangeRequestContent', 'updateChangeRequest', 'mergeChangeRequest'],
  'space:git:sync': [],
  'page:feedback:read': [],
  'site:metadata:read': ['getSiteById', 'listSiteSections', 'listSiteSectionGroups', 'listSiteSpaces', 'getSiteCustomizationById'],
  'site:views:read': [],
  'site:script:inject': [],
  'site:script:cookies': [],
  'site:visitor:auth': [],
  'site:visitor:claims': [],
  'site:adaptive:read': ['getSiteAdaptiveSchema', 'listSiteAdaptiveTemplateConditions'],
  'site:adaptive:write': ['updateSiteAdaptiveSchema'],
  'conversations:ingest': ['ingestConversation'],
  'openapi:read': [
    'listOpenAPISpecs',
    'getOpenAPISpecBySlug',
    'listOpenAPISpecVersions',
    'getLatestOpenAPISpecVersion',
    'getLatestOpenAPISpecVersionContent',
    'getOpenAPISpecVersionById',
    'getOpenAPISpecVersionContentById',
  ],
  'openapi:write': ['createOpenAPISpec', 'createOrUpdateOpenAPISpecBySlug', 'updateOpenAPISpecBySlug', 'deleteOpenAPISpecBySlug'],
};

const allowing = new Map<string, IntegrationScope[]>();
for (const [scope, operations] of Object.entries(scopeOperations) as [IntegrationScope, readonly OperationId[]][]) {
  for (const operation of operations) allowing.set(operation, [...(allowing.get(operation) ?? []), scope]);
}

/** The scopes that allow an operation (empty: no installation token may call it). */
export function scopesAllowing(operationId: string): IntegrationScope[] {
  return allowing.get(operationId) ?? [];
}

/**
 * Operations an installation's token may call without a scope, because they are the integration's own
 * (its path names the integration, and the handler answers 404 for another one): queueing its tasks.
 */
const ownOperations: ReadonlySet<string> = new Set<OperationId>(['queueIntegrationTask']);

/** Whether `operationId` is one of the integration's own operations (ownOperations). */
export function isIntegrationOwnOperation(operationId: string): boolean {
  return ownOperations.has(operationId);
}
