// Prelude fragment (see prelude.mjs): `crypto` as Workers have it: getRandomValues, randomUUID, and all of
// `crypto.subtle`, done by Node's Web Crypto in the sandbox thread (host-crypto.mjs) through `host.subtle`
// (a promise of JSON text), except `digest`, which is synchronous on the host (`host.digest`: Node's
// createHash; MD5 too, as in workerd). A CryptoKey keeps the material the host re-imports it from in a
// WeakMap of this scope, out of the script's reach (a non-extractable key cannot be read by the script).
// Also workerd's extension crypto.subtle.timingSafeEqual.
export const CRYPTO = String.raw`
  const HASHES = { 'MD5': 'md5', 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
  const algorithmName = (algorithm) => String(typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name).toUpperCase();
  const hashName = (hash) => {
    const name = algorithmName(hash);
    if (!HASHES[name]) throw new DOMException('Unrecognized or unimplemented digest algorithm requested: ' + name, 'NotSupportedError');
    return name;
  };
  const bytesOf = (data) => {
    if (!(data instanceof ArrayBuffer || ArrayBuffer.isView(data))) throw new TypeError('Expected an ArrayBuffer or an ArrayBufferView');
    return asBytes(data);
  };

  /** Each CryptoKey's slots (type, algorithm, extractable, usages) and material ({ format, data }, as host-crypto.mjs reads it). */
  const keySlots = new WeakMap();
  const slotsOf = (key) => {
    const slots = keySlots.get(key);
    if (!slots) throw new TypeError('Illegal invocation');
    return slots;
  };
  // As in Node and workerd, the properties are getters of the prototype.
  class CryptoKey {
    constructor() { throw new TypeError('Illegal constructor'); }
    get type() { return slotsOf(this).type; }
    get algorithm() { return slotsOf(this).algorithm; }
    get extractable() { return slotsOf(this).extractable; }
    get usages() { return slotsOf(this).usages; }
    get [Symbol.toStringTag]() { return 'CryptoKey'; }
  }
  const makeKey = (wire) => {
    const key = Object.create(CryptoKey.prototype);
    keySlots.set(key, { type: wire.type, algorithm: fromWireValue(wire.algorithm, false), extractable: wire.extractable, usages: wire.usages, material: wire.material });
    return key;
  };
  /** An argument for the host: bytes as base64, keys with their material. */
  const toWireValue = (value) => {
    if (value instanceof CryptoKey) {
      return { $k: { type: value.type, algorithm: toWireValue(value.algorithm), extractable: value.extractable, usages: value.usages, material: slotsOf(value).material } };
    }
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return { $b: toBase64(asBytes(value)) };
    if (Array.isArray(value)) return value.map(toWireValue);
    if (value === null || typeof value !== 'object') return value;
    const out = {};
    for (const key of Object.keys(value)) out[key] = toWireValue(value[key]);
    return out;
  };
  /** A result from the host: bytes an ArrayBuffer at the top (Uint8Array inside an algorithm), keys CryptoKeys. */
  const fromWireValue = (value, top) => {
    if (Array.isArray(value)) return value.map((v) => fromWireValue(v, false));
    if (value === null || typeof value !== 'object') return value;
    if (typeof value.$b === 'string') { const b = fromBase64(value.$b); return top ? b.buffer : b; }
    if (value.$k) return makeKey(value.$k);
    const out = {};
    for (const key of Object.keys(value)) out[key] = fromWireValue(value[key], top && (key === 'publicKey' || key === 'privateKey'));
    return out;
  };
  const call = (operation, args) => {
    let wire;
    try { wire = JSON.stringify(args.map(toWireValue)); } catch (err) { return Promise.reject(err); }
    return host.subtle(operation, wire).then((answer) => {
      const parsed = JSON.parse(answer);
      if (parsed.error) {
        const { name, message } = parsed.error;
        if (name === 'TypeError') throw new TypeError(message);
        if (name === 'RangeError') throw new RangeError(message);
        throw new DOMException(message, name);
      }
      return fromWireValue(parsed.value, true);
    });
  };
  const isKey = (key) => {
    if (!(key instanceof CryptoKey)) throw new TypeError('Expected a CryptoKey');
    return key;
  };
  const attempt = (fn) => { try { return fn(); } catch (err) { return Promise.reject(err); } };

  const subtle = {
    digest(algorithm, data) {
      return attempt(() => {
        const name = hashName(algorithm);
        return Promise.resolve(fromBase64(host.digest(HASHES[name], toBase64(bytesOf(data)))).buffer);
      });
    },
    importKey(format, keyData, algorithm, extractable, usages) {
      return attempt(() => {
        if (format !== 'jwk') bytesOf(keyData);
        return call('importKey', [format, keyData, algorithm, !!extractable, [...usages]]);
      });
    },
    exportKey(format, key) {
      return attempt(() => {
        // As the standard orders it (and Node does): an algorithm that cannot be exported at all first.
        if (['PBKDF2', 'HKDF'].includes(isKey(key).algorithm.name)) throw new DOMException('Unable to export a raw ' + key.algorithm.name + ' key', 'NotSupportedError');
        if (!key.extractable) throw new DOMException('Key is not extractable', 'InvalidAccessError');
        return call('exportKey', [format, key]);
      });
    },
    generateKey(algorithm, extractable, usages) { return attempt(() => call('generateKey', [algorithm, !!extractable, [...usages]])); },
    sign(algorithm, key, data) { return attempt(() => call('sign', [algorithm, isKey(key), bytesOf(data)])); },
    verify(algorithm, key, signature, data) { return attempt(() => call('verify', [algorithm, isKey(key), bytesOf(signature), bytesOf(data)])); },
    encrypt(algorithm, key, data) { return attempt(() => call('encrypt', [algorithm, isKey(key), bytesOf(data)])); },
    decrypt(algorithm, key, data) { return attempt(() => call('decrypt', [algorithm, isKey(key), bytesOf(data)])); },
    deriveBits(algorithm, key, length) { return attempt(() => call('deriveBits', [algorithm, isKey(key), length === undefined ? null : length])); },
    deriveKey(algorithm, key, derivedKeyType, extractable, usages) {
      return attempt(() => call('deriveKey', [algorithm, isKey(key), derivedKeyType, !!extractable, [...usages]]));
    },
    wrapKey(format, key, wrappingKey, algorithm) {
      return attempt(() => {
        if (!isKey(key).extractable) throw new DOMException('Key is not extractable', 'InvalidAccessError');
        return call('wrapKey', [format, key, isKey(wrappingKey), algorithm]);
      });
    },
    unwrapKey(format, wrappedKey, unwrappingKey, algorithm, keyAlgorithm, extractable, usages) {
      return attempt(() => call('unwrapKey', [format, bytesOf(wrappedKey), isKey(unwrappingKey), algorithm, keyAlgorithm, !!extractable, [...usages]]));
    },
    // workerd's extension: compares two buffers of the same length in constant time.
    timingSafeEqual(a, b) {
      const x = bytesOf(a);
      const y = bytesOf(b);
      if (x.length !== y.length) throw new TypeError('Input buffers must have the same byte length');
      let diff = 0;
      for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
      return diff === 0;
    },
  };

  const crypto = {
    subtle,
    getRandomValues(array) {
      if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView) throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
      if (array.byteLength > 65536) throw new DOMException('The ArrayBufferView byte length exceeds the number of bytes of entropy available via this API (65536)', 'QuotaExceededError');
      asBytes(array).set(fromBase64(host.random(array.byteLength)));
      return array;
    },
    randomUUID() { return host.randomUUID(); },
  };
`;
