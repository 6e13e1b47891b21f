// The SAML 2.0 Web Browser SSO profile, service-provider side: start (HTTP-Redirect AuthnRequest), the
// assertion consumer (HTTP-POST Response), and the service's metadata.
//
// Only sign-ins started here are accepted (SP-initiated): a Response must answer, by InResponseTo, an
// AuthnRequest of this provider sent within REQUEST_TTL_MS and not answered yet. IdP-initiated (unsolicited)
// responses are refused: nothing ties them to the browser that posts them, so they allow login injection.
import { randomUUID } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { samlAssertions, samlProviders, samlRequests } from '../db/schema/index.js';
import type { Urls } from '../urls.js';
import { ASSERTION_MEMORY_MS, CLOCK_SKEW_MS, isActive, REQUEST_TTL_MS, samlFor, type ActiveProvider, type SamlSigning } from './saml-settings.js';
import { defaultReturnTo, publicBase, serviceUrls } from './service-urls.js';
import { issueSignInCode, withCode } from './sign-in-codes.js';
import { classifyLibraryError, rejected, SignInRefused } from './sign-in-refused.js';
import { provisionMember } from './sso-provisioning.js';

export interface SignInDeps {
  db: Db;
  now: () => Date;
  urls: Urls;
  log: Logger;
  signing?: SamlSigning;
}

/** The provider `id`, usable for sign-in: 404 when unknown, 403 while pending. */
export async function loadProvider(db: Db, id: string): Promise<ActiveProvider> {
  const [row] = await db.select().from(samlProviders).where(eq(samlProviders.id, id));
  if (!row) throw new SignInRefused(404, 'unknown-provider', `SAML provider ${id} not found`);
  if (!isActive(row)) {
    throw new SignInRefused(403, 'provider-not-active', `SAML provider ${id} is pending: its ssoURL, entityID or certificate is not set, so nobody can sign in with it`);
  }
  return row;
}

/**
 * Where the browser goes back with its code: a URL on the origin of this service or of its web app (no open
 * redirect that would hand the code to someone else), by default this service's own signed-in page.
 */
export function checkReturnTo(urls: Urls, value: unknown): string {
  if (value === undefined || value === '') return defaultReturnTo(urls);
  const refuse = () => new SignInRefused(400, 'bad-return-to', 'Invalid request: query.returnTo: must be an absolute URL on the origin of this service or of its web app');
  if (typeof value !== 'string' || value.length > 2048) throw refuse();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse();
  }
  const allowed = [new URL(publicBase(urls)).origin, new URL(urls.app('/')).origin];
  if (!allowed.includes(url.origin)) throw refuse();
  return url.toString();
}

/** Records a new AuthnRequest and returns the identity provider's URL carrying it (and, as RelayState, its id). */
export async function startSignIn(deps: SignInDeps, providerId: string, returnTo: unknown): Promise<string> {
  const provider = await loadProvider(deps.db, providerId);
  const target = checkReturnTo(deps.urls, returnTo);
  const now = deps.now();
  // An NCName (xs:ID): it must not start with a digit.
  const requestId = `_${randomUUID()}`;
  await deps.db.delete(samlRequests).where(lt(samlRequests.expiresAt, now));
  await deps.db.insert(samlRequests).values({
    id: requestId,
    providerId: provider.id,
    returnTo: target,
    createdAt: now,
    expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
  });
  return samlFor(provider, serviceUrls(deps.urls, provider.id), deps.signing, requestId).getAuthorizeUrlAsync(requestId, undefined, {});
}

/** This service's metadata for the provider `id` (known providers, pending ones too: the metadata is entered in the identity provider before it is complete). */
export async function serviceMetadata(deps: SignInDeps, providerId: string): Promise<string> {
  const [row] = await deps.db.select().from(samlProviders).where(eq(samlProviders.id, providerId));
  if (!row) throw new SignInRefused(404, 'unknown-provider', `SAML provider ${providerId} not found`);
  return samlFor(row, serviceUrls(deps.urls, row.id), deps.signing).generateServiceProviderMetadata(null, deps.signing?.certificate ?? null);
}

type Xml2Js = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: Xml2Js | undefined, name: string): Xml2Js[] => (Array.isArray(node?.[name]) ? (node[name] as Xml2Js[]) : []);

/** The SubjectConfirmationData of the assertion's bearer confirmations. */
function bearerConfirmations(assertion: Xml2Js | undefined): Record<string, string>[] {
  return children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
    .filter((c) => c.$?.Method === 'urn:oasis:names:tc:SAML:2.0:cm:bearer')
    .flatMap((c) => children(c, 'SubjectConfirmationData').map((d) => d.$ ?? {}));
}

/** Until when the assertion could be presented: its latest NotOnOrAfter (plus the skew), else ASSERTION_MEMORY_MS. */
function assertionExpiry(assertion: Xml2Js | undefined, confirmations: Record<string, string>[], now: Date): Date {
  const limits = [children(assertion, 'Conditions')[0]?.$?.NotOnOrAfter, ...confirmations.map((c) => c.NotOnOrAfter)]
    .map((v) => (v ? Date.parse(v) : NaN))
    .filter((ms) => Number.isFinite(ms));
  const latest = limits.length > 0 ? Math.max(...limits) + CLOCK_SKEW_MS : now.getTime() + ASSERTION_MEMORY_MS;
  return new Date(Math.max(latest, now.getTime()));
}

const Email = z.email().max(320);
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'urn:oid:2.16.840.1.113730.3.1.241'];

const firstString = (value: unknown): string | undefined => {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

/** The person's email: an email attribute, else a NameID that is an email. */
function emailOf(profile: Record<string, unknown>): string {
  for (const candidate of [...EMAIL_ATTRIBUTES.map((a) => firstString(profile[a])), firstString(profile.nameID)]) {
    if (candidate !== undefined && Email.safeParse(candidate).success) return candidate;
  }
  throw rejected('no-email', 'the assertion carries no email (an email attribute or an email NameID)');
}

function displayNameOf(profile: Record<string, unknown>, email: string): string {
  const named = NAME_ATTRIBUTES.map((a) => firstString(profile[a])).find((v) => v !== undefined);
  const given = firstString(profile.givenName ?? profile.firstName);
  const family = firstString(profile.sn ?? profile.surname ?? profile.lastName);
  const name = named ?? ([given, family].filter(Boolean).join(' ') || email.split('@')[0]);
  return name.slice(0, 100);
}

export interface SignInResult {
  /** Where to send the browser: the request's return URL with the one-time code. */
  redirect: string;
  userId: string;
  organizationId: string;
  joined: boolean;
}

/**
 * Validates a Response posted to the provider's ACS URL and signs its person in. Refusals throw
 * SignInRefused naming the reason; nothing is written unless everything holds.
 */
export async function completeSignIn(deps: SignInDeps, providerId: string, body: unknown): Promise<SignInResult> {
  const samlResponse = (body as { SAMLResponse?: unknown } | undefined)?.SAMLResponse;
  if (typeof samlResponse !== 'string' || samlResponse.trim() === '') {
    throw new SignInRefused(400, 'malformed-request', 'Invalid request: body.SAMLResponse: required (HTTP-POST binding, form-encoded)');
  }
  const provider = await loadProvider(deps.db, providerId);
  const service = serviceUrls(deps.urls, provider.id);
  let profile: Record<string, unknown> | null;
  try {
    ({ profile } = await samlFor(provider, service, deps.signing).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw classifyLibraryError(err);
  }
  if (!profile) throw rejected('invalid-response', 'it holds no assertion');
  if (profile.issuer !== provider.entityId) {
    throw rejected('wrong-issuer', "not issued by the provider's entity id", `issuer ${String(profile.issuer)}, expected ${provider.entityId}`);
  }
  const assertion = (profile.getAssertion as (() => { Assertion?: Xml2Js }) | undefined)?.()?.Assertion;
  const confirmations = bearerConfirmations(assertion);
  if (!confirmations.some((c) => c.Recipient === service.acsURL)) {
    const seen = confirmations.map((c) => c.Recipient ?? '(none)').join(', ') || '(no bearer confirmation)';
    throw rejected('wrong-recipient', "not addressed to this provider's ACS URL", `recipient ${seen}, expected ${service.acsURL}`);
  }
  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
  if (!inResponseTo) throw rejected('unsolicited', 'it answers no sign-in started here (IdP-initiated sign-in is not accepted)');
  if (confirmations.some((c) => c.InResponseTo !== undefined && c.InResponseTo !== inResponseTo)) {
    throw rejected('unknown-request', 'its subject confirmation answers another request');
  }
  const assertionId = assertion?.$?.ID;
  if (!assertionId) throw rejected('invalid-response', 'its assertion has no ID');
  const email = emailOf(profile);
  const displayName = displayNameOf(profile, email);
  const now = deps.now();

  return deps.db.transaction(async (txDb) => {
    const tx = txDb as unknown as Db;
    await tx.delete(samlAssertions).where(lt(samlAssertions.expiresAt, now));
    const remembered = await tx
      .insert(samlAssertions)
      .values({ providerId: provider.id, assertionId, expiresAt: assertionExpiry(assertion, confirmations, now) })
      .onConflictDoNothing()
      .returning({ id: samlAssertions.assertionId });
    if (remembered.length === 0) throw rejected('replayed', 'this assertion was already used', `assertion ${assertionId}`);
    const [request] = await tx
      .delete(samlRequests)
      .where(and(eq(samlRequests.id, inResponseTo), eq(samlRequests.providerId, provider.id), gt(samlRequests.expiresAt, now)))
      .returning();
    if (!request) {
      throw rejected('unknown-request', 'it answers no pending sign-in of this provider (unknown, expired or already answered)', `InResponseTo ${inResponseTo}`);
    }
    const person = await provisionMember(tx, provider, email, displayName, now);
    const code = await issueSignInCode(tx, { userId: person.userId, organizationId: provider.organizationId, providerId: provider.id }, now);
    return { redirect: withCode(request.returnTo, code), userId: person.userId, organizationId: provider.organizationId, joined: person.joined };
  });
}
