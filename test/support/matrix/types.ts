import type { Role } from '../../../server/auth/roles.js';
import type { Account, Harness } from '../harness.js';

/** The organization the matrix calls into: its admin, one member per role and a guest, and an outsider. */
export interface MatrixWorld {
  h: Harness;
  admin: Account;
  outsider: Account;
  members: Record<'guest' | Role, Account>;
}

export interface MatrixFixtures {
  /**
   * A new resource for a path parameter (by name, e.g. `teamId`), created by the world's admin; `path`
   * holds the parameters already chosen for this call (e.g. `siteId` before `siteSectionId`).
   */
  params?: Record<string, (world: MatrixWorld, path: Record<string, string>) => Promise<string>>;
  /** A minimal valid body for an operation whose body has required fields (default `{}`). */
  bodies?: Record<string, (world: MatrixWorld, path: Record<string, string>) => unknown | Promise<unknown>>;
}
