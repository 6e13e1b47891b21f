// What a `v1` script finds besides the language inside the sandbox (QuickJS has no web platform): the
// Workers globals Request, Response, Headers, URL, URLSearchParams, TextEncoder, TextDecoder, fetch and
// console. Evaluated in each fresh sandbox before the script. It talks to the host only through the
// `__host` functions the worker defines (strings in, strings out): `parseURL`, `fetch` (a promise) and
// `log`. There is no setTimeout, no file system and no process: a script waits on fetch, nothing else.
export const PRELUDE = String.raw`
(() => {
  const host = globalThis.__host;
  delete globalThis.__host;

  const utf8Encode = (text) => {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
      }
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  };
  const utf8Decode = (bytes) => {
    let s = '';
    for (let i = 0; i < bytes.length; ) {
      const b = bytes[i];
      let c, n;
      if (b < 0x80) { c = b; n = 1; }
      else if (b >= 0xc2 && b < 0xe0) { c = b & 31; n = 2; }
      else if (b >= 0xe0 && b < 0xf0) { c = b & 15; n = 3; }
      else if (b >= 0xf0 && b < 0xf5) { c = b & 7; n = 4; }
      else { s += '\ufffd'; i++; continue; }
      if (i + n > bytes.length) { s += '\ufffd'; break; }
      let ok = true;
      for (let k = 1; k < n; k++) { const x = bytes[i + k]; if ((x & 0xc0) !== 0x80) { ok = false; break; } c = (c << 6) | (x & 63); }
      if (!ok) { s += '\ufffd'; i++; continue; }
      s += String.fromCodePoint(c);
      i += n;
    }
    return s;
  };

  // Bytes cross the host boundary as base64 inside the JSON text (strings are all that crosses it).
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const B64_INDEX = new Uint8Array(128);
  for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;
  const fromBase64 = (text) => {
    const clean = text.replace(/=+$/, '');
    const out = new Uint8Array((clean.length * 3) >> 2);
    let o = 0;
    for (let i = 0; i < clean.length; i += 4) {
      const n = (B64_INDEX[clean.charCodeAt(i)] << 18) | (B64_INDEX[clean.charCodeAt(i + 1)] << 12) | (B64_INDEX[clean.charCodeAt(i + 2)] << 6) | B64_INDEX[clean.charCodeAt(i + 3)];
      out[o++] = n >> 16;
      if (o < out.length) out[o++] = (n >> 8) & 255;
      if (o < out.length) out[o++] = n & 255;
    }
    return out;
  };
  const toBase64 = (bytes) => {
    const parts = [];
    let chunk = '';
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
      chunk += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
      if (chunk.length >= 4096) { parts.push(chunk); chunk = ''; }
    }
    parts.push(chunk);
    return parts.join('');
  };
  const asBytes = (input) => input instanceof Uint8Array ? input : ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(text = '') { return utf8Encode(String(text)); }
  }
  class TextDecoder {
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      return utf8Decode(asBytes(input));
    }
  }

  class URLSearchParams {
    constructor(init = '') {
      this._list = [];
      if (typeof init === 'string') {
        for (const part of init.replace(/^\?/, '').split('&')) {
          if (!part) continue;
          const at = part.indexOf('=');
          const dec = (v) => decodeURIComponent(v.replace(/\+/g, ' '));
          this._list.push(at < 0 ? [dec(part), ''] : [dec(part.slice(0, at)), dec(part.slice(at + 1))]);
        }
      } else if (init && typeof init === 'object') {
        const entries = Symbol.iterator in init ? init : Object.entries(init);
        for (const [k, v] of entries) this._list.push([String(k), String(v)]);
      }
    }
    get(name) { const e = this._list.find(([k]) => k === name); return e ? e[1] : null; }
    getAll(name) { return this._list.filter(([k]) => k === name).map(([, v]) => v); }
    has(name) { return this._list.some(([k]) => k === name); }
    set(name, value) { this.delete(name); this._list.push([name, String(value)]); }
    append(name, value) { this._list.push([name, String(value)]); }
    delete(name) { this._list = this._list.filter(([k]) => k !== name); }
    forEach(fn) { for (const [k, v] of this._list) fn(v, k, this); }
    entries() { return this._list[Symbol.iterator](); }
    keys() { return this._list.map(([k]) => k)[Symbol.iterator](); }
    values() { return this._list.map(([, v]) => v)[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&'); }
  }

  // Parsed by the host's WHATWG URL parser; the parts are kept here.
  class URL {
    constructor(input, base) {
      const parts = JSON.parse(host.parseURL(String(input), base === undefined ? '' : String(base)));
      if (parts.error) throw new TypeError(parts.error);
      Object.assign(this, parts);
      this.searchParams = new URLSearchParams(parts.search);
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
  }

  class Headers {
    constructor(init) {
      this._map = new Map();
      if (init instanceof Headers) init.forEach((v, k) => this.append(k, v));
      else if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v);
      else if (init && typeof init === 'object') for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    get(name) { const v = this._map.get(String(name).toLowerCase()); return v === undefined ? null : v; }
    has(name) { return this._map.has(String(name).toLowerCase()); }
    set(name, value) { this._map.set(String(name).toLowerCase(), String(value)); }
    append(name, value) { const k = String(name).toLowerCase(); const old = this._map.get(k); this._map.set(k, old === undefined ? String(value) : old + ', ' + value); }
    delete(name) { this._map.delete(String(name).toLowerCase()); }
    forEach(fn) { for (const [k, v] of [...this._map].sort()) fn(v, k, this); }
    entries() { return [...this._map].sort()[Symbol.iterator](); }
    keys() { return [...this._map.keys()].sort()[Symbol.iterator](); }
    values() { return [...this._map].sort().map(([, v]) => v)[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
  }

  // A body is kept as text (a string) or as bytes (a Uint8Array of its own), as it was given.
  const bodyOf = (body) => {
    if (body === undefined || body === null) return null;
    if (typeof body === 'string') return body;
    if (body instanceof URLSearchParams) return body.toString();
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return asBytes(body).slice();
    return String(body);
  };
  const bodyBytes = (body) => (body === null ? new Uint8Array(0) : typeof body === 'string' ? utf8Encode(body) : body);
  /** The body on the wire to the host: text as is, bytes as base64. */
  const wireBody = (body) => (body === null ? { body: '' } : typeof body === 'string' ? { body } : { body: '', bodyBase64: toBase64(body) });
  /** A body from the wire: base64 when the host sent bytes. */
  const fromWire = (wire) => (typeof wire.bodyBase64 === 'string' ? fromBase64(wire.bodyBase64) : wire.body === '' || wire.body === undefined || wire.body === null ? null : wire.body);

  class Body {
    _init(body) { this._body = bodyOf(body); this.bodyUsed = false; }
    _take() {
      if (this.bodyUsed) return Promise.reject(new TypeError('Body has already been read'));
      this.bodyUsed = true;
      return Promise.resolve(this._body);
    }
    text() { return this._take().then((b) => (b === null ? '' : typeof b === 'string' ? b : utf8Decode(b))); }
    json() { return this.text().then((t) => JSON.parse(t)); }
    arrayBuffer() { return this._take().then((b) => bodyBytes(b).slice().buffer); }
    bytes() { return this._take().then((b) => bodyBytes(b).slice()); }
    get body() { return this._body; }
  }

  class Request extends Body {
    constructor(input, init = {}) {
      super();
      const from = input instanceof Request ? input : null;
      this.url = from ? from.url : new URL(String(input)).href;
      this.method = String(init.method || (from && from.method) || 'GET').toUpperCase();
      this.headers = new Headers(init.headers || (from && from.headers));
      this._init(init.body !== undefined ? init.body : from ? from._body : null);
      this.redirect = init.redirect || 'follow';
    }
    clone() { return new Request(this); }
  }

  class Response extends Body {
    constructor(body, init = {}) {
      super();
      this.status = init.status === undefined ? 200 : Number(init.status);
      if (!(this.status >= 200 && this.status <= 599)) throw new RangeError('Response status must be between 200 and 599');
      this.statusText = init.statusText || '';
      this.headers = new Headers(init.headers);
      this._init(body);
      if (typeof body === 'string' && !this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8');
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    clone() { return new Response(this._body, this); }
    static json(data, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), { ...init, headers });
    }
    static redirect(url, status = 302) { return new Response(null, { status, headers: { location: String(url) } }); }
  }

  const fetch = (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const sent = request._body === null ? { body: null } : wireBody(request._body);
    const wire = JSON.stringify({ url: request.url, method: request.method, headers: [...request.headers], ...sent, redirect: request.redirect });
    return host.fetch(wire).then((answer) => {
      const parsed = JSON.parse(answer);
      if (parsed.error) throw new TypeError(parsed.error);
      const response = new Response(fromWire(parsed), { status: parsed.status, headers: parsed.headers });
      response.url = request.url;
      return response;
    });
  };

  const show = (v) => (typeof v === 'string' ? v : (() => { try { return JSON.stringify(v); } catch { return String(v); } })());
  const logAt = (level) => (...args) => host.log(level, args.map(show).join(' '));
  const console = { log: logAt('info'), info: logAt('info'), debug: logAt('debug'), warn: logAt('warn'), error: logAt('error') };

  Object.assign(globalThis, { TextEncoder, TextDecoder, URL, URLSearchParams, Headers, Request, Response, fetch, console });

  // Called by the worker with the module's namespace: runs its default export's fetch and answers the
  // response as JSON text (what the host reads back).
  globalThis.__dispatch = (module, wire, envJson) => {
    const handler = module && module.default;
    if (!handler || typeof handler.fetch !== 'function') {
      return Promise.reject(new TypeError('The script has no default export with a fetch(request, env, context) method'));
    }
    const incoming = JSON.parse(wire);
    const request = new Request(incoming.url, { method: incoming.method, headers: incoming.headers, body: fromWire(incoming) });
    const waiting = [];
    const context = { waitUntil: (p) => { waiting.push(Promise.resolve(p).catch((e) => console.error('waitUntil:', String(e)))); }, passThroughOnException() {} };
    return Promise.resolve()
      .then(() => handler.fetch(request, JSON.parse(envJson), context))
      .then((response) => {
        if (!(response instanceof Response)) throw new TypeError('fetch must return a Response');
        return Promise.all(waiting).then(() => JSON.stringify({ status: response.status, headers: [...response.headers], ...wireBody(response._body) }));
      });
  };
})();
`;
