// Matrix fixtures of docs sites: sites (published, with an adaptive schema, so both can be read), sections, section
// groups and site spaces, each created fresh in the site chosen for the call.
import type { MatrixFixtures, MatrixWorld } from './types.js';

const adaptiveSchema = {
  type: 'object',
  // As GitBook's SiteAdaptiveJSONSchema has it: every claim described.
  properties: { isBetaUser: { type: 'boolean', description: 'Whether the visitor tried the beta.' } },
  additionalProperties: false,
};

async function newSpace({ admin }: MatrixWorld): Promise<string> {
  return (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Matrix site space' })).body.id;
}

function sitePath(world: MatrixWorld, path: Record<string, string>): string {
  return `/orgs/${world.admin.organizationId}/sites/${path.siteId}`;
}

async function newSection(world: MatrixWorld, path: Record<string, string>): Promise<string> {
  return (await world.admin.api.post(`${sitePath(world, path)}/sections`, { spaceId: await newSpace(world) })).body.id;
}

async function newRootSiteSpace(world: MatrixWorld, path: Record<string, string>): Promise<string> {
  return (await world.admin.api.post(`${sitePath(world, path)}/site-spaces`, { spaceId: await newSpace(world) })).body.id;
}

export const siteFixtures: MatrixFixtures = {
  params: {
    siteId: async (world) => {
      const { admin } = world;
      const site = (await admin.api.post(`/orgs/${admin.organizationId}/sites`, { title: 'Matrix', spaces: [await newSpace(world)] })).body;
      await admin.api.put(`/orgs/${admin.organizationId}/sites/${site.id}/adaptive-schema`, { jsonSchema: adaptiveSchema });
      // Published, so that what a published site answers (its profile, getPublishedContentSite) can be read.
      await admin.api.post(`/orgs/${admin.organizationId}/sites/${site.id}/publish`);
      return site.id;
    },
    siteSectionId: newSection,
    siteSectionGroupId: async (world, path) =>
      (await world.admin.api.post(`${sitePath(world, path)}/section-groups`, { title: 'Matrix group' })).body.id,
    // The site has no sections, so this site space is at its root, next to the one the site was created with.
    siteSpaceId: newRootSiteSpace,
  },
  bodies: {
    addSectionToSite: (world) => newSpace(world).then((spaceId) => ({ spaceId })),
    addSpaceToSite: (world) => newSpace(world).then((spaceId) => ({ spaceId })),
    addSectionGroupToSite: () => ({ title: 'Matrix group' }),
    addSectionToSiteSectionGroup: async (world, path) => ({ sectionId: await newSection(world, path) }),
    updateSiteAdaptiveSchema: () => ({ jsonSchema: adaptiveSchema }),
    updateSitePublishingAuthById: () => ({ backend: 'custom', fallbackURL: 'https://auth.test.example/docs-login' }),
    moveSiteSection: async (world, path) => ({ position: { after: { type: 'site-section', siteSection: await newSection(world, path) } } }),
    moveSiteSectionGroup: async (world, path) => ({ position: { before: { type: 'site-section', id: await newSection(world, path) } } }),
    moveSiteSpace: async (world, path) => ({ position: { before: { type: 'site-space', siteSpace: await newRootSiteSpace(world, path) } } }),
  },
};
