// The key this service signs its SAML AuthnRequests with, read once at start from the files the operator
// names (SAML_SIGNING_KEY_FILE, SAML_SIGNING_CERT_FILE). A key that does not match its certificate stops
// the start with a message: identity providers would refuse every request signed with it.
import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { SamlSigning } from './saml-settings.js';

export function readSamlSigning(files: { keyFile: string; certFile: string }): SamlSigning {
  const read = (file: string, variable: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`Invalid configuration: ${variable}: cannot read ${file} (${(err as Error).message})`);
    }
  };
  const privateKey = read(files.keyFile, 'SAML_SIGNING_KEY_FILE');
  const certificate = read(files.certFile, 'SAML_SIGNING_CERT_FILE');
  let key;
  try {
    key = createPrivateKey(privateKey);
  } catch {
    throw new Error('Invalid configuration: SAML_SIGNING_KEY_FILE: not a PEM private key');
  }
  let cert;
  try {
    cert = new X509Certificate(certificate);
  } catch {
    throw new Error('Invalid configuration: SAML_SIGNING_CERT_FILE: not a PEM X.509 certificate');
  }
  if (!cert.checkPrivateKey(key)) throw new Error('Invalid configuration: SAML_SIGNING_KEY_FILE does not match the certificate of SAML_SIGNING_CERT_FILE');
  return { privateKey, certificate: cert.toString() };
}
