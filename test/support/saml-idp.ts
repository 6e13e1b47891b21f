// A stand-in SAML identity provider for the SSO tests: a fresh RSA key with a self-signed X.509 certificate
// (built with node:crypto: the DER below is the minimal RFC 5280 certificate), and Responses signed with
// xml-crypto the way real identity providers sign them (enveloped, exclusive c14n, RSA-SHA256).
import { createPrivateKey, generateKeyPairSync, randomBytes, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

// --- DER, just enough for a certificate ---
function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}
const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));
// DER's minimal two's-complement form: no leading 0x00 unless the next byte's top bit needs it (a random
// serial starting 0x00 0x1f… was refused once in 512 as "illegal padding"), and one when the top bit is set.
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && !(bytes[start + 1] & 0x80)) start++;
  const minimal = bytes.subarray(start);
  return der(0x02, minimal[0] & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}
const utf8 = (s: string) => der(0x0c, Buffer.from(s, 'utf8'));
const utcTime = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}
const sha256WithRsa = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

/** A self-signed certificate for `key` (RSA), named CN=`commonName`, valid from a day ago for a year. */
function selfSignedCertificate(key: KeyObject, publicKey: KeyObject, commonName: string): string {
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const now = Date.now();
  const tbs = seq(
    der(0xa0, integer(Buffer.from([2]))), // v3
    integer(randomBytes(8)),
    sha256WithRsa,
    name,
    seq(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 365 * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, key);
  const certificate = seq(tbs, sha256WithRsa, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate.toString('base64').replace(/.{64}/g, '$&\n').trim()}\n-----END CERTIFICATE-----\n`;
  return new X509Certificate(pem).toString(); // parsed back: a malformed certificate fails here, in the test support
}

export interface TestIdp {
  entityID: string;
  ssoURL: string;
  certificate: string;
  privateKey: string;
}

/** A new identity provider with its own key and certificate. */
export function newIdp(name = 'idp.test.example'): TestIdp {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    entityID: `https://${name}/entity/${randomUUID()}`,
    ssoURL: `https://${name}/sso`,
    certificate: selfSignedCertificate(privateKey, publicKey, name),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** A signing-only key and certificate, e.g. for this service's own AuthnRequests. */
export function newKeyPair(name = 'sp.test.example'): { privateKey: string; certificate: string } {
  const idp = newIdp(name);
  return { privateKey: idp.privateKey, certificate: idp.certificate };
}

export interface ResponseOptions {
  /** Where the response says it goes (Destination and Recipient). */
  acsURL: string;
  /** The audience: the service's entity id. */
  audience: string;
  email: string;
  /** The AuthnRequest answered; absent: an unsolicited (IdP-initiated) response. */
  inResponseTo?: string;
  /** What is signed: the assertion (default), the whole response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  /** Sign with this key instead of the provider's (a wrong certificate). */
  signWith?: string;
  issuer?: string;
  recipient?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  attributes?: Record<string, string>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function signElement(xml: string, localName: 'Assertion' | 'Response', privateKey: string, certificate: string): string {
  const signer = new SignedXml({
    privateKey: createPrivateKey(privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicCert: certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const element = `/*[local-name(.)='${localName}']`;
  const path = localName === 'Response' ? element : `/*[local-name(.)='Response']${element}`;
  signer.addReference({
    xpath: path,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  // The signature goes right after the element's Issuer, as the SAML schema requires.
  signer.computeSignature(xml, { location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** A base64 SAMLResponse for the HTTP-POST binding. */
export function samlResponse(idp: TestIdp, o: ResponseOptions): string {
  const now = Date.now();
  const issueInstant = new Date(now).toISOString();
  const notBefore = (o.notBefore ?? new Date(now - 30_000)).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now + 5 * 60_000)).toISOString();
  const issuer = esc(o.issuer ?? idp.entityID);
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
  const attributes = Object.entries(o.attributes ?? {})
    .map(([name, value]) => `<saml:Attribute Name="${esc(name)}"><saml:AttributeValue>${esc(value)}</saml:AttributeValue></saml:Attribute>`)
    .join('');
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomUUID()}" Version="2.0" IssueInstant="${issueInstant}" Destination="${esc(o.acsURL)}"${inResponseTo}>` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${esc(o.assertionId ?? `_${randomUUID()}`)}" Version="2.0" IssueInstant="${issueInstant}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(o.recipient ?? o.acsURL)}"${inResponseTo}/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issueInstant}" SessionIndex="_${randomUUID()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`;
  const key = o.signWith ?? idp.privateKey;
  const mode = o.sign ?? 'assertion';
  const signed = mode === 'none' ? xml : signElement(xml, mode === 'assertion' ? 'Assertion' : 'Response', key, idp.certificate);
  return Buffer.from(signed, 'utf8').toString('base64');
}
