// Composes the areas' handler objects into the generated `Handlers`. Every operation no area implements
// answers 501 (see http/not-implemented.ts): the stubs are computed as "all operations minus the
// implemented ones", so a real handler can never be shadowed by a forgotten stub.
import { contractOperations } from '../contract/index.js';
import type { Handlers, OperationId } from '../generated/router.js';
import type { Grants } from './auth/access.js';
import { collectionHandlers } from './collections/collections.handlers.js';
import type { Ctx } from './context.js';
import { notImplemented } from './http/not-implemented.js';
import { organizationHandlers } from './organizations/organizations.handlers.js';
import { spaceHandlers } from './spaces/spaces.handlers.js';
import { userHandlers } from './users/users.handlers.js';

export type AppHandlers = Handlers<Ctx, Grants>;

const implemented = {
  ...userHandlers,
  ...organizationHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
};

type Missing = Exclude<OperationId, keyof typeof implemented>;
const missing = (Object.keys(contractOperations) as OperationId[]).filter((id): id is Missing => !(id in implemented));

export const handlers = { ...notImplemented(missing), ...implemented } satisfies AppHandlers;
