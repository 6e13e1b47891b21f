// Composes the areas' handler objects into the generated `Handlers`: a missing operation fails to compile.
// Areas whose implementation has not landed answer 501 (see http/not-implemented.ts).
import { areaOperations } from '../contract/index.js';
import type { Handlers, OperationId } from '../generated/router.js';
import { collectionHandlers } from './collections/collections.handlers.js';
import type { Ctx } from './context.js';
import { notImplemented } from './http/not-implemented.js';
import { organizationHandlers } from './organizations/organizations.handlers.js';
import { spaceHandlers } from './spaces/spaces.handlers.js';
import { userHandlers } from './users/users.handlers.js';

const idsOf = <T extends object>(table: T) => Object.keys(table) as (keyof T & OperationId)[];

export const handlers = {
  ...userHandlers,
  ...organizationHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
  ...notImplemented(['duplicateSpace', 'moveSpace', 'transferSpace']),
  ...notImplemented(['createOrganization', 'deleteOrganizationInviteById', 'joinOrganization', 'getOrganizationsForEmailDomain']),
  ...notImplemented(idsOf(areaOperations.agentInstructions)),
  ...notImplemented(idsOf(areaOperations.members)),
  ...notImplemented(idsOf(areaOperations.teams)),
  ...notImplemented(idsOf(areaOperations.comments)),
  ...notImplemented(idsOf(areaOperations.content)),
  ...notImplemented(idsOf(areaOperations.search)),
  ...notImplemented(idsOf(areaOperations.changeRequests)),
  ...notImplemented(idsOf(areaOperations.changeRequestContent)),
  ...notImplemented(idsOf(areaOperations.sites)),
  ...notImplemented(idsOf(areaOperations.siteSections)),
  ...notImplemented(idsOf(areaOperations.siteSectionGroups)),
  ...notImplemented(idsOf(areaOperations.siteSpaces)),
  ...notImplemented(idsOf(areaOperations.integrations)),
  ...notImplemented(idsOf(areaOperations.openapi)),
  ...notImplemented(idsOf(areaOperations.translations)),
  ...notImplemented(idsOf(areaOperations.sso)),
  ...notImplemented(idsOf(areaOperations.conversations)),
} satisfies Handlers<Ctx>;
