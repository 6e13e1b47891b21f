// What every handler receives besides its input: who calls, the database, the clock, the URL builder.
import type { Logger } from 'pino';
import type { Db } from './db/client.js';
import type { Urls } from './http/urls.js';

export interface Caller {
  userId: string;
}

export interface Ctx {
  caller: Caller;
  db: Db;
  /** The current time; tests move it to check time-based rules such as the 7-day restore window. */
  now(): Date;
  urls: Urls;
  log: Logger;
}
