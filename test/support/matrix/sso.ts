// Matrix fixtures of SAML single sign-on.
import { idpCertificate } from './sso-certificate.js';
import type { MatrixFixtures } from './types.js';

export const ssoFixtures: MatrixFixtures = {
  params: {
    samlProviderId: async ({ admin }) =>
      (
        await admin.api.post(`/orgs/${admin.organizationId}/saml`, {
          label: 'Matrix IdP',
          ssoURL: 'https://idp.test.example/sso',
          entityID: 'https://idp.test.example/entity',
          certificate: idpCertificate,
        })
      ).body.id,
  },
  bodies: {
    createOrganizationSAMLProvider: () => ({ label: 'Matrix IdP' }),
  },
};
