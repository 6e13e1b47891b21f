// Matrix fixtures of integrations: a fresh public integration of the world's organization, an event of
// it (from installing it there), and what each caller gets from the rules the store applies.
import type { MatrixCaller, MatrixFixtures, MatrixWorld } from './types.js';

let counter = 0;

/** A minimal publication body for the world's organization. */
export function publishBody(organization: string) {
  return { title: 'Matrix', description: 'Matrix integration', script: 'export default {}', scopes: [], organization };
}

async function publish({ admin }: MatrixWorld): Promise<string> {
  const name = `matrix-${Date.now().toString(36)}-${++counter}`;
  const res = await admin.api.post(`/integrations/${name}`, publishBody(admin.organizationId));
  if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
  return name;
}

/** Only admins of the owning organization; others see the public integration, so 403. */
const ownerAdmins = (caller: MatrixCaller) => (caller === 'admin' ? 'success' : 403);
/** Admin of the target organization (the world's): an outsider cannot see it (404), members without admin 403. */
const targetAdmins = (caller: MatrixCaller) => (caller === 'admin' ? 'success' : caller === 'outsider' ? 404 : 403);

export const integrationFixtures: MatrixFixtures = {
  params: {
    integrationName: publish,
    eventId: async ({ admin }, path) => {
      await admin.api.post(`/integrations/${path.integrationName}/installations`, { organization: admin.organizationId });
      return (await admin.api.get(`/integrations/${path.integrationName}/events`)).body.items[0].id;
    },
  },
  bodies: {
    publishIntegration: (world) => publishBody(world.admin.organizationId),
    installIntegration: (world) => ({ organization: world.admin.organizationId }),
    setIntegrationDevelopmentMode: () => ({ tunnelUrl: 'http://127.0.0.1:9/matrix' }),
  },
  expected: {
    publishIntegration: targetAdmins,
    installIntegration: targetAdmins,
    unpublishIntegration: ownerAdmins,
    listIntegrationInstallations: ownerAdmins,
    listIntegrationEvents: ownerAdmins,
    getIntegrationEvent: ownerAdmins,
    listIntegrationSpaceInstallations: ownerAdmins,
    listIntegrationSiteInstallations: ownerAdmins,
    setIntegrationDevelopmentMode: ownerAdmins,
  },
};

/** Publishes `name` for the account's organization with `extra` fields; fails the caller on a non-200. */
export async function publishAs(account: MatrixWorld['admin'], name: string, extra: Record<string, unknown> = {}) {
  const res = await account.api.post(`/integrations/${name}`, { ...publishBody(account.organizationId), ...extra });
  if (res.status !== 200) throw new Error(`publish ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
