// Composes the areas' handler objects into the generated `Handlers`. Every operation no area implements
// answers 501 (see http/not-implemented.ts): the stubs are computed as "all operations minus the
// implemented ones", so a real handler can never be shadowed by a forgotten stub.
import { contractOperations } from '../contract/index.js';
import type { OperationId } from '../generated/router.js';
import { agentInstructionHandlers } from './agent-instructions/agent-instructions.handlers.js';
import { changeRequestContentHandlers } from './change-requests/change-request-content.handlers.js';
import { changeRequestHandlers } from './change-requests/change-requests.handlers.js';
import { changeRequestReviewHandlers } from './change-requests/reviews.handlers.js';
import { commentHandlers } from './comments/comments.handlers.js';
import { collectionHandlers } from './collections/collections.handlers.js';
import { contentHandlers } from './content/content.handlers.js';
import { computedContentHandlers } from './computed-content/computed-content.handlers.js';
import { embedHandlers } from './embeds/embeds.handlers.js';
import type { AppHandlers } from './handler-types.js';
import { notImplemented } from './http/not-implemented.js';
import { gitSyncHandlers } from './git-sync/git-sync.handlers.js';
import { integrationHandlers } from './integrations/integrations.handlers.js';
import { integrationTaskHandlers } from './integrations/tasks.handlers.js';
import { integrationUiHandlers } from './integrations/ui-render.handlers.js';
import { memberHandlers } from './members/members.handlers.js';
import { revisionHandlers } from './revisions/revisions.handlers.js';
import { organizationHandlers } from './organizations/organizations.handlers.js';
import { openAPIHandlers } from './openapi/openapi.handlers.js';
import { permissionHandlers } from './permissions/permissions.handlers.js';
import { inviteHandlers } from './invites/invites.handlers.js';
import { siteHandlers } from './sites/sites.handlers.js';
import { siteRedirectHandlers } from './sites/site-redirects.handlers.js';
import { headlessHandlers } from './headless/headless.handlers.js';
import { headlessReadHandlers } from './headless/headless-reads.handlers.js';
import { searchHandlers } from './search/search.handlers.js';
import { ssoHandlers } from './sso/sso.handlers.js';
import { translationHandlers } from './translations/translations.handlers.js';
import { conversationHandlers } from './conversations/conversations.handlers.js';
import { spaceHandlers } from './spaces/spaces.handlers.js';
import { spaceTreeHandlers } from './spaces/space-tree.handlers.js';
import { teamHandlers } from './teams/teams.handlers.js';
import { userHandlers } from './users/users.handlers.js';

const implemented = {
  ...userHandlers,
  ...organizationHandlers,
  ...memberHandlers,
  ...teamHandlers,
  ...agentInstructionHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
  ...spaceTreeHandlers,
  ...contentHandlers,
  ...gitSyncHandlers,
  ...revisionHandlers,
  ...computedContentHandlers,
  ...embedHandlers,
  ...changeRequestHandlers,
  ...changeRequestContentHandlers,
  ...changeRequestReviewHandlers,
  ...commentHandlers,
  ...searchHandlers,
  ...integrationHandlers,
  ...integrationTaskHandlers,
  ...integrationUiHandlers,
  ...ssoHandlers,
  ...openAPIHandlers,
  ...translationHandlers,
  ...conversationHandlers,
  ...siteHandlers,
  ...siteRedirectHandlers,
  ...headlessHandlers,
  ...headlessReadHandlers,
  ...permissionHandlers,
  ...inviteHandlers,
};

type Missing = Exclude<OperationId, keyof typeof implemented>;
const missing = (Object.keys(contractOperations) as OperationId[]).filter((id): id is Missing => !(id in implemented));

export const handlers = { ...notImplemented(missing), ...implemented } satisfies AppHandlers;
