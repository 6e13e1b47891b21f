import type { ssoOperations } from '../../contract/sso.js';
import type { AppHandlers } from '../handler-types.js';
import {
  createSAMLProvider,
  deleteSAMLProvider,
  getSAMLProvider,
  listSAMLProviders,
  listSSOLogins,
  updateSAMLProvider,
} from './saml.store.js';

export const ssoHandlers = {
  async listSAMLProvidersInOrganizationById({ grant, query }, ctx) {
    return { status: 200, body: await listSAMLProviders(ctx, grant, query) };
  },
  async createOrganizationSAMLProvider({ grant, body }, ctx) {
    const provider = await createSAMLProvider(ctx, grant, body);
    return { status: 201, body: provider, headers: { Location: provider.urls.location } };
  },
  async getOrganizationSAMLProviderById({ grant, params }, ctx) {
    return { status: 200, body: await getSAMLProvider(ctx, grant, params.samlProviderId) };
  },
  async deleteOrganizationSAMLProvider({ grant, params }, ctx) {
    await deleteSAMLProvider(ctx, grant, params.samlProviderId);
    return { status: 204 };
  },
  async updateOrganizationSAMLProvider({ grant, params, body }, ctx) {
    return { status: 200, body: await updateSAMLProvider(ctx, grant, params.samlProviderId, body) };
  },
  async listSSOProviderLoginsInOrganization({ params }, ctx) {
    return { status: 200, body: await listSSOLogins(ctx, params.organizationId) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof ssoOperations>>;
