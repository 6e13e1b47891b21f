// renderIntegrationUIWithPost in one statement: the integration, the installation and the script's row are
// read in the statement of the context's grant, and the credentials of the script's environment written in it
// on a first render; a later render writes nothing; a refused caller is answered without anything written.
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
    expect(await render(stranger)).toEqual({ status: 404, statements: 1 });
    const guest = await h.current.newMember(owner.organizationId, null);
    expect(await render(guest)).toEqual({ status: 404, statements: 1 });
    expect(await written()).toEqual({ installation: 0, integration: 0, secret: 0 });

    expect(await render(owner)).toEqual({ status: 200, statements: 1 });
    expect(await written()).toEqual({ installation: 1, integration: 1, secret: 1 });
    expect(await render(owner)).toEqual({ status: 200, statements: 1 });
    const reader = await h.current.newMember(owner.organizationId, 'read');
    expect(await render(reader)).toEqual({ status: 200, statements: 1 });
    expect(await written()).toEqual({ installation: 1, integration: 1, secret: 1 });

    // Installed again (another installation covers the space now): its tokens are written in the same statement.
    expect((await owner.api.delete(`/integrations/${name}/installations/${installation.body.id}`)).status).toBe(204);
    const again = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(again.status).toBe(200);
    expect((await owner.api.post(`/integrations/${name}/installations/${again.body.id}/spaces`, { space: spaceId })).status).toBe(201);
    expect(await render(owner)).toEqual({ status: 200, statements: 1 });
    expect(await h.current.db.select().from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, again.body.id))).toHaveLength(1);
    expect(await render(owner)).toEqual({ status: 200, statements: 1 });
  });

  it('renders a configuration screen of the organization, and of a site (its organization read with it), in one statement', async () => {
    const name = `counted-${Date.now().toString(36)}-${++n}`;
    await publishAs(owner, name, { runtime: 'v2', script, target: 'all', blocks: [{ id: 'diagram', title: 'Diagram', description: 'A diagram' }] });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    expect((await owner.api.patch(`/integrations/${name}/installations/${installation.body.id}`, { site_selection: 'all' })).status).toBe(200);
    const site = await owner.api.post(`/orgs/${owner.organizationId}/sites`, { title: 'Counted' });
    expect(site.status).toBe(201);
    const seen: { statements?: number } = {};
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (_id, statements) => (seen.statements = statements) });
    const render = async (account: Account, context: Record<string, unknown>) => {
      seen.statements = undefined;
      const res = await send(app, 'post', `/v1/integrations/${name}/render`, { token: account.token, body: { componentId: 'diagram', props: {}, context: { theme: 'light', ...context } } });
      return { status: res.status, statements: seen.statements };
    };
    const account = { type: 'configuration_account', organizationId: owner.organizationId };
    const onSite = { type: 'configuration_site', siteId: site.body.id };
    // A member below admin is refused, and nothing is written for them.
    const reader = await h.current.newMember(owner.organizationId, 'read');
    // Refused with a 403: the integration's visibility is read with the grant (404 comes before 403).
    expect(await render(reader, account)).toEqual({ status: 403, statements: 1 });
    expect(await render(reader, onSite)).toEqual({ status: 403, statements: 1 });
    expect(await h.current.db.select().from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, installation.body.id))).toHaveLength(0);
    // The component answers 500 for a configuration screen (it renders blocks): 503, after the script ran.
    expect(await render(owner, account)).toEqual({ status: 503, statements: 1 });
    expect(await render(owner, account)).toEqual({ status: 503, statements: 1 });
    expect(await render(owner, onSite)).toEqual({ status: 503, statements: 1 });
    expect(await h.current.db.select().from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, installation.body.id))).toHaveLength(1);
  });
  it('answers in one statement an integration the caller cannot see (404 before the 403 of the context), an unknown site, and an integration changed since', async () => {
    const name = `counted-${Date.now().toString(36)}-${++n}`;
    await publishAs(owner, name, { runtime: 'v2', script, target: 'all', visibility: 'private', blocks: [{ id: 'diagram', title: 'Diagram', description: 'A diagram' }] });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const spaceId = await newSpace(owner, 'Changed');
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: spaceId })).status).toBe(201);
    const seen: { statements?: number } = {};
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (_id, statements) => (seen.statements = statements) });
    const render = async (account: Account, context: Record<string, unknown>) => {
      seen.statements = undefined;
      const res = await send(app, 'post', `/v1/integrations/${name}/render`, { token: account.token, body: { componentId: 'diagram', props: { content: 'graph TD\n  A --> B' }, context: { theme: 'light', ...context } } });
      return { status: res.status, message: res.body?.error?.message as string | undefined, statements: seen.statements };
    };
    // A reader of another organization, which the private integration is not of.
    const elsewhere = await h.current.newAdmin();
    const reader = await h.current.newMember(elsewhere.organizationId, 'read');
    const site = await elsewhere.api.post(`/orgs/${elsewhere.organizationId}/sites`, { title: 'Elsewhere' });
    expect(site.status).toBe(201);
    const hidden = { status: 404, message: `Integration ${name} not found`, statements: 1 };
    expect(await render(reader, { type: 'configuration_account', organizationId: elsewhere.organizationId })).toEqual(hidden);
    expect(await render(reader, { type: 'configuration_site', siteId: site.body.id })).toEqual(hidden);
    expect(await render(reader, { type: 'configuration_space', spaceId: await newSpace(elsewhere, 'Elsewhere') })).toEqual(hidden);
    expect(await render(elsewhere, { type: 'configuration_site', siteId: 'site_unknown' })).toEqual(hidden);
    // Seen by its owner: the site's 404 names it; a site of another organization is that organization's 404.
    expect(await render(owner, { type: 'configuration_site', siteId: 'site_unknown' })).toEqual({
      status: 404,
      message: 'body.context.siteId: site site_unknown not found',
      statements: 1,
    });
    expect(await render(owner, { type: 'configuration_site', siteId: site.body.id })).toEqual({
      status: 404,
      message: `Organization ${elsewhere.organizationId} not found`,
      statements: 1,
    });
    // A space the caller cannot see is not found, whatever the integration.
    expect((await render(reader, { type: 'document', spaceId, editable: false })).status).toBe(404);

    const document = { type: 'document', spaceId, editable: false };
    expect(await render(owner, document)).toMatchObject({ status: 200, statements: 1 });
    expect(await render(owner, document)).toMatchObject({ status: 200, statements: 1 });
    // Changed since this process read it: its row comes again in the same statement.
    await publishAs(owner, name, { runtime: 'v2', script, target: 'all', visibility: 'private', title: 'Counted again', blocks: [{ id: 'diagram', title: 'Diagram', description: 'A diagram' }] });
    expect(await render(owner, document)).toMatchObject({ status: 200, statements: 1 });
    expect(await render(owner, document)).toMatchObject({ status: 200, statements: 1 });
  });
});
