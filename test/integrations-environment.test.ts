// The IntegrationEnvironment a `v2` script receives (server/integrations/script-environment.ts), complete as
// GitBook's: validated with Ajv against @gitbook/api's own schema (and the event with it against its
// FetchEvent), a token of the integration itself that acts as the integration (context.integration.api) and
// nothing more, signing secrets generated per integration and derived per installation and space
// installation (never the publisher's SIGNING_SECRET), `network`, and installations with configuration and
// urls.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchEvent } from '../server/integrations/dispatch-protocol.js';
import { createUrls } from '../server/urls.js';
import { setScriptUrls } from '../server/runtime/script-runtime.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
const PUBLIC_URL = 'https://api.test.example';
const spec = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(spec, 'gitbook');
const validate = (schema: string, value: unknown) => {
  const check = ajv.getSchema(`gitbook#/components/schemas/${schema}`)!;
  return check(value) ? [] : check.errors!.map((e) => `${e.instancePath} ${e.message}`);
};

// Answers its environment and event, and what its integration token may do: list its installations, mint
// an installation token and update its space installation's configuration; not read a space, not publish.
const script = `
import { createIntegration } from '@gitbook/runtime';
export default createIntegration({
  fetch: async (request, context) => {
    const { environment } = context;
    const api = context.integration.api;
    const name = environment.integration.name;
    const status = (promise) => promise.then(() => 200, (e) => e.statusCode ?? e.response?.status ?? String(e));
    const { data: installations } = await api.integrations.listIntegrationInstallations(name);
    const { data: minted } = await api.integrations.createIntegrationInstallationToken(name, environment.installation.id);
    const configured = await status(api.integrations.updateIntegrationSpaceInstallation(name, environment.installation.id, environment.spaceInstallation.space, { configuration: { note: 'set by the integration' } }));
    return Response.json({
      environment,
      installations: installations.items.map((i) => i.id),
      minted: typeof minted.token === 'string',
      configured,
      space: await status(api.spaces.getSpaceById(environment.spaceInstallation.space)),
      unpublish: await status(api.integrations.unpublishIntegration(name)),
    });
  },
});
`;

describe('the environment of a v2 script', () => {
  let server: Server;
  let owner: Account;
  let bundled: string;
  beforeAll(async () => {
    server = h.current.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    setScriptUrls(createUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    owner = await h.current.newAdmin();
    bundled = await bundleIntegration(script);
  });
  afterAll(async () => {
    setScriptUrls(createUrls(PUBLIC_URL));
    await new Promise((resolve) => server.close(resolve));
  });

  async function installedOnSpaces(name: string) {
    await publishAs(owner, name, { runtime: 'v2', script: bundled, scopes: ['space:metadata:read'], secrets: { SIGNING_SECRET: 'the-publishers-secret' } });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const spaces: { id: string; endpoint: string }[] = [];
    for (const title of ['One', 'Two']) {
      const space = await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title });
      expect(space.status).toBe(201);
      const on = await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: space.body.id });
      expect(on.status).toBe(201);
      const configured = await owner.api.patch(`/integrations/${name}/installations/${installation.body.id}/spaces/${space.body.id}`, { configuration: { note: title } });
      expect(configured.status).toBe(200);
      spaces.push({ id: space.body.id, endpoint: new URL(on.body.urls.publicEndpoint).pathname });
    }
    return { installationId: installation.body.id as string, spaces };
  }

  it('validates against @gitbook/api, carries generated signing secrets and an integration token that acts as the integration only', async () => {
    const name = `env-${Date.now().toString(36)}`;
    const { installationId, spaces } = await installedOnSpaces(name);
    const call = async (space: { endpoint: string }) => {
      const answer = await request(h.current.app).get(`${space.endpoint}/env`).redirects(0);
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const first = await call(spaces[0]);
    const { environment } = first;
    expect(validate('IntegrationEnvironment', environment)).toEqual([]);
    expect(validate('IntegrationEnvironmentSpaceInstallation', environment.spaceInstallation)).toEqual([]);
    expect(validate('IntegrationInstallation', environment.installation)).toEqual([]);

    // Installations with their configuration and urls.
    expect(environment.installation).toMatchObject({ id: installationId, target: { organization: owner.organizationId } });
    expect(environment.spaceInstallation).toMatchObject({ integration: name, installation: installationId, space: spaces[0].id, configuration: { note: 'One' } });
    expect(new URL(environment.spaceInstallation.urls.publicEndpoint).pathname).toBe(spaces[0].endpoint);
    expect(environment.network).toEqual({ proxy: false });

    // Signing secrets: generated, not the publisher's; one per installation and space installation; stable.
    const secrets = environment.signingSecrets;
    expect(Object.keys(secrets).sort()).toEqual(['installation', 'integration', 'spaceInstallation']);
    expect(new Set(Object.values(secrets)).size).toBe(3);
    for (const secret of Object.values(secrets)) {
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(secret).not.toBe('the-publishers-secret');
    }
    const second = await call(spaces[1]);
    expect(second.environment.signingSecrets.integration).toBe(secrets.integration);
    expect(second.environment.signingSecrets.installation).toBe(secrets.installation);
    expect(second.environment.signingSecrets.spaceInstallation).not.toBe(secrets.spaceInstallation);
    expect((await call(spaces[0])).environment.signingSecrets).toEqual(secrets);

    // The integration token is its own, not the installation's.
    expect(environment.apiTokens.integration).toMatch(/^dwint_/);
    expect(environment.apiTokens.installation).toMatch(/^dwit_/);
    // With it, the integration lists its installations, mints installation tokens and configures its installations...
    expect(first.installations).toEqual([installationId]);
    expect(first.minted).toBe(true);
    expect(first.configured).toBe(200);
    const read = await owner.api.get(`/integrations/${name}/installations/${installationId}/spaces/${spaces[0].id}`);
    expect(read.status).toBe(200);
    expect(read.body.configuration).toEqual({ note: 'set by the integration' });
    // ...but reads no content and cannot publish or unpublish.
    expect(first.space).toBe(403);
    expect(first.unpublish).toBe(403);
    expect((await owner.api.get(`/integrations/${name}`)).status).toBe(200);

    // Outside the script: the token reaches its own integration only.
    const token = environment.apiTokens.integration as string;
    const asIntegration = (path: string) => request(h.current.app).get(`/v1${path}`).set('authorization', `Bearer ${token}`);
    expect((await asIntegration(`/integrations/${name}`)).status).toBe(200);
    const other = `env-other-${Date.now().toString(36)}`;
    await publishAs(owner, other, { runtime: 'v2', script: bundled });
    expect((await asIntegration(`/integrations/${other}/installations`)).status).toBe(404);
    // It queues its own tasks (queueIntegrationTask: how GitBook's integrations split their work), no one else's.
    const queue = (integration: string) => request(h.current.app).post(`/v1/integrations/${integration}/tasks`).set('authorization', `Bearer ${token}`).send({ task: { type: 'from-integration-token' } });
    expect((await queue(name)).status).toBe(204);
    expect((await queue(other)).status).toBe(404);
    const events = await owner.api.get(`/integrations/${name}/events?limit=100`);
    expect(events.status).toBe(200);
    expect((events.body.items as { payload: { type: string; task?: { type?: string } } }[]).filter((e) => e.payload.type === 'task').map((e) => e.payload.task?.type)).toEqual(['from-integration-token']);
    expect((await asIntegration(`/orgs/${owner.organizationId}/spaces`)).status).toBe(403);
    expect((await request(h.current.app).get(`/v1/integrations/${name}`).set('authorization', 'Bearer dwint_forged')).status).toBe(401);
    // It configures its installation, but does not choose what the installation covers.
    const patch = (body: object) => request(h.current.app).patch(`/v1/integrations/${name}/installations/${installationId}`).set('authorization', `Bearer ${token}`).send(body);
    const widened = await patch({ site_selection: 'all' });
    expect(widened.status).toBe(403);
    expect(widened.body.error.message).toContain('body.site_selection');
    expect((await patch({ externalIds: ['ext-1'] })).status).toBe(200);
    expect((await owner.api.get(`/integrations/${name}/installations/${installationId}`)).body).toMatchObject({ externalIds: ['ext-1'], site_selection: 'selected' });
  });

  it("the fetch event a public endpoint's request makes validates against GitBook's FetchEvent", () => {
    const event = fetchEvent('evt_1', { method: 'POST', url: 'https://api.test.example/integrations/x/installations/i/spaces/s/integration/hook?q=1', headers: [['content-type', 'text/plain'], ['cookie', 'a=1']], body: Buffer.from('x') }, { installationId: 'ins_1', spaceId: 'spc_1' });
    expect(validate('FetchEvent', event)).toEqual([]);
    expect(validate('Event', event)).toEqual([]);
  });
});
