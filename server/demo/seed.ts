// Fills a database with the demo workspace of data.ts. People, the organization and memberships are made
// with the account functions the admin CLI uses (the API has no operation to create a user); everything
// else is written through the API's own operations, run in-process by the real app and called with the
// typed client: each write goes through the same validation, access rules and store functions as a
// client's, so the demo can never hold what the API would refuse. The background jobs it causes (OpenAPI
// processing, the translation run, conversation clustering) are run to completion before it returns.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { pino, type Logger } from 'pino';
import { createClient, type ApiClient } from '../../client/index.js';
import { createApp } from '../app.js';
import { addMember, createOrganization, createUser, issueToken } from '../auth/bootstrap.js';
import type { Db } from '../db/client.js';
import { apiTokens, members, organizations, users } from '../db/schema/index.js';
import { CLUSTER_CONVERSATIONS } from '../conversations/cluster.job.js';
import { jobHandlers } from '../jobs/registry.js';
import { createJobRunner } from '../jobs/runner.js';
import { PROCESS_OPENAPI_SPEC } from '../openapi/process.job.js';
import { runTranslationHandler, RUN_TRANSLATION } from '../translations/run.job.js';
import { configuredTranslator, memoryTranslator } from '../translations/translator.js';
import { DEMO_FRENCH, DEMO_OWNER, DEMO_ORGANIZATION_SEEDING_TITLE, DEMO_ORGANIZATION_TITLE, DEMO_PEOPLE } from './data.js';
import { seedContent } from './content.js';
import { seedPlatform } from './platform.js';

export interface SeedOptions {
  /** A token to issue to the owner and return (`BOOTSTRAP_TOKEN`); `false`: none; default: a random one. */
  ownerToken?: string | false;
  logger?: Logger;
}

export type SeedResult =
  | { created: true; organizationId: string; ownerId: string; token?: string }
  | { created: false; organizationId: string; ownerId: string };

/** The people of the demo by key, each with a client acting as them. */
export type DemoActors = Record<string, { userId: string; api: ApiClient }>;

// The tokens the seed uses to act as each person; removed when it is done.
const SEED_TOKEN_LABEL = 'demo-seed';

/** Seeds the demo workspace, or does nothing when it is already there; throws on a half-seeded one. */
export async function seedDemoWorkspace(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const existing = await findDemoOrganization(db);
  if (existing) {
    if (existing.title !== DEMO_ORGANIZATION_TITLE) {
      throw new Error(
        `A previous seed stopped half-way: organization ${existing.organizationId} ("${existing.title}") is incomplete. ` +
          'Seed a fresh database (another DATA_DIR, or drop the PostgreSQL database).',
      );
    }
    return { created: false, organizationId: existing.organizationId, ownerId: existing.ownerId };
  }
  const logger = options.logger ?? pino({ level: 'silent' });
  const people = await createPeople(db);
  const organization = await createOrganization(db, { title: DEMO_ORGANIZATION_SEEDING_TITLE, ownerId: people[DEMO_OWNER.key] });
  for (const person of DEMO_PEOPLE.slice(1)) await addMember(db, organization.id, people[person.key], person.role);

  const app = createApp({ db, logger, publicUrl: 'http://127.0.0.1' });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const actors: DemoActors = {};
    for (const [key, userId] of Object.entries(people)) {
      actors[key] = { userId, api: createClient({ baseUrl, token: await issueToken(db, userId, SEED_TOKEN_LABEL) }) };
    }
    const content = await seedContent(organization.id, actors);
    await seedPlatform(organization.id, actors, content, () => runJobs(db, logger));
    const owner = actors[DEMO_OWNER.key].api;
    await must(owner.PATCH('/orgs/{organizationId}', { params: { path: { organizationId: organization.id } }, body: { title: DEMO_ORGANIZATION_TITLE } }));
  } finally {
    server.close();
    await db.delete(apiTokens).where(and(eq(apiTokens.label, SEED_TOKEN_LABEL), inArray(apiTokens.userId, Object.values(people))));
  }
  const ownerId = people[DEMO_OWNER.key];
  const token = options.ownerToken === false ? undefined : await issueToken(db, ownerId, 'demo', options.ownerToken);
  return { created: true, organizationId: organization.id, ownerId, token };
}

/** The demo organization (owned by the demo owner), if any, whatever its state. */
async function findDemoOrganization(db: Db) {
  const [row] = await db
    .select({ organizationId: organizations.id, title: organizations.title, ownerId: users.id })
    .from(users)
    .innerJoin(members, eq(members.userId, users.id))
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(eq(users.email, DEMO_OWNER.email), inArray(organizations.title, [DEMO_ORGANIZATION_TITLE, DEMO_ORGANIZATION_SEEDING_TITLE])));
  if (row) return row;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_OWNER.email));
  if (owner) throw new Error(`The demo owner ${DEMO_OWNER.email} exists without the demo organization: seed a fresh database.`);
  return undefined;
}

async function createPeople(db: Db): Promise<Record<string, string>> {
  const people: Record<string, string> = {};
  for (const person of DEMO_PEOPLE) people[person.key] = (await createUser(db, { email: person.email, displayName: person.displayName })).id;
  return people;
}

// The periodic purge is not the seed's business; delivering events needs a development tunnel, which the demo has none of.
const SEED_JOB_KINDS = [PROCESS_OPENAPI_SPEC, RUN_TRANSLATION, CLUSTER_CONVERSATIONS];

/** Runs the due background jobs the seed caused, to completion. */
async function runJobs(db: Db, logger: Logger): Promise<void> {
  const handlers = Object.fromEntries(Object.entries(jobHandlers).filter(([kind]) => SEED_JOB_KINDS.includes(kind)));
  // Without a translator, the demo's own French (a translation memory) stands in for one, so the demo shows a translated space.
  if (configuredTranslator().kind === 'copy') handlers[RUN_TRANSLATION] = runTranslationHandler(memoryTranslator({ fr: DEMO_FRENCH }));
  await createJobRunner({ db, logger, handlers }).drain();
}

/** The data of a successful call; throws with the API's message otherwise (the seed writes only valid data). */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    throw new Error(`Demo seed: ${response.status} from ${new URL(response.url).pathname}: ${JSON.stringify(error)}`);
  }
  return data as T;
}
