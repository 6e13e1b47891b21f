// Prelude fragment (see prelude.mjs): `crypto`, as integrations use it: getRandomValues, randomUUID, and
// `crypto.subtle` for HMAC (generateKey, importKey raw or jwk, exportKey, sign, verify) and the SHA
// digests. The work is done by the host (`host.digest`, `host.hmac`, `host.random`: Node's crypto in the
// sandbox thread), bytes crossing as base64. Other algorithms are refused with NotSupportedError, by name.
export const CRYPTO = String.raw`
  const HASHES = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
  const HASH_BLOCK = { 'SHA-1': 64, 'SHA-256': 64, 'SHA-384': 128, 'SHA-512': 128 };
  const algorithmName = (algorithm) => String(typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name).toUpperCase();
  const hashName = (hash) => {
    const name = algorithmName(hash);
    if (!HASHES[name]) throw new DOMException('Unsupported hash: ' + name, 'NotSupportedError');
    return name;
  };
  const bytesOf = (data) => {
    if (!(data instanceof ArrayBuffer || ArrayBuffer.isView(data))) throw new TypeError('Expected an ArrayBuffer or a typed array');
    return asBytes(data);
  };
  const notSupported = (what) => Promise.reject(new DOMException(what + ' is not supported here: only HMAC and the SHA digests are', 'NotSupportedError'));
  const b64url = (bytes) => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const fromB64url = (text) => fromBase64(String(text).replace(/-/g, '+').replace(/_/g, '/'));

  class CryptoKey {
    constructor(secret, algorithm, extractable, usages) {
      Object.defineProperty(this, '_secret', { value: secret });
      this.type = 'secret';
      this.algorithm = algorithm;
      this.extractable = !!extractable;
      this.usages = [...usages];
    }
  }
  const hmacKey = (bytes, algorithm, extractable, usages) => {
    const hash = hashName(algorithm.hash);
    return new CryptoKey(bytes.slice(), { name: 'HMAC', hash: { name: hash }, length: bytes.length * 8 }, extractable, usages);
  };
  const useKey = (key, usage) => {
    if (!(key instanceof CryptoKey) || key.algorithm.name !== 'HMAC') throw new DOMException('Expected an HMAC CryptoKey', 'InvalidAccessError');
    if (!key.usages.includes(usage)) throw new DOMException('The key may not be used to ' + usage, 'InvalidAccessError');
  };
  const hmac = (key, data) => fromBase64(host.hmac(HASHES[key.algorithm.hash.name], toBase64(key._secret), toBase64(bytesOf(data))));

  const subtle = {
    digest(algorithm, data) {
      try {
        const name = hashName(algorithm);
        return Promise.resolve(fromBase64(host.digest(HASHES[name], toBase64(bytesOf(data)))).buffer);
      } catch (err) { return Promise.reject(err); }
    },
    importKey(format, keyData, algorithm, extractable, usages) {
      try {
        if (algorithmName(algorithm) !== 'HMAC') return notSupported('importKey of ' + algorithmName(algorithm));
        if (format === 'raw') return Promise.resolve(hmacKey(bytesOf(keyData), algorithm, extractable, usages));
        if (format === 'jwk') {
          if (!keyData || keyData.kty !== 'oct' || typeof keyData.k !== 'string') throw new DOMException('Expected an "oct" JSON Web Key', 'DataError');
          return Promise.resolve(hmacKey(fromB64url(keyData.k), algorithm, extractable, usages));
        }
        return notSupported('importKey in the ' + format + ' format');
      } catch (err) { return Promise.reject(err); }
    },
    exportKey(format, key) {
      if (!(key instanceof CryptoKey) || !key.extractable) return Promise.reject(new DOMException('The key is not extractable', 'InvalidAccessError'));
      if (format === 'raw') return Promise.resolve(key._secret.slice().buffer);
      if (format === 'jwk') return Promise.resolve({ kty: 'oct', k: b64url(key._secret), alg: 'HS' + key.algorithm.hash.name.slice(4), ext: true, key_ops: key.usages });
      return notSupported('exportKey in the ' + format + ' format');
    },
    generateKey(algorithm, extractable, usages) {
      try {
        if (algorithmName(algorithm) !== 'HMAC') return notSupported('generateKey of ' + algorithmName(algorithm));
        const hash = hashName(algorithm.hash);
        const length = algorithm.length ? Math.ceil(algorithm.length / 8) : HASH_BLOCK[hash];
        return Promise.resolve(hmacKey(fromBase64(host.random(length)), algorithm, extractable, usages));
      } catch (err) { return Promise.reject(err); }
    },
    sign(algorithm, key, data) {
      try {
        if (algorithmName(algorithm) !== 'HMAC') return notSupported('sign with ' + algorithmName(algorithm));
        useKey(key, 'sign');
        return Promise.resolve(hmac(key, data).buffer);
      } catch (err) { return Promise.reject(err); }
    },
    verify(algorithm, key, signature, data) {
      try {
        if (algorithmName(algorithm) !== 'HMAC') return notSupported('verify with ' + algorithmName(algorithm));
        useKey(key, 'verify');
        const expected = hmac(key, data);
        const given = bytesOf(signature);
        let diff = expected.length ^ given.length;
        for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ (given[i] ?? 0);
        return Promise.resolve(diff === 0);
      } catch (err) { return Promise.reject(err); }
    },
    encrypt: () => notSupported('encrypt'),
    decrypt: () => notSupported('decrypt'),
    deriveBits: () => notSupported('deriveBits'),
    deriveKey: () => notSupported('deriveKey'),
    wrapKey: () => notSupported('wrapKey'),
    unwrapKey: () => notSupported('unwrapKey'),
  };

  const crypto = {
    subtle,
    getRandomValues(array) {
      if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array) throw new TypeError('Expected an integer typed array');
      if (array.byteLength > 65536) throw new DOMException('At most 65536 bytes at once', 'QuotaExceededError');
      asBytes(array).set(fromBase64(host.random(array.byteLength)));
      return array;
    },
    randomUUID() { return host.randomUUID(); },
  };
`;
