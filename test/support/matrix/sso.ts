// Matrix fixtures of SAML single sign-on.
import { idpCertificate } from './sso-certificate.js';
import type { MatrixFixtures, MatrixWorld } from './types.js';

/** A SAML provider of the organization, its id. */
async function samlProvider({ admin }: MatrixWorld, organizationId: string): Promise<string> {
  const res = await admin.api.post(`/orgs/${organizationId}/saml`, {
    label: 'Matrix IdP',
    ssoURL: 'https://idp.test.example/sso',
    entityID: 'https://idp.test.example/entity',
    certificate: idpCertificate,
  });
  return res.body.id;
}

export const ssoFixtures: MatrixFixtures = {
  params: {
    samlProviderId: (world) => samlProvider(world, world.admin.organizationId),
  },
  // The sign-in options of the organization: its SAML providers.
  lists: {
    listSSOProviderLoginsInOrganization: (world, path) => samlProvider(world, path.organizationId),
  },
  bodies: {
    createOrganizationSAMLProvider: () => ({ label: 'Matrix IdP' }),
  },
};
