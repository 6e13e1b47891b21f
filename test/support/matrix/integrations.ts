// Matrix fixtures of integrations: a fresh public integration of the world's organization, an event of
// it (from installing it there), and what each caller gets from the rules the store applies.
import lzString from 'lz-string';
import { contentTreeFixtures } from './content-tree.js';
import { siteFixtures } from './sites.js';
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

/** An installation of the integration (in `path`) in the world's organization. */
async function installation({ admin }: MatrixWorld, path: Record<string, string>): Promise<string> {
  const res = await admin.api.post(`/integrations/${path.integrationName}/installations`, { organization: admin.organizationId });
  if (res.status !== 200) throw new Error(`install failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/**
 * A space (site) of the world's organization; when the call names an installation, the installation is
 * installed on it, so the operations on one space (site) installation find it.
 */
function installedTarget(kind: 'space' | 'site', make: (world: MatrixWorld, path: Record<string, string>) => Promise<string>) {
  return async (world: MatrixWorld, path: Record<string, string>) => {
    const id = await make(world, path);
    if (path.installationId) {
      const body = kind === 'space' ? { space: id } : { siteId: id };
      const res = await world.admin.api.post(`/integrations/${path.integrationName}/installations/${path.installationId}/${kind}s`, body);
      if (res.status !== 201) throw new Error(`install on ${kind} failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return id;
  };
}

/** Ahead of the other fixtures (see index.ts): spaces and sites, installed on when the path has an installation. */
export const integrationTargetFixtures: MatrixFixtures = {
  params: {
    spaceId: installedTarget('space', contentTreeFixtures.params!.spaceId),
    siteId: installedTarget('site', siteFixtures.params!.siteId),
  },
};

/** Admins of the installation's organization (the world's); other members 403, an outsider does not see it. */
const installationAdmins = (caller: MatrixCaller) => (caller === 'admin' ? 'success' : caller === 'outsider' ? 404 : 403);
/** The same for an uninstall, which answers 204 for what the caller cannot see. */
const installationRemovers = (caller: MatrixCaller) => (caller === 'admin' ? 'success' : caller === 'outsider' ? 204 : 403);

/** Only admins of the owning organization; others see the public integration, so 403. */
const ownerAdmins = (caller: MatrixCaller) => (caller === 'admin' ? 'success' : 403);
/** Admin of the target organization (the world's): an outsider cannot see it (404), members without admin 403. */
const targetAdmins = (caller: MatrixCaller) => (caller === 'admin' ? 'success' : caller === 'outsider' ? 404 : 403);

export const integrationFixtures: MatrixFixtures = {
  params: {
    integrationName: publish,
    installationId: installation,
    eventId: async ({ admin }, path) => {
      await admin.api.post(`/integrations/${path.integrationName}/installations`, { organization: admin.organizationId });
      return (await admin.api.get(`/integrations/${path.integrationName}/events`)).body.items[0].id;
    },
  },
  bodies: {
    publishIntegration: (world) => publishBody(world.admin.organizationId),
    installIntegration: (world) => ({ organization: world.admin.organizationId }),
    setIntegrationDevelopmentMode: () => ({ tunnelUrl: 'http://127.0.0.1:9/matrix' }),
    updateIntegrationInstallation: () => ({ externalIds: ['matrix'] }),
    installIntegrationOnSpace: async (world) => ({ space: await contentTreeFixtures.params!.spaceId(world, {}) }),
    installIntegrationOnSite: async (world) => ({ siteId: await siteFixtures.params!.siteId(world, {}) }),
    updateIntegrationSpaceInstallation: () => ({ externalIds: ['matrix'] }),
    updateIntegrationSiteInstallation: () => ({ externalIds: ['matrix'] }),
    queueIntegrationTask: () => ({ task: { type: 'matrix' } }),
    renderIntegrationUIWithPost: renderableOnSpace,
  },
  queries: {
    // The same request as renderIntegrationUIWithPost's body, in the URL as GitBook's renderer sends it.
    renderIntegrationUIWithGet: async (world, path) => ({ request: lzString.compressToEncodedURIComponent(JSON.stringify(await renderableOnSpace(world, path))) }),
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
    disableIntegrationDevelopmentMode: ownerAdmins,
    getIntegrationInstallationById: installationAdmins,
    updateIntegrationInstallation: installationAdmins,
    uninstallIntegration: installationRemovers,
    createIntegrationInstallationToken: ownerAdmins,
    queueIntegrationTask: ownerAdmins,
    // A document of a space of the organization: readers of the space render it; guests and outsiders do not see it.
    renderIntegrationUIWithPost: (caller: MatrixCaller) => (caller === 'guest' || caller === 'outsider' ? 404 : 'success'),
    renderIntegrationUIWithGet: (caller: MatrixCaller) => (caller === 'guest' || caller === 'outsider' ? 404 : 'success'),
    listIntegrationInstallationSpaces: installationAdmins,
    installIntegrationOnSpace: installationAdmins,
    getIntegrationSpaceInstallation: installationAdmins,
    updateIntegrationSpaceInstallation: installationAdmins,
    uninstallIntegrationFromSpace: installationRemovers,
    listIntegrationInstallationSites: installationAdmins,
    installIntegrationOnSite: installationAdmins,
    getIntegrationSiteInstallation: installationAdmins,
    updateIntegrationSiteInstallation: installationAdmins,
    uninstallIntegrationFromSite: installationRemovers,
  },
};

// A v1 script whose `matrix` component renders an empty block (any other component is unknown to it: 404).
const renderingScript = `export default { async fetch(request) {
  const event = await request.json();
  if (event.type !== 'ui_render' || event.componentId !== 'matrix') return new Response('{"error":"Component not found"}', { status: 404 });
  return Response.json({ type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: 'Matrix' }] }, state: {}, props: event.props });
} };`;

/**
 * The body of renderIntegrationUIWithPost (and, compressed, the `request` of renderIntegrationUIWithGet): the integration republished with a rendering component and installed on
 * every space of the world's organization, and a document context on a new space there.
 */
async function renderableOnSpace(world: MatrixWorld, path: Record<string, string>) {
  const { admin } = world;
  await publishAs(admin, path.integrationName, { script: renderingScript });
  const installation = await admin.api.post(`/integrations/${path.integrationName}/installations`, { organization: admin.organizationId });
  const all = await admin.api.patch(`/integrations/${path.integrationName}/installations/${installation.body.id}`, { space_selection: 'all' });
  if (all.status !== 200) throw new Error(`installing ${path.integrationName} on every space failed: ${all.status}`);
  const spaceId = await contentTreeFixtures.params!.spaceId(world, {});
  return { componentId: 'matrix', props: { n: 1 }, context: { type: 'document', theme: 'light', spaceId, editable: false } };
}

/** Publishes `name` for the account's organization with `extra` fields; fails the caller on a non-200. */
export async function publishAs(account: MatrixWorld['admin'], name: string, extra: Record<string, unknown> = {}) {
  const res = await account.api.post(`/integrations/${name}`, { ...publishBody(account.organizationId), ...extra });
  if (res.status !== 200) throw new Error(`publish ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
