// Matrix fixtures that fill the lists of an integration's space and site installations: an installation
// in the world's organization, installed on a new space (site) of it.
import { contentTreeFixtures } from './content-tree.js';
import { siteFixtures } from './sites.js';
import type { MatrixFixtures, MatrixWorld } from './types.js';

async function installedOn(world: MatrixWorld, integrationName: string, kind: 'space' | 'site') {
  const { admin } = world;
  const installation = await admin.api.post(`/integrations/${integrationName}/installations`, { organization: admin.organizationId });
  if (installation.status !== 200) throw new Error(`install failed: ${installation.status} ${JSON.stringify(installation.body)}`);
  const target = kind === 'space' ? { space: await contentTreeFixtures.params!.spaceId(world, {}) } : { siteId: await siteFixtures.params!.siteId(world, {}) };
  const res = await admin.api.post(`/integrations/${integrationName}/installations/${installation.body.id}/${kind}s`, target);
  if (res.status !== 201) throw new Error(`install on a ${kind} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export const integrationListFixtures: MatrixFixtures = {
  lists: {
    listIntegrationSpaceInstallations: (world, path) => installedOn(world, path.integrationName, 'space'),
    listIntegrationSiteInstallations: (world, path) => installedOn(world, path.integrationName, 'site'),
  },
};
