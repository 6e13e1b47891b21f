// Commands on integrations: published by the organization, installed in it (once: installing again gives
// the same installation), uninstalled; the installation and the integration's list read back.
import fc from 'fast-check';
import { expect } from 'vitest';
import { always, command, expectStatus, pick, type Cmd, type Integration, type Model, type Real } from './model.js';

let counter = 0;
const hasIntegrations = (m: Readonly<Model>) => m.integrations.length > 0;

async function expectInstallations(r: Real, integration: Integration): Promise<void> {
  const res = await r.admin.api.get(`/integrations/${integration.name}/installations`, { limit: 100 });
  expectStatus(res, 200, 'listIntegrationInstallations');
  expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(integration.installation ? [integration.installation] : []);
  expect(res.body.count).toBe(integration.installation ? 1 : 0);
}

export const integrationCommands: fc.Arbitrary<Cmd>[] = [
  fc.constant(null).map(() =>
    command('publishIntegration()', always, async (m, r) => {
      const name = `model-${Date.now().toString(36)}-${++counter}`;
      const res = await r.admin.api.post(`/integrations/${name}`, {
        title: 'Model',
        description: 'An integration of the model-based test',
        script: 'export default {}',
        scopes: [],
        organization: r.admin.organizationId,
      });
      expectStatus(res, 200, 'publishIntegration');
      const integration = { name, installation: null };
      m.integrations.push(integration);
      expectStatus(await r.admin.api.get(`/integrations/${name}`), 200, 'getIntegrationByName');
      await expectInstallations(r, integration);
    }),
  ),
  fc.nat().map((n) =>
    command(`installIntegration(#${n})`, hasIntegrations, async (m, r) => {
      const integration = pick(m.integrations, n)!;
      const res = await r.admin.api.post(`/integrations/${integration.name}/installations`, { organization: r.admin.organizationId });
      expectStatus(res, 200, 'installIntegration');
      if (integration.installation) expect(res.body.id).toBe(integration.installation);
      integration.installation = res.body.id;
      expect(res.body.target).toEqual({ organization: r.admin.organizationId });
      await expectInstallations(r, integration);
    }),
  ),
  fc.nat().map((n) =>
    command(`uninstallIntegration(#${n})`, (m) => m.integrations.some((i) => i.installation), async (m, r) => {
      const integration = pick(m.integrations.filter((i) => i.installation), n)!;
      const path = `/integrations/${integration.name}/installations/${integration.installation}`;
      expectStatus(await r.admin.api.delete(path), 204, 'uninstallIntegration');
      integration.installation = null;
      expectStatus(await r.admin.api.get(path), 404, 'getIntegrationInstallationById after uninstall');
      await expectInstallations(r, integration);
    }),
  ),
];
