// The Web platform conformance of the sandbox (server/runtime/): each case is one piece of code, run as is
// inside the sandbox and in Node with the same input, and the two results must be equal. Node's are the
// reference (its Web Crypto, streams, TextDecoder, Headers, structuredClone, AbortSignal and URLPattern
// are the implementations the sandbox bridges to or mirrors). Cases whose output is random (RSA-PSS,
// ECDSA, RSA-OAEP, IVs) compare what is fixed: a verification, a decryption, an export.
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { importSPKI, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, ScriptRuntime } from '../server/runtime/script-runtime.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { URLPattern as URLPatternPolyfill } from 'urlpattern-polyfill/urlpattern';

// Helpers both sides define before each case.
const HELPERS = `
  const enc = new TextEncoder();
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)));
  const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const failure = async (work) => { try { await work(); return 'no error'; } catch (e) { return e.name; } };
  const readAll = async (stream) => { const out = []; for await (const chunk of stream) out.push(typeof chunk === 'string' ? chunk : hex(chunk)); return out; };
`;

/** name -> the body of an async function of `input` returning a JSON value. */
const CASES: Record<string, string> = {
  'digest SHA-1/256/384/512 and MD5 (workerd has it; Node through createHash)': `
    const out = {};
    for (const name of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) out[name] = hex(await crypto.subtle.digest(name, enc.encode('abc')));
    return out;`,
  'HMAC: import raw and jwk, sign, verify, export jwk': `
    const key = await crypto.subtle.importKey('raw', enc.encode('key'), { name: 'HMAC', hash: 'SHA-384' }, true, ['sign', 'verify']);
    const signature = await crypto.subtle.sign('HMAC', key, enc.encode('message'));
    const jwk = await crypto.subtle.exportKey('jwk', key);
    const again = await crypto.subtle.importKey('jwk', jwk, { name: 'HMAC', hash: 'SHA-384' }, false, ['verify']);
    return { signature: hex(signature), jwk, verified: await crypto.subtle.verify('HMAC', again, signature, enc.encode('message')), algorithm: key.algorithm, usages: key.usages, type: key.type };`,
  'RSASSA-PKCS1-v1_5: pkcs8 import, deterministic signature, spki export, jwk export': `
    const key = await crypto.subtle.importKey('pkcs8', unb64(input.rsaPkcs8), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['sign']);
    const pub = await crypto.subtle.importKey('spki', unb64(input.rsaSpki), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']);
    const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, enc.encode('payload'));
    return { signature: hex(signature), verified: await crypto.subtle.verify('RSASSA-PKCS1-v1_5', pub, signature, enc.encode('payload')),
      spki: b64(await crypto.subtle.exportKey('spki', pub)), jwk: await crypto.subtle.exportKey('jwk', key),
      algorithm: { ...key.algorithm, publicExponent: hex(key.algorithm.publicExponent) } };`,
  'RSA-PSS and ECDSA: what one signs the other verifies; a changed message does not verify': `
    const pss = await crypto.subtle.importKey('pkcs8', unb64(input.rsaPkcs8), { name: 'RSA-PSS', hash: 'SHA-256' }, false, ['sign']);
    const pssPub = await crypto.subtle.importKey('spki', unb64(input.rsaSpki), { name: 'RSA-PSS', hash: 'SHA-256' }, false, ['verify']);
    const pssSig = await crypto.subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, pss, enc.encode('m'));
    const ec = await crypto.subtle.importKey('jwk', input.ecJwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
    const { d, ...publicJwk } = input.ecJwk;
    const ecPub = await crypto.subtle.importKey('jwk', { ...publicJwk, key_ops: ['verify'] }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
    const ecSig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-384' }, ec, enc.encode('m'));
    return {
      pss: [await crypto.subtle.verify({ name: 'RSA-PSS', saltLength: 32 }, pssPub, pssSig, enc.encode('m')), await crypto.subtle.verify({ name: 'RSA-PSS', saltLength: 32 }, pssPub, pssSig, enc.encode('n'))],
      ecdsa: [await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, ecPub, ecSig, enc.encode('m')), await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, ecPub, ecSig, enc.encode('n'))],
      ecSigLength: ecSig.byteLength, ecRaw: hex(await crypto.subtle.exportKey('raw', ecPub)), ecAlgorithm: ec.algorithm,
    };`,
  'Ed25519: deterministic signature; ECDH: the shared secret and a key derived from it': `
    const ed = await crypto.subtle.importKey('pkcs8', unb64(input.edPkcs8), 'Ed25519', false, ['sign']);
    const a = await crypto.subtle.importKey('pkcs8', unb64(input.ecdhA), { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits', 'deriveKey']);
    const b = await crypto.subtle.importKey('spki', unb64(input.ecdhB), { name: 'ECDH', namedCurve: 'P-256' }, true, []);
    const derived = await crypto.subtle.deriveKey({ name: 'ECDH', public: b }, a, { name: 'AES-GCM', length: 256 }, true, ['encrypt']);
    return { ed: hex(await crypto.subtle.sign('Ed25519', ed, enc.encode('m'))), ecdh: hex(await crypto.subtle.deriveBits({ name: 'ECDH', public: b }, a, 256)), derived: hex(await crypto.subtle.exportKey('raw', derived)) };`,
  'AES-GCM, AES-CBC, AES-CTR with fixed keys and IVs; AES-KW wraps; a changed tag fails': `
    const raw = unhex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    const iv = unhex('0f0e0d0c0b0a09080706050403020100');
    const gcm = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: iv.slice(0, 12), additionalData: enc.encode('ad') }, gcm, enc.encode('verifier é'));
    const opened = new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv.slice(0, 12), additionalData: enc.encode('ad') }, gcm, sealed));
    const tampered = new Uint8Array(sealed); tampered[tampered.length - 1] ^= 1;
    const cbc = await crypto.subtle.importKey('raw', raw, { name: 'AES-CBC' }, false, ['encrypt']);
    const ctr = await crypto.subtle.importKey('raw', raw.slice(0, 16), 'AES-CTR', false, ['encrypt']);
    const kw = await crypto.subtle.importKey('raw', raw, 'AES-KW', false, ['wrapKey', 'unwrapKey']);
    const inner = await crypto.subtle.importKey('raw', raw.slice(0, 16), 'AES-GCM', true, ['encrypt']);
    const wrapped = await crypto.subtle.wrapKey('raw', inner, kw, 'AES-KW');
    const unwrapped = await crypto.subtle.unwrapKey('raw', wrapped, kw, 'AES-KW', 'AES-GCM', true, ['encrypt']);
    return {
      gcm: hex(sealed), opened, tampered: await failure(() => crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv.slice(0, 12), additionalData: enc.encode('ad') }, gcm, tampered)),
      cbc: hex(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, cbc, enc.encode('block of text'))),
      ctr: hex(await crypto.subtle.encrypt({ name: 'AES-CTR', counter: iv, length: 64 }, ctr, enc.encode('counter mode'))),
      wrapped: hex(wrapped), unwrapped: hex(await crypto.subtle.exportKey('raw', unwrapped)), unwrappedAlgorithm: unwrapped.algorithm,
      badLength: await failure(() => crypto.subtle.importKey('raw', raw.slice(0, 5), 'AES-GCM', false, ['encrypt'])),
      notExtractable: await failure(() => crypto.subtle.exportKey('raw', gcm)),
      wrongUsage: await failure(() => crypto.subtle.decrypt({ name: 'AES-CBC', iv }, cbc, new Uint8Array(16))),
    };`,
  'RSA-OAEP: decrypts what Node encrypted': `
    const key = await crypto.subtle.importKey('pkcs8', unb64(input.rsaPkcs8), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['decrypt']);
    const pub = await crypto.subtle.importKey('spki', unb64(input.rsaSpki), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const mine = await crypto.subtle.encrypt({ name: 'RSA-OAEP', label: enc.encode('l') }, pub, enc.encode('again'));
    return {
      theirs: new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, key, unb64(input.oaep))),
      mine: new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'RSA-OAEP', label: enc.encode('l') }, key, mine)),
    };`,
  'PBKDF2 and HKDF: deriveBits and deriveKey': `
    const password = await crypto.subtle.importKey('raw', enc.encode('password'), 'PBKDF2', false, ['deriveBits', 'deriveKey']);
    const secret = await crypto.subtle.importKey('raw', enc.encode('input key material'), 'HKDF', false, ['deriveBits', 'deriveKey']);
    const hmac = await crypto.subtle.deriveKey({ name: 'PBKDF2', salt: enc.encode('salt'), iterations: 1000, hash: 'SHA-256' }, password, { name: 'HMAC', hash: 'SHA-256', length: 256 }, true, ['sign']);
    return {
      pbkdf2: hex(await crypto.subtle.deriveBits({ name: 'PBKDF2', salt: enc.encode('salt'), iterations: 1000, hash: 'SHA-512' }, password, 512)),
      hkdf: hex(await crypto.subtle.deriveBits({ name: 'HKDF', salt: enc.encode('salt'), info: enc.encode('info'), hash: 'SHA-256' }, secret, 256)),
      derived: hex(await crypto.subtle.exportKey('raw', hmac)),
      passwordKey: { type: password.type, extractable: password.extractable, algorithm: password.algorithm },
      exported: await failure(() => crypto.subtle.exportKey('raw', password)),
    };`,
  'generateKey: key pairs and secret keys as Node describes them': `
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, ['sign', 'verify']);
    const aes = await crypto.subtle.generateKey({ name: 'AES-CBC', length: 192 }, true, ['encrypt', 'decrypt']);
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, enc.encode('x'));
    return {
      public: [pair.publicKey.type, pair.publicKey.extractable, pair.publicKey.usages, pair.publicKey.algorithm],
      private: [pair.privateKey.type, pair.privateKey.extractable, pair.privateKey.usages],
      aes: [aes.algorithm, (await crypto.subtle.exportKey('raw', aes)).byteLength],
      verified: await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pair.publicKey, signature, enc.encode('x')),
      isKey: pair.privateKey instanceof CryptoKey, tag: String(aes),
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
    };`,
  'TextDecoder {stream: true} across cut sequences; TextDecoderStream and TextEncoderStream': `
    const bytes = enc.encode('\\ufeffé ✓ 𝄞 end');
    const decoder = new TextDecoder();
    let streamed = '';
    for (let i = 0; i < bytes.length; i += 2) streamed += decoder.decode(bytes.slice(i, i + 2), { stream: true });
    streamed += decoder.decode();
    const parts = [bytes.slice(0, 4), bytes.slice(4, 9), bytes.slice(9)];
    const text = new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }).pipeThrough(new TextDecoderStream());
    const encoded = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('é'); c.close(); } }).pipeThrough(new TextEncoderStream());
    return { streamed, whole: new TextDecoder().decode(bytes), chunks: (await readAll(text)).join(''), encoded: await readAll(encoded), cut: new TextDecoder().decode(bytes.slice(0, 5)) };`,
  'TransformStream, pipeTo a WritableStream, tee, ReadableStream.from, backpressure': `
    const upper = new TransformStream({ transform(chunk, c) { c.enqueue(chunk.toUpperCase()); }, flush(c) { c.enqueue('!'); } });
    const source = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } });
    const [left, right] = source.pipeThrough(upper).tee();
    const written = [];
    await left.pipeTo(new WritableStream({ write(chunk) { written.push(chunk); }, close() { written.push('closed'); } }));
    let pulls = 0;
    const counted = new ReadableStream({ pull(c) { pulls++; if (pulls > 3) c.close(); else c.enqueue(pulls); } }, { highWaterMark: 0 });
    const writer = new WritableStream({}, { highWaterMark: 2 }).getWriter();
    const sizes = [writer.desiredSize];
    writer.write('x'); sizes.push(writer.desiredSize);
    await writer.ready; await writer.close();
    return { written, right: await readAll(right), from: await readAll(ReadableStream.from(['p', 'q'])), counted: await readAll(counted), sizes, locked: [left.locked, right.locked] };`,
  'CompressionStream and DecompressionStream: gzip, deflate and deflate-raw': `
    const out = {};
    for (const format of ['gzip', 'deflate', 'deflate-raw']) {
      const packed = new Blob(['hello hello hello hello']).stream().pipeThrough(new CompressionStream(format));
      const bytes = new Uint8Array(await new Response(packed).arrayBuffer());
      const unpacked = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format))).text();
      out[format] = { unpacked, smaller: bytes.length < 40 };
    }
    out.bad = await failure(() => new Response(new Blob([new Uint8Array([1, 2, 3])]).stream().pipeThrough(new DecompressionStream('gzip'))).text());
    return out;`,
  'Headers: several Set-Cookie kept apart, through copies and Responses': `
    const headers = new Headers([['Set-Cookie', 'a=1; Path=/'], ['X-B', '1']]);
    headers.append('set-cookie', 'b=2; HttpOnly');
    headers.append('x-b', '2');
    const copy = new Headers(headers);
    const response = new Response(null, { status: 302, headers });
    const cloned = new Response('x', { headers: response.headers });
    return {
      cookies: copy.getSetCookie(), joined: copy.get('set-cookie'), entries: [...copy], xb: copy.get('X-B'),
      response: response.headers.getSetCookie(), cloned: [...cloned.headers].filter(([k]) => k === 'set-cookie').length,
      invalid: await failure(async () => new Headers({ 'bad name': '1' })),
    };`,
  'structuredClone: cycles, Map, Set, Date, typed arrays; functions refused': `
    const value = { d: new Date(86400000), m: new Map([['k', { n: 1 }]]), s: new Set([1, 2]), bytes: new Uint8Array([1, 2, 3]), list: [1, 'two', null] };
    value.self = value;
    const copy = structuredClone(value);
    return { same: copy.self === copy, date: copy.d.toISOString(), map: [...copy.m], set: [...copy.s], bytes: [...copy.bytes], list: copy.list, distinct: copy !== value && copy.m !== value.m,
      fn: await failure(async () => structuredClone({ f() {} })) };`,
  'AbortSignal.any and AbortSignal.timeout': `
    const controller = new AbortController();
    const any = AbortSignal.any([controller.signal, AbortSignal.timeout(10_000)]);
    controller.abort(new Error('stop'));
    const early = AbortSignal.any([AbortSignal.abort('why')]);
    const timed = AbortSignal.timeout(20);
    await new Promise((resolve) => setTimeout(resolve, 60));
    return { any: [any.aborted, any.reason.message], early: [early.aborted, early.reason], timed: [timed.aborted, timed.reason.name] };`,
  'URLPattern: test and exec': `
    const pattern = new URLPattern({ pathname: '/books/:id(\\\\d+)' });
    const base = new URLPattern('/repos/:owner/:repo/*', 'https://api.example');
    const hit = base.exec('https://api.example/repos/gitbook/docs/pulls/1');
    return { test: [pattern.test('https://x.example/books/12'), pattern.test('https://x.example/books/abc')],
      id: pattern.exec({ pathname: '/books/7' }).pathname.groups, groups: hit.pathname.groups, pathname: base.pathname, hostname: base.hostname };`,
};

describe('the Web platform in the sandbox answers as Node does', () => {
  const runtime = new ScriptRuntime({ ...DEFAULT_LIMITS, cpuMs: 3_000, wallMs: 10_000 }, { threads: 1 });
  const input: Record<string, unknown> = {};
  beforeAll(async () => {
    const { subtle } = webcrypto;
    const b64 = (buf: ArrayBuffer) => Buffer.from(buf).toString('base64');
    const rsa = await subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
    input.rsaPkcs8 = b64(await subtle.exportKey('pkcs8', rsa.privateKey));
    input.rsaSpki = b64(await subtle.exportKey('spki', rsa.publicKey));
    const oaep = await subtle.importKey('spki', Buffer.from(input.rsaSpki as string, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    input.oaep = b64(await subtle.encrypt({ name: 'RSA-OAEP' }, oaep, new TextEncoder().encode('sealed by node')));
    const ec = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    input.ecJwk = await subtle.exportKey('jwk', ec.privateKey);
    const ed = (await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    input.edPkcs8 = b64(await subtle.exportKey('pkcs8', ed.privateKey));
    const a = await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const b = await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    input.ecdhA = b64(await subtle.exportKey('pkcs8', a.privateKey));
    input.ecdhB = b64(await subtle.exportKey('spki', b.publicKey));
  }, 30_000);
  afterAll(() => runtime.close());

  async function inSandbox(body: string) {
    const script = `${HELPERS}\nexport default { async fetch(request) { const input = await request.json(); const run = async (input) => { ${body} }; return Response.json(await run(input)); } }`;
    const answer = await runtime.invoke({ key: `conformance-${Math.random()}`, script, request: { method: 'POST', url: 'https://x.example/', headers: [['content-type', 'application/json']], body: JSON.stringify(input) }, env: {} });
    expect(answer.status, answer.body).toBe(200);
    return JSON.parse(answer.body);
  }

  async function inNode(body: string) {
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
    // Node 22 has no URLPattern: the reference there is the polyfill the sandbox's host uses on it (sandbox-worker.mjs).
    const value = await new AsyncFunction('input', 'URLPattern', `${HELPERS}\n${body}`)(input, (globalThis as { URLPattern?: unknown }).URLPattern ?? URLPatternPolyfill);
    // Node 22's Web Crypto names the DOMException of a key that cannot be exported `InvalidAccessException`;
    // the Web Crypto specification, workerd and later Node lines say `InvalidAccessError`, as the sandbox does.
    return JSON.parse(JSON.stringify(value).replaceAll('"InvalidAccessException"', '"InvalidAccessError"'));
  }

  for (const [name, body] of Object.entries(CASES)) {
    it(name, async () => {
      const [sandbox, node] = await Promise.all([inSandbox(body), inNode(body)]);
      expect(sandbox).toEqual(node);
    });
  }

  it('refuses what workerd lacks though Node has it, and PBKDF2 past workerd’s 100,000 iterations', async () => {
    const got = await inSandbox(`
      const password = await crypto.subtle.importKey('raw', enc.encode('p'), 'PBKDF2', false, ['deriveBits']);
      return {
        ed448: await failure(() => crypto.subtle.generateKey({ name: 'Ed448' }, false, ['sign'])),
        iterations: await failure(() => crypto.subtle.deriveBits({ name: 'PBKDF2', salt: new Uint8Array(8), iterations: 100_001, hash: 'SHA-256' }, password, 256)),
        md5: hex(await crypto.subtle.digest('MD5', enc.encode('abc'))),
        caches: [await caches.default.match('https://x.example/'), typeof caches.open],
      };`);
    expect(got).toEqual({ ed448: 'NotSupportedError', iterations: 'NotSupportedError', md5: '900150983cd24fb0d6963f7d28e17f72', caches: [null, 'function'] });
  });
});

// The GitHub integration signs its app's JWT with RS256 through `jose`: the same, bundled as @gitbook/cli
// bundles it (jose's Web Crypto build), signed in the sandbox and verified here by Node; and the other way.
describe('jose in the sandbox', () => {
  const runtime = new ScriptRuntime({ ...DEFAULT_LIMITS, cpuMs: 3_000, wallMs: 10_000 }, { threads: 1 });
  afterAll(() => runtime.close());

  it('signs an RS256 JWT that verifies outside, and verifies a PS256 one Node signed', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const spki = publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const script = await bundleIntegration(`
      import { importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';
      export default {
        async fetch(request, env) {
          const { pem, spki, token } = await request.json();
          const key = await importPKCS8(pem, 'RS256');
          const now = Math.floor(Date.now() / 1000);
          const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuedAt(now - 60).setExpirationTime(now + 540).setIssuer('123456').sign(key);
          const { payload } = await jwtVerify(token, await importSPKI(spki, 'PS256'), { issuer: 'node' });
          return Response.json({ jwt, verified: payload.sub });
        },
      };
    `);
    const token = await new SignJWT({ sub: 'signed by node' }).setProtectedHeader({ alg: 'PS256' }).setIssuer('node').setExpirationTime('5m').sign(privateKey);
    const answer = await runtime.invoke({ key: 'jose', script, request: { method: 'POST', url: 'https://x.example/', headers: [['content-type', 'application/json']], body: JSON.stringify({ pem, spki, token }) }, env: {} });
    expect(answer.status, answer.body).toBe(200);
    const { jwt, verified } = JSON.parse(answer.body);
    expect(verified).toBe('signed by node');
    const { payload, protectedHeader } = await jwtVerify(jwt, await importSPKI(spki, 'RS256'), { issuer: '123456' });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.exp! - payload.iat!).toBe(600);
    // Signed with the key given, not another: a different key's public half refuses it.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    await expect(jwtVerify(jwt, await importSPKI(other, 'RS256'))).rejects.toThrow('signature verification failed');
  });
});
