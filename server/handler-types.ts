// The type every area's handler object satisfies: the generated `Handlers`, bound to this server's Ctx and
// the access layer's grants. Areas import it from here, never from the assembly (handlers.ts), which
// imports them.
import type { Handlers } from '../generated/router.js';
import type { Grants } from './auth/access.js';
import type { Ctx } from './context.js';

export type AppHandlers = Handlers<Ctx, Grants>;
