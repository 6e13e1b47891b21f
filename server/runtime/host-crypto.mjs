// crypto.subtle for the sandbox, done by Node's own Web Crypto (node:crypto's webcrypto): the prelude
// (prelude-crypto.mjs) sends each call here as JSON text and gets JSON text back. Nothing is implemented
// here but the crossing:
// - bytes cross as `{ "$b": base64 }` (top-level results become ArrayBuffers in the sandbox, bytes inside
//   an algorithm, as RSA's publicExponent, Uint8Arrays);
// - a CryptoKey crosses as `{ "$k": { type, algorithm, extractable, usages, material: { format, data } } }`:
//   the sandbox holds a key's material (what it was imported from, or its export when Node made it) out of
//   the script's reach, and each call imports it here again. No key is kept on this side, so nothing a
//   script makes outlives its sandbox or escapes its memory limit;
// - an error crosses as `{ "error": { name, message } }` (DOMException's name: OperationError, DataError...).
// The algorithms are those workerd offers (ALGORITHMS); Node's others (Ed448, X448, ML-DSA, ChaCha20...)
// are refused as workerd refuses them. Two of workerd's limits are kept: PBKDF2 at most 100,000 iterations,
// and RSA keys generated at most 4096 bits (docs/integrations-runtime.md). The time each call takes counts
// as the invocation's CPU time (sandbox-worker.mjs), so the work Node does in its thread pool is held to
// the same limit as the script's own code.
import { webcrypto } from 'node:crypto';

const { subtle } = webcrypto;

export const ALGORITHMS = new Set([
  'RSASSA-PKCS1-V1_5', 'RSA-PSS', 'RSA-OAEP', 'ECDSA', 'ECDH', 'ED25519', 'X25519',
  'AES-CTR', 'AES-CBC', 'AES-GCM', 'AES-KW', 'HMAC', 'PBKDF2', 'HKDF',
]);
const PBKDF2_MAX_ITERATIONS = 100_000;
const RSA_MAX_MODULUS = 4096;
/** Keys Node imports only as non-extractable (they cannot be exported, so the sandbox keeps what they were made of). */
const SECRET_ONLY = new Set(['PBKDF2', 'HKDF']);

class Refused extends Error {
  constructor(message, name) {
    super(message);
    this.name = name;
  }
}

const nameOf = (algorithm) => String(typeof algorithm === 'string' ? algorithm : algorithm?.name ?? '').toUpperCase();

function checkAlgorithm(algorithm) {
  if (algorithm === undefined) return;
  const name = nameOf(algorithm);
  if (!ALGORITHMS.has(name)) throw new Refused(`Unrecognized or unimplemented algorithm: ${typeof algorithm === 'string' ? algorithm : algorithm?.name}`, 'NotSupportedError');
  if (name === 'PBKDF2' && typeof algorithm === 'object' && Number(algorithm.iterations) > PBKDF2_MAX_ITERATIONS) {
    throw new Refused(`PBKDF2 requires no more than ${PBKDF2_MAX_ITERATIONS} iterations`, 'NotSupportedError');
  }
}

/** The value the sandbox sent, with bytes as Uint8Arrays and keys imported. */
async function decode(value) {
  if (Array.isArray(value)) return Promise.all(value.map(decode));
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.$b === 'string') return new Uint8Array(Buffer.from(value.$b, 'base64'));
  if (value.$k) return importHeld(value.$k);
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = await decode(item);
  return out;
}

/** A key the sandbox holds, imported again from its material with its algorithm and usages. */
async function importHeld(held) {
  const algorithm = await decode(held.algorithm);
  checkAlgorithm(algorithm);
  const { format } = held.material;
  const data = format === 'jwk' ? held.material.data : new Uint8Array(Buffer.from(held.material.data, 'base64'));
  return subtle.importKey(format, data, algorithm, !SECRET_ONLY.has(nameOf(algorithm)), held.usages);
}

const bytes = (buffer) => ({ $b: Buffer.from(buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : buffer).toString('base64') });

/** What the sandbox is sent: bytes as base64, CryptoKeys with their material. */
async function encode(value, extractable) {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return bytes(value);
  if (value instanceof CryptoKey) return encodeKey(value, extractable);
  if (Array.isArray(value)) return Promise.all(value.map((v) => encode(v, extractable)));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = await encode(item, extractable);
  return out;
}

/** A key Node made (generated, derived, unwrapped): its material is its export (secret raw, public spki, private pkcs8). */
async function encodeKey(key, extractable, material) {
  const format = key.type === 'secret' ? 'raw' : key.type === 'public' ? 'spki' : 'pkcs8';
  const data = material ?? { format, data: Buffer.from(await subtle.exportKey(format, key)).toString('base64') };
  // A public key is always extractable; the others as the script asked.
  return { $k: { type: key.type, algorithm: await encode(key.algorithm), extractable: key.type === 'public' ? true : !!extractable, usages: [...key.usages], material: data } };
}

const OPERATIONS = {
  digest: (algorithm, data) => subtle.digest(algorithm, data),
  async importKey(format, keyData, algorithm, extractable, usages) {
    checkAlgorithm(algorithm);
    // Imported as the script asked first, so that Node judges the key and the flags as given.
    const key = await subtle.importKey(format, keyData, algorithm, extractable, usages);
    // The material is what the key was imported from (a JWK without its `ext`, which is the key's flag here).
    const data = format === 'jwk' ? { ...keyData } : Buffer.from(keyData).toString('base64');
    if (format === 'jwk') delete data.ext;
    return encodeKey(key, extractable, { format, data });
  },
  exportKey: (format, key) => subtle.exportKey(format, key),
  async generateKey(algorithm, extractable, usages) {
    checkAlgorithm(algorithm);
    if (/^RSA/.test(nameOf(algorithm)) && Number(algorithm.modulusLength) > RSA_MAX_MODULUS) {
      throw new Refused(`RSA keys of at most ${RSA_MAX_MODULUS} bits can be generated here`, 'NotSupportedError');
    }
    return encode(await subtle.generateKey(algorithm, true, usages), extractable);
  },
  sign: (algorithm, key, data) => (checkAlgorithm(algorithm), subtle.sign(algorithm, key, data)),
  verify: (algorithm, key, signature, data) => (checkAlgorithm(algorithm), subtle.verify(algorithm, key, signature, data)),
  encrypt: (algorithm, key, data) => (checkAlgorithm(algorithm), subtle.encrypt(algorithm, key, data)),
  decrypt: (algorithm, key, data) => (checkAlgorithm(algorithm), subtle.decrypt(algorithm, key, data)),
  deriveBits: (algorithm, key, length) => (checkAlgorithm(algorithm), subtle.deriveBits(algorithm, key, length)),
  async deriveKey(algorithm, key, derivedKeyType, extractable, usages) {
    checkAlgorithm(algorithm);
    checkAlgorithm(derivedKeyType);
    return encode(await subtle.deriveKey(algorithm, key, derivedKeyType, true, usages), extractable);
  },
  wrapKey: (format, key, wrappingKey, algorithm) => (checkAlgorithm(algorithm), subtle.wrapKey(format, key, wrappingKey, algorithm)),
  async unwrapKey(format, wrapped, unwrappingKey, algorithm, keyAlgorithm, extractable, usages) {
    checkAlgorithm(algorithm);
    checkAlgorithm(keyAlgorithm);
    return encode(await subtle.unwrapKey(format, wrapped, unwrappingKey, algorithm, keyAlgorithm, true, usages), extractable);
  },
};

/** One crypto.subtle call from the sandbox: `args` is the JSON of its arguments; the answer JSON text, never a rejection. */
export async function subtleCall(operation, args) {
  try {
    const run = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
    if (!run) throw new Refused(`crypto.subtle.${operation} is not a function`, 'TypeError');
    const result = await run(...(await decode(JSON.parse(args))));
    return JSON.stringify({ value: await encode(result) });
  } catch (err) {
    // Node's argument checks throw its own errors (code ERR_INVALID_ARG_*): TypeErrors, as in workerd.
    const name = typeof err?.code === 'string' && err.code.startsWith('ERR_INVALID_ARG') ? 'TypeError' : String(err?.name ?? 'Error');
    return JSON.stringify({ error: { name, message: String(err?.message ?? err) } });
  }
}
