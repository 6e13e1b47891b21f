// Certificate checks for SAML providers: the PEM must hold a real X.509 certificate.
import { X509Certificate } from 'node:crypto';
import { BadRequest } from '../errors.js';

/** The certificate in normalized PEM form; throws BadRequest naming `field` when it is not a parsable X.509 certificate. */
export function checkCertificate(pem: string, field = 'body.certificate'): string {
  try {
    const cert = new X509Certificate(pem.trim());
    return cert.toString().trim();
  } catch {
    throw new BadRequest(`Invalid request: ${field}: not a valid X.509 certificate`);
  }
}
