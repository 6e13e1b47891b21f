import type { Role } from '../../../server/auth/roles.js';
import type { Account, Harness } from '../harness.js';

/** The organization the matrix calls into: its admin, one member per role and a guest, and an outsider. */
export interface MatrixWorld {
  h: Harness;
  admin: Account;
  outsider: Account;
  members: Record<'guest' | Role, Account>;
}

/** A caller with a valid token: outside the organization, a guest in it, or a member with a role. */
export type MatrixCaller = 'outsider' | 'guest' | Role;

export interface MatrixFixtures {
  /**
   * A new resource for a path parameter (by name, e.g. `teamId`), created by the world's admin; `path`
   * holds the parameters already chosen for this call (e.g. `siteId` before `siteSectionId`).
   */
  params?: Record<string, (world: MatrixWorld, path: Record<string, string>) => Promise<string>>;
  /** A minimal valid query for an operation whose query has required parameters (default none); it may be made by requests. */
  queries?: Record<string, (world: MatrixWorld, path: Record<string, string>) => Record<string, string> | Promise<Record<string, string>>>;
  /** A minimal valid body for an operation whose body has required fields (default `{}`). */
  bodies?: Record<string, (world: MatrixWorld, path: Record<string, string>) => unknown | Promise<unknown>>;
  /**
   * For operations declared `access.caller()` whose rules live in the store: the status each caller gets
   * with the fixtures above (a number, or 'success'), instead of success for everyone.
   */
  expected?: Record<string, (caller: MatrixCaller) => number | 'success'>;
  /**
   * For an operation (by id) that answers only on a resource in some state (getSpaceGitInfo: a space whose
   * Git Sync is configured): puts the resources `path` names into that state before each call. Runs again
   * for each call on the same resources, so it must be safe to repeat.
   */
  prepare?: Record<string, (world: MatrixWorld, path: Record<string, string>) => Promise<void>>;
  /**
   * For a list operation (by id) whose items neither the create operation at its own path nor the recipe
   * of its item's path parameter makes: puts one item in the list `path` names, so that the fuzz test
   * compares a real item with the documented example.
   */
  lists?: Record<string, (world: MatrixWorld, path: Record<string, string>) => Promise<unknown>>;
  /** For a path served without a token (contract/downloads.ts, by id): a valid URL of it (`/v1/…?…`), as the API hands it out. */
  links?: Record<string, (world: MatrixWorld) => Promise<string>>;
}
