// Composes the areas' handler objects into the generated `Handlers`: a missing operation fails to compile.
import type { Handlers } from '../generated/router.js';
import { collectionHandlers } from './collections/collections.handlers.js';
import type { Ctx } from './context.js';
import { organizationHandlers } from './organizations/organizations.handlers.js';
import { spaceHandlers } from './spaces/spaces.handlers.js';
import { userHandlers } from './users/users.handlers.js';

export const handlers = {
  ...userHandlers,
  ...organizationHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
} satisfies Handlers<Ctx>;
