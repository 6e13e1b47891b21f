// List fills of integrations: published integrations, their installations in organizations, their events,
// and an installation's spaces and sites.
import { publishAs } from '../matrix/integrations.js';
import type { Account, Harness } from '../harness.js';
import { created, each, newSpace, times, unique, type ListCase } from './types.js';

/** A public integration published by the admin's organization; its name. */
async function published(admin: Account, name = unique('budget')): Promise<string> {
  await publishAs(admin, name);
  return name;
}

/** Installs the integration in `n` organizations (the admin's, then new ones, each by its own admin). */
async function installedIn(h: Harness, admin: Account, name: string, n: number): Promise<void> {
  const admins = [admin, ...(await each(n - 1, () => h.newAdmin()))];
  for (const account of admins) await created(account, `/integrations/${name}/installations`, { organization: account.organizationId });
}

/** An installation in the admin's organization, installed on `n` new spaces (sites) of it; its id. */
async function installedOnTargets(admin: Account, name: string, kind: 'space' | 'site', n: number): Promise<string> {
  const installation = await created(admin, `/integrations/${name}/installations`, { organization: admin.organizationId });
  await times(n, async () => {
    const target =
      kind === 'space' ? { space: await newSpace(admin) } : { siteId: (await created(admin, `/orgs/${admin.organizationId}/sites`, {})).id };
    await created(admin, `/integrations/${name}/installations/${installation.id}/${kind}s`, target);
  });
  return installation.id;
}

export const integrationLists: ListCase[] = [
  {
    operationId: 'listIntegrations',
    fill: async (_h, admin, n) => {
      // The list holds every public integration of the run: the search keeps this fill's own.
      const prefix = unique('listed');
      await times(n, (k) => published(admin, `${prefix}-${k}`));
      return { path: '/integrations', query: { search: prefix } };
    },
  },
  {
    operationId: 'listIntegrationInstallations',
    fill: async (h, admin, n) => {
      const name = await published(admin);
      await installedIn(h, admin, name, n);
      return `/integrations/${name}/installations`;
    },
  },
  {
    operationId: 'listIntegrationEvents',
    fill: async (h, admin, n) => {
      // Each installation is one event.
      const name = await published(admin);
      await installedIn(h, admin, name, n);
      return `/integrations/${name}/events`;
    },
  },
  ...(['space', 'site'] as const).flatMap((kind): ListCase[] => {
    const Kind = kind === 'space' ? 'Space' : 'Site';
    return [
      {
        operationId: `listIntegration${Kind}Installations`,
        fill: async (_h, admin, n) => {
          const name = await published(admin);
          await installedOnTargets(admin, name, kind, n);
          return `/integrations/${name}/${kind}s`;
        },
      },
      {
        operationId: `listIntegrationInstallation${Kind}s`,
        fill: async (_h, admin, n) => {
          const name = await published(admin);
          const installation = await installedOnTargets(admin, name, kind, n);
          return `/integrations/${name}/installations/${installation}/${kind}s`;
        },
      },
    ];
  }),
];
