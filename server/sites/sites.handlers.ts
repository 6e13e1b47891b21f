import type { siteSectionGroupOperations } from '../../contract/site-section-groups.js';
import type { siteSectionOperations } from '../../contract/site-sections.js';
import type { siteSpaceOperations } from '../../contract/site-spaces.js';
import type { siteOperations } from '../../contract/sites.js';
import type { AppHandlers } from '../handler-types.js';
import { getAdaptiveSchema, listTemplateConditions, putAdaptiveSchema } from './adaptive-schema.js';
import { getPublished } from './published.js';
import {
  addSectionGroup,
  addSectionToGroup,
  deleteSectionGroup,
  listSectionGroups,
  moveSectionGroup,
  removeSectionFromGroup,
  updateSectionGroup,
} from './site-section-groups.store.js';
import { addSection, deleteSection, listSiteSections, moveSection, updateSection } from './site-sections.store.js';
import { addSiteSpace, deleteSiteSpace, listSiteSpaces, moveSiteSpace, updateSiteSpace } from './site-spaces.store.js';
import { deleteSiteSpaceCustomization, getSiteSpaceCustomization, overrideSiteSpaceCustomization } from './site-space-customization.js';
import { createSite, deleteSite, getSite, listSites, publishSite, unpublishSite, updateSite } from './sites.store.js';
import { getCustomization, putCustomization } from './customization.js';
import { getPublishingAuth, regeneratePublishingAuth, updatePublishingAuth } from './publishing-auth.js';

type Ops = keyof typeof siteOperations | keyof typeof siteSectionOperations | keyof typeof siteSectionGroupOperations | keyof typeof siteSpaceOperations;

export const siteHandlers = {
  async listSites({ grant, query }, ctx) {
    return { status: 200, body: await listSites(ctx, grant, query) };
  },
  async createSite({ grant, body }, ctx) {
    const site = await createSite(ctx, grant, body);
    return { status: 201, body: site, headers: { Location: site.urls.location } };
  },
  async getSiteById({ grant, params }, ctx) {
    return { status: 200, body: await getSite(ctx, grant, params.siteId) };
  },
  async deleteSiteById({ grant, params }, ctx) {
    await deleteSite(ctx, grant, params.siteId);
    return { status: 204 };
  },
  async updateSiteById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateSite(ctx, grant, params.siteId, body) };
  },
  async publishSite({ grant, params }, ctx) {
    return { status: 200, body: await publishSite(ctx, grant, params.siteId) };
  },
  async unpublishSite({ grant, params }, ctx) {
    return { status: 200, body: await unpublishSite(ctx, grant, params.siteId) };
  },
  async getSiteCustomizationById({ grant, params }, ctx) {
    return { status: 200, body: await getCustomization(ctx, grant, params.siteId) };
  },
  async updateSiteCustomizationById({ grant, params, body }, ctx) {
    return { status: 200, body: await putCustomization(ctx, grant, params.siteId, body) };
  },
  async getSitePublishingAuthById({ grant, params }, ctx) {
    return { status: 200, body: await getPublishingAuth(ctx, grant, params.siteId) };
  },
  async updateSitePublishingAuthById({ grant, params, body }, ctx) {
    return { status: 200, body: await updatePublishingAuth(ctx, grant, params.siteId, body) };
  },
  async regenerateSitePublishingAuthById({ grant, params }, ctx) {
    return { status: 200, body: await regeneratePublishingAuth(ctx, grant, params.siteId) };
  },
  async getPublishedContentSite({ grant, params, query }, ctx) {
    return { status: 200, body: await getPublished(ctx, grant, params.siteId, query.shareKey) };
  },
  async getSiteAdaptiveSchema({ grant, params }, ctx) {
    return { status: 200, body: await getAdaptiveSchema(ctx, grant, params.siteId) };
  },
  async updateSiteAdaptiveSchema({ grant, params, body }, ctx) {
    return { status: 200, body: await putAdaptiveSchema(ctx, grant, params.siteId, body.jsonSchema) };
  },
  async listSiteAdaptiveTemplateConditions({ grant, params }, ctx) {
    return { status: 200, body: await listTemplateConditions(ctx, grant, params.siteId) };
  },

  async listSiteSections({ grant, params, query }, ctx) {
    return { status: 200, body: await listSiteSections(ctx, grant, params.siteId, query) };
  },
  async addSectionToSite({ grant, params, body }, ctx) {
    return { status: 200, body: await addSection(ctx, grant, params.siteId, body) };
  },
  async deleteSiteSectionById({ grant, params }, ctx) {
    await deleteSection(ctx, grant, params.siteId, params.siteSectionId);
    return { status: 204 };
  },
  async updateSiteSectionById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateSection(ctx, grant, params.siteId, params.siteSectionId, body) };
  },
  async moveSiteSection({ grant, params, body }, ctx) {
    return { status: 200, body: await moveSection(ctx, grant, params.siteId, params.siteSectionId, body.position) };
  },

  async listSiteSectionGroups({ grant, params, query }, ctx) {
    return { status: 200, body: await listSectionGroups(ctx, grant, params.siteId, query) };
  },
  async addSectionGroupToSite({ grant, params, body }, ctx) {
    return { status: 200, body: await addSectionGroup(ctx, grant, params.siteId, body) };
  },
  async deleteSiteSectionGroupById({ grant, params }, ctx) {
    await deleteSectionGroup(ctx, grant, params.siteId, params.siteSectionGroupId);
    return { status: 204 };
  },
  async updateSiteSectionGroupById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateSectionGroup(ctx, grant, params.siteId, params.siteSectionGroupId, body) };
  },
  async addSectionToSiteSectionGroup({ grant, params, body }, ctx) {
    return { status: 200, body: await addSectionToGroup(ctx, grant, params.siteId, params.siteSectionGroupId, body.sectionId) };
  },
  async removeSectionFromSiteSectionGroup({ grant, params }, ctx) {
    await removeSectionFromGroup(ctx, grant, params.siteId, params.siteSectionGroupId, params.siteSectionId);
    return { status: 204 };
  },
  async moveSiteSectionGroup({ grant, params, body }, ctx) {
    return { status: 200, body: await moveSectionGroup(ctx, grant, params.siteId, params.siteSectionGroupId, body.position) };
  },

  async listSiteSpaces({ grant, params, query }, ctx) {
    return { status: 200, body: await listSiteSpaces(ctx, grant, params.siteId, query) };
  },
  async addSpaceToSite({ grant, params, body }, ctx) {
    return { status: 200, body: await addSiteSpace(ctx, grant, params.siteId, body) };
  },
  async deleteSiteSpaceById({ grant, params }, ctx) {
    await deleteSiteSpace(ctx, grant, params.siteId, params.siteSpaceId);
    return { status: 204 };
  },
  async updateSiteSpaceById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateSiteSpace(ctx, grant, params.siteId, params.siteSpaceId, body) };
  },
  async moveSiteSpace({ grant, params, body }, ctx) {
    return { status: 200, body: await moveSiteSpace(ctx, grant, params.siteId, params.siteSpaceId, body.position) };
  },
  async getSiteSpaceCustomizationById({ grant, params }, ctx) {
    return { status: 200, body: await getSiteSpaceCustomization(ctx, grant, params.siteId, params.siteSpaceId) };
  },
  async overrideSiteSpaceCustomizationById({ grant, params, body }, ctx) {
    return { status: 200, body: await overrideSiteSpaceCustomization(ctx, grant, params.siteId, params.siteSpaceId, body) };
  },
  async deleteSiteSpaceCustomizationById({ grant, params }, ctx) {
    await deleteSiteSpaceCustomization(ctx, grant, params.siteId, params.siteSpaceId);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, Ops>>;
