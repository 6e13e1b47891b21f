// Where this server serves SAML sign-in (beside the API: identity providers and browsers reach it without a
// token; at the root of the standalone server, under the mount of a host's). The provider's `service` URLs and the sign-in options are built from these paths.
import type { Urls } from '../urls.js';

/** Express paths of the sign-in routes (server/sso/saml.routes.ts). */
export const SSO_PATHS = {
  start: '/auth/saml/:providerId/start',
  acs: '/auth/saml/:providerId/acs',
  metadata: '/auth/saml/:providerId/metadata',
  token: '/auth/saml/token',
  signedIn: '/auth/saml/signed-in',
} as const;

/** Where the routes beside the API are served: `PUBLIC_URL` for the standalone server, with the mount path when a host mounted the API. */
export function publicBase(urls: Urls): string {
  return urls.root('');
}

/** The service-provider URLs of a provider: where the identity provider posts assertions, where sign-in starts, our entity id (which serves our metadata). */
export function serviceUrls(urls: Urls, id: string) {
  const base = `${publicBase(urls)}/auth/saml/${encodeURIComponent(id)}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** Where a sign-in lands when the start URL names no `returnTo`: a page of this server showing the one-time code. */
export function defaultReturnTo(urls: Urls): string {
  return `${publicBase(urls)}${SSO_PATHS.signedIn}`;
}

/** The token-exchange URL. */
export function tokenUrl(urls: Urls): string {
  return `${publicBase(urls)}${SSO_PATHS.token}`;
}
