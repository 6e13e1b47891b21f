// What every handler receives besides its input: who calls, the database, the clock, the URL builder,
// and the unit of work.
import type { Logger } from 'pino';
import type { Db } from './db/client.js';
import type { Urls } from './urls.js';

export interface Caller {
  userId: string;
  /** Set when the caller is an installation of an integration, authenticated by an installation token. */
  installation?: InstallationCaller;
  /** Set when the caller is an integration itself, authenticated by an integration token (server/auth/integration-caller.ts). */
  integration?: IntegrationCaller;
  /** Set when the caller holds the API token URL resolution handed out for a site (server/auth/site-tokens.ts). */
  site?: SiteTokenCaller;
}

/** A site's reader, through a renderer: what its token may read (server/auth/site-token-caller.ts). */
export interface SiteTokenCaller {
  siteId: string;
  organizationId: string;
  /** The spaces of the site spaces the visitor could see when the URL was resolved. */
  spaceIds: string[];
  /**
   * The visitor's claims as the site took them at resolution (verified token, unsigned claims, checked
   * against the site's adaptive schema): page conditions and evaluated documents read them.
   */
  claims?: Record<string, unknown>;
  /** Expiry, in ms since the epoch. */
  expiresAt: number;
}

/** An integration calling with its own token: its name and its owner. */
export interface IntegrationCaller {
  name: string;
  organizationId: string;
  /** The installation the token was handed out with (an event or request about it), when any. */
  installationId?: string;
}

/** An installation calling with its token: what it may do and on what (server/auth/installation-caller.ts). */
export interface InstallationCaller {
  id: string;
  integrationName: string;
  organizationId: string;
  /** The scopes the integration asks for. */
  scopes: string[];
  spaceSelection: string;
  siteSelection: string;
  /** The spaces and sites it is installed on (with a `selected` selection, all it covers). */
  spaceIds: string[];
  siteIds: string[];
}

export interface Ctx {
  caller: Caller;
  /** The database, or the transaction when this Ctx was handed out by `transaction`. */
  db: Db;
  /** The current time; tests move it to check time-based rules such as the 7-day restore window. */
  now(): Date;
  urls: Urls;
  log: Logger;
  /** The id of the request being served, for log lines. */
  requestId?: string;
  /**
   * Runs `work` as one transaction, with a Ctx whose `db` is bound to it: everything commits together or
   * not at all. Inside a transaction, a nested call joins the outer one.
   */
  transaction<T>(work: (tx: Ctx) => Promise<T>): Promise<T>;
}

/** A Ctx whose `transaction` opens a real transaction on `base.db`. */
export function createCtx(base: Omit<Ctx, 'transaction'>): Ctx {
  return {
    ...base,
    transaction: (work) =>
      base.db.transaction(async (tx) => {
        const txCtx: Ctx = { ...base, db: tx as unknown as Db, transaction: (nested) => nested(txCtx) };
        return work(txCtx);
      }),
  };
}
