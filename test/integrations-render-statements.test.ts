// renderIntegrationUIWithPost in one statement: the integration, the context's grant, the installation and
// the script's row are read in the grant's statement; a later render of the same context writes nothing and
// sends that one statement, and a refused caller is answered without anything written.
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { integrationInstallationTokens, integrationSigningSecrets, integrationTokens } from '../server/db/schema/index.js';
import { send } from './support/api.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { newSpace } from './sites-support.js';

const h = useHarness();
const source = readFileSync(new URL('./fixtures/integrations/diagram-block.tsx', import.meta.url), 'utf8');
let n = 0;

describe('renderIntegrationUIWithPost statements', () => {
  let owner: Account;
  let script: string;
  beforeAll(async () => {
    owner = await h.current.newAdmin();
    script = await bundleIntegration(source, 'production', 'tsx');
  });

  it('renders a document\'s component in one statement once its credentials are held, and writes nothing for a refused caller', async () => {
    const spaceId = await newSpace(owner, 'Counted');
    const name = `counted-${Date.now().toString(36)}-${++n}`;
    await publishAs(owner, name, { runtime: 'v2', script, target: 'space', blocks: [{ id: 'diagram', title: 'Diagram', description: 'A diagram' }] });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: spaceId })).status).toBe(201);

    const seen: { statements?: number } = {};
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (_id, statements) => (seen.statements = statements) });
    const body = { componentId: 'diagram', props: { content: 'graph TD\n  A --> B' }, context: { type: 'document', theme: 'light', spaceId, editable: false } };
    const render = async (account: Account) => {
      seen.statements = undefined;
      const res = await send(app, 'post', `/v1/integrations/${name}/render`, { token: account.token, body });
      return { status: res.status, statements: seen.statements };
    };
    const written = async () => ({
      installation: (await h.current.db.select().from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, installation.body.id))).length,
      integration: (await h.current.db.select().from(integrationTokens).where(eq(integrationTokens.integrationName, name))).length,
      secret: (await h.current.db.select().from(integrationSigningSecrets).where(eq(integrationSigningSecrets.integrationName, name))).length,
    });

    // Refused first: a stranger (not found) and a guest of the organization (no role on the space).
    const stranger = await h.current.newAdmin();
    expect(await render(stranger)).toMatchObject({ status: 404 });
    const guest = await h.current.newMember(owner.organizationId, null);
    expect(await render(guest)).toMatchObject({ status: 404 });
    expect(await written()).toEqual({ installation: 0, integration: 0, secret: 0 });

    const first = await render(owner);
    expect(first.status).toBe(200);
    expect(await written()).toEqual({ installation: 1, integration: 1, secret: 1 });
    const later = await render(owner);
    expect(later).toEqual({ status: 200, statements: 1 });
    const reader = await h.current.newMember(owner.organizationId, 'read');
    expect(await render(reader)).toEqual({ status: 200, statements: 1 });
    expect(await written()).toEqual({ installation: 1, integration: 1, secret: 1 });
    console.log(`render statements: first ${first.statements}, later ${later.statements}`);
  });
});
