// List fills of docs sites: sites, their sections, section groups, site spaces, redirects and the template
// conditions of their adaptive schema.
import type { Account } from '../harness.js';
import { created, newSpace, times, wordFor, type ListCase } from './types.js';

/** A new site of the admin's organization, with no space; its path. */
async function newSite(admin: Account): Promise<string> {
  const site = await created(admin, `/orgs/${admin.organizationId}/sites`, {});
  return `/orgs/${admin.organizationId}/sites/${site.id}`;
}

export const siteLists: ListCase[] = [
  {
    operationId: 'listSites',
    fill: async (_h, admin, n) => {
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/sites`, {}));
      return `/orgs/${admin.organizationId}/sites`;
    },
  },
  {
    operationId: 'listSiteSections',
    fill: async (_h, admin, n) => {
      const site = await newSite(admin);
      await times(n, async () => created(admin, `${site}/sections`, { spaceId: await newSpace(admin) }));
      return `${site}/sections`;
    },
  },
  {
    operationId: 'listSiteSectionGroups',
    fill: async (_h, admin, n) => {
      const site = await newSite(admin);
      await times(n, (k) => created(admin, `${site}/section-groups`, { title: `Group ${k}` }));
      return `${site}/section-groups`;
    },
  },
  {
    operationId: 'listSiteSpaces',
    fill: async (_h, admin, n) => {
      const site = await newSite(admin);
      await times(n, async () => created(admin, `${site}/site-spaces`, { spaceId: await newSpace(admin) }));
      return `${site}/site-spaces`;
    },
  },
  {
    operationId: 'listSiteRedirects',
    fill: async (_h, admin, n) => {
      const site = await newSite(admin);
      // In one bulk upsert, which the harness holds to its statement budget whatever the number of redirects.
      const redirects = Array.from({ length: n }, (_, k) => ({ source: `/old/${k}`, intent: 'live', destination: { kind: 'external', url: `https://example.com/new/${k}` } }));
      await created(admin, `${site}/redirects`, { redirects }, 'put');
      return `${site}/redirects`;
    },
  },
  {
    operationId: 'listSiteAdaptiveTemplateConditions',
    fill: async (_h, admin, n) => {
      // A boolean claim gives one ready-made condition (the visitor has it).
      const site = await newSite(admin);
      const properties = Object.fromEntries(Array.from({ length: n }, (_, k) => [wordFor(k), { type: 'boolean' }]));
      await created(admin, `${site}/adaptive-schema`, { jsonSchema: { type: 'object', properties, additionalProperties: false } }, 'put');
      return `${site}/adaptive-schema/template-conditions`;
    },
  },
];
