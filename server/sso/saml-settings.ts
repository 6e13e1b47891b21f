// How this service speaks SAML 2.0 with a provider, through @node-saml/node-saml (xml-crypto underneath
// verifies signatures; @xmldom/xmldom parses the untrusted XML).
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { samlProviders } from '../db/schema/index.js';
import type { serviceUrls } from './service-urls.js';

/**
 * Clocks of the identity provider and ours may differ by this much. The library reads the machine's clock for
 * NotBefore/NotOnOrAfter; our own expiries (requests, codes, remembered assertions) use the app's clock.
 */
export const CLOCK_SKEW_MS = 60_000;
/** How long a sign-in started here may take at the identity provider (password, second factor). */
export const REQUEST_TTL_MS = 10 * 60_000;
/** An accepted assertion without a NotOnOrAfter is remembered this long against replay. */
export const ASSERTION_MEMORY_MS = 24 * 60 * 60_000;

/** The key this service signs its AuthnRequests with, when the operator configured one (SAML_SIGNING_KEY_FILE / SAML_SIGNING_CERT_FILE). */
export interface SamlSigning {
  privateKey: string;
  certificate: string;
}

export type ProviderRow = typeof samlProviders.$inferSelect;
export type ActiveProvider = ProviderRow & { ssoUrl: string; entityId: string; certificate: string };

/** A provider can be used once the identity provider's URL, entity id and certificate are all known. */
export function isActive(row: Pick<ProviderRow, 'ssoUrl' | 'entityId' | 'certificate'>): row is ActiveProvider {
  return row.ssoUrl !== null && row.entityId !== null && row.certificate !== null;
}

/**
 * The library configured for one provider. InResponseTo is checked by us afterwards against the requests
 * stored in the database (saml-sign-in.ts), so that several processes agree and each request is answered
 * once; the library checks signatures, time windows (with CLOCK_SKEW_MS) and the audience.
 */
export function samlFor(
  provider: Pick<ProviderRow, 'ssoUrl' | 'certificate'>,
  service: ReturnType<typeof serviceUrls>,
  signing: SamlSigning | undefined,
  requestId?: string,
): SAML {
  return new SAML({
    entryPoint: provider.ssoUrl ?? undefined,
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    audience: service.entityID,
    // The metadata route has no provider certificate to check against when the provider is still pending.
    idpCert: provider.certificate ?? 'none',
    // Either the whole Response or the Assertion must carry a valid signature by the provider's certificate.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    ...(requestId !== undefined && { generateUniqueId: () => requestId }),
    ...(signing && { privateKey: signing.privateKey, publicCert: signing.certificate, signatureAlgorithm: 'sha256' as const }),
  });
}
