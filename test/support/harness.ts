// A real app on its own copy of the migrated database, for one test file: PGlite by default,
// PostgreSQL when DATABASE_URL is set. Every response goes through the spec check (see api.ts).
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../../server/app.js';
import { useFileStoreFromEnvironment } from './file-store.js';
import { addMember, createOrganization, createUser, issueToken } from '../../server/auth/bootstrap.js';
import type { Role } from '../../server/auth/roles.js';
import { createCtx, type Ctx } from '../../server/context.js';
import type { Database, Db } from '../../server/db/client.js';
import { createScratchDatabase } from '../../server/db/scratch-database.js';
import { collections, spaces } from '../../server/db/schema/index.js';
import { createUrls } from '../../server/urls.js';
import { createRateLimiter } from '../../server/operating/rate-limit.js';
import { apiClient, type ApiClient } from './api.js';
import { takePgliteDatabase } from './pglite-pool.js';
import { StatementRecorder } from './query-budget.js';
import { recordToken, suiteLogger } from './suite-log.js';

export const PUBLIC_URL = 'https://api.test.example';

export interface Account {
  userId: string;
  organizationId: string;
  token: string;
  api: ApiClient;
}

async function openDatabase(): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  const template = inject('postgresTemplate');
  if (url && template) return createScratchDatabase(url, { prefix: 'dwapi_test', template, poolSize: 4 });
  return takePgliteDatabase();
}

export class Harness {
  private clockOffsetMs = 0;
  private counter = 0;
  readonly app: ReturnType<typeof createApp>;
  /** The statements each operation sent, held against test/query-budget.json when the file ends. */
  readonly statements = new StatementRecorder();

  constructor(
    readonly db: Db,
    readonly dispose: () => Promise<void>,
  ) {
    this.app = createApp({
      db,
      logger: suiteLogger(), // debug level, checked for tokens by scripts/check-secrets.ts
      publicUrl: PUBLIC_URL,
      now: () => new Date(Date.now() + this.clockOffsetMs),
      // Limited, so every answer carries the rate-limit headers, but far above what a test file sends with one
      // token (test/operating-rate-limit.test.ts tests the limit itself).
      rateLimiter: createRateLimiter({ perMinute: 1_000_000 }),
      onStatements: this.statements.onStatements,
    });
  }

  /** A Ctx acting as `userId`, for calling store and domain functions without HTTP. */
  ctx(userId: string): Ctx {
    return createCtx({
      caller: { userId },
      db: this.db,
      now: () => new Date(Date.now() + this.clockOffsetMs),
      urls: createUrls(PUBLIC_URL),
      log: pino({ level: 'silent' }),
    });
  }

  /** The order keys of the given spaces or collections, in the order of the ids. */
  async positionsOf(ids: string[]): Promise<string[]> {
    const rows = [
      ...(await this.db.select({ id: spaces.id, position: spaces.position }).from(spaces).where(inArray(spaces.id, ids))),
      ...(await this.db.select({ id: collections.id, position: collections.position }).from(collections).where(inArray(collections.id, ids))),
    ];
    return ids.map((id) => rows.find((r) => r.id === id)!.position);
  }

  /** Sets a space's visibility directly (the API has no operation for it yet). */
  async setSpaceVisibility(spaceId: string, visibility: 'private' | 'public' | 'in-collection'): Promise<void> {
    await this.db.update(spaces).set({ visibility }).where(eq(spaces.id, spaceId));
  }

  /** Moves the server's clock forward, e.g. past the 7-day restore window. */
  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /** A new user with a token, an admin of a new organization of their own. */
  async newAdmin(): Promise<Account> {
    const user = await this.newUser();
    const organization = await createOrganization(this.db, { title: `Organization ${this.counter}`, ownerId: user.userId });
    return { ...user, organizationId: organization.id };
  }

  /** A new user with a token, a member of `organizationId` with `role` (null: a guest). */
  async newMember(organizationId: string, role: Role | null): Promise<Account> {
    const user = await this.newUser();
    await addMember(this.db, organizationId, user.userId, role);
    return { ...user, organizationId };
  }

  /** Gives an existing user a role (null: guest) in another organization. */
  async addMembership(organizationId: string, userId: string, role: Role | null): Promise<void> {
    await addMember(this.db, organizationId, userId, role);
  }

  private async newUser() {
    const n = ++this.counter;
    const user = await createUser(this.db, { email: `user${n}-${randomBytes(3).toString('hex')}@example.com`, displayName: `User ${n}` });
    const token = await issueToken(this.db, user.id, 'test');
    recordToken(token);
    return { userId: user.id, token, api: apiClient(this.app, token) };
  }
}

/** Registers the hooks of a test file and returns its harness (usable inside tests). */
export function useHarness(): { readonly current: Harness } {
  const holder: { current: Harness } = { current: undefined as unknown as Harness };
  useFileStoreFromEnvironment();
  beforeAll(async () => {
    const { database, dispose } = await openDatabase();
    holder.current = new Harness(database.db, dispose);
  });
  afterAll(async () => {
    await holder.current?.dispose();
    holder.current?.statements.check();
  });
  return holder;
}
