// What a script finds besides the language inside the sandbox (QuickJS has no web platform): the Workers
// globals it is written for. Evaluated in each fresh sandbox before the script, as one function made of
// the fragments below, which share its scope:
//   prelude-encoding.mjs  TextEncoder, TextDecoder, atob, btoa
//   prelude-events.mjs    DOMException, Event, EventTarget, AbortController, AbortSignal, timers,
//                         queueMicrotask, structuredClone
//   prelude-forms.mjs     Blob, File, FormData (multipart encoding and parsing)
//   prelude-streams.mjs   ReadableStream, WritableStream, TransformStream, TextEncoderStream,
//                         TextDecoderStream, CompressionStream, DecompressionStream, queuing strategies
//   prelude-crypto.mjs    crypto (getRandomValues, randomUUID, all of subtle through Node's Web Crypto)
//   here                  URL, URLSearchParams, URLPattern, Headers, Request, Response, fetch, caches,
//                         console, the dispatch
// It talks to the host only through the `__host` functions the worker defines (strings in, strings out):
// `parseURL`, `setURL`, `fetch`, `sleep` and `subtle` (promises), `log`, `digest`, `random`, `randomUUID`,
// `zlib`, `urlPattern`.
// There is no file system, no process and no import.
import { CRYPTO } from './prelude-crypto.mjs';
import { ENCODING } from './prelude-encoding.mjs';
import { EVENTS } from './prelude-events.mjs';
import { FORMS } from './prelude-forms.mjs';
import { STREAMS } from './prelude-streams.mjs';

const WEB = String.raw`
  class URLSearchParams {
    constructor(init = '') {
      this._list = [];
      this._url = null;
      if (typeof init === 'string') {
        for (const part of init.replace(/^\?/, '').split('&')) {
          if (!part) continue;
          const at = part.indexOf('=');
          const dec = (v) => { try { return decodeURIComponent(v.replace(/\+/g, ' ')); } catch { return v; } };
          this._list.push(at < 0 ? [dec(part), ''] : [dec(part.slice(0, at)), dec(part.slice(at + 1))]);
        }
      } else if (init instanceof URLSearchParams) {
        this._list = init._list.map(([k, v]) => [k, v]);
      } else if (init && typeof init === 'object') {
        const entries = Symbol.iterator in init ? init : Object.entries(init);
        for (const [k, v] of entries) this._list.push([String(k), String(v)]);
      }
    }
    _changed() { if (this._url) this._url._setPart('search', this.toString()); }
    get size() { return this._list.length; }
    get(name) { const e = this._list.find(([k]) => k === String(name)); return e ? e[1] : null; }
    getAll(name) { return this._list.filter(([k]) => k === String(name)).map(([, v]) => v); }
    has(name, value) { return this._list.some(([k, v]) => k === String(name) && (value === undefined || v === String(value))); }
    set(name, value) {
      const key = String(name);
      const at = this._list.findIndex(([k]) => k === key);
      if (at < 0) this._list.push([key, String(value)]);
      else { this._list = this._list.filter(([k], i) => k !== key || i === at); this._list[at] = [key, String(value)]; }
      this._changed();
    }
    append(name, value) { this._list.push([String(name), String(value)]); this._changed(); }
    delete(name, value) { this._list = this._list.filter(([k, v]) => k !== String(name) || (value !== undefined && v !== String(value))); this._changed(); }
    sort() { this._list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); this._changed(); }
    forEach(fn) { for (const [k, v] of this._list) fn(v, k, this); }
    entries() { return this._list[Symbol.iterator](); }
    keys() { return this._list.map(([k]) => k)[Symbol.iterator](); }
    values() { return this._list.map(([, v]) => v)[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() {
      const enc = (v) => encodeURIComponent(v).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
      return this._list.map(([k, v]) => enc(k) + '=' + enc(v)).join('&');
    }
  }

  // Parsed, and changed through its setters, by the host's WHATWG URL parser; the parts are kept here.
  const URL_PARTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
  // What the host answered for the URLs parsed last (a pure function of input and base): a request's URL is
  // parsed several times per event (the dispatch, @gitbook/runtime, the script), each a call out of the sandbox.
  const parsedURLs = new Map();
  const parseURL = (input, base) => {
    const key = input + '\n' + base;
    let answer = parsedURLs.get(key);
    if (answer === undefined) {
      answer = host.parseURL(input, base);
      if (parsedURLs.size >= 64) parsedURLs.clear();
      parsedURLs.set(key, answer);
    }
    return answer;
  };
  class URL {
    constructor(input, base) {
      const parts = JSON.parse(parseURL(String(input), base === undefined ? '' : String(base)));
      if (parts.error) throw new TypeError(parts.error);
      this._parts = parts;
      this._search = new URLSearchParams(parts.search);
      this._search._url = this;
    }
    _setPart(name, value) {
      const parts = JSON.parse(host.setURL(this._parts.href, name, String(value)));
      if (parts.error) throw new TypeError(parts.error);
      this._parts = parts;
      if (name !== 'search') { const list = new URLSearchParams(parts.search)._list; this._search._list = list; }
    }
    get searchParams() { return this._search; }
    toString() { return this._parts.href; }
    toJSON() { return this._parts.href; }
    static canParse(input, base) { try { new URL(input, base); return true; } catch { return false; } }
  }
  for (const name of URL_PARTS) {
    Object.defineProperty(URL.prototype, name, {
      get() { return this._parts[name]; },
      set(value) {
        if (name === 'origin') return;
        this._setPart(name, value);
        if (name === 'search' || name === 'href') this._search._list = new URLSearchParams(this._parts.search)._list;
      },
      enumerable: true,
    });
  }

  // Values of a name are combined with ", " as the standard says, except Set-Cookie, whose values stay apart
  // (getSetCookie, and iteration yields each on its own, so copying Headers keeps them apart too).
  const HEADER_NAME = /^[!#$%&'*+\-.^_\x60|~0-9A-Za-z]+$/;
  const headerName = (name) => {
    const k = String(name);
    if (!HEADER_NAME.test(k)) throw new TypeError('Invalid header name: ' + k);
    return k.toLowerCase();
  };
  const headerValue = (value) => {
    const v = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    if (/[\0\r\n]/.test(v)) throw new TypeError('Invalid header value');
    return v;
  };
  class Headers {
    constructor(init) {
      this._map = new Map();
      this._cookies = [];
      if (init instanceof Headers) { for (const [k, v] of init._map) this._map.set(k, v); this._cookies = [...init._cookies]; }
      else if (init && typeof init === 'object' && Symbol.iterator in init) {
        for (const pair of init) {
          const list = [...pair];
          if (list.length !== 2) throw new TypeError('A header init pair must have exactly two items');
          this.append(list[0], list[1]);
        }
      }
      else if (init && typeof init === 'object') for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    get(name) {
      const k = headerName(name);
      if (k === 'set-cookie') return this._cookies.length ? this._cookies.join(', ') : null;
      const v = this._map.get(k);
      return v === undefined ? null : v;
    }
    getSetCookie() { return [...this._cookies]; }
    getAll(name) {
      // workerd's non-standard getAll, for Set-Cookie only.
      if (headerName(name) !== 'set-cookie') throw new TypeError('getAll() can only be used with the header name "Set-Cookie".');
      return this.getSetCookie();
    }
    has(name) { const k = headerName(name); return k === 'set-cookie' ? this._cookies.length > 0 : this._map.has(k); }
    set(name, value) {
      const k = headerName(name);
      const v = headerValue(value);
      if (k === 'set-cookie') this._cookies = [v];
      else this._map.set(k, v);
    }
    append(name, value) {
      const k = headerName(name);
      const v = headerValue(value);
      if (k === 'set-cookie') return void this._cookies.push(v);
      const old = this._map.get(k);
      this._map.set(k, old === undefined ? v : old + ', ' + v);
    }
    delete(name) { const k = headerName(name); if (k === 'set-cookie') this._cookies = []; else this._map.delete(k); }
    forEach(fn, self) { for (const [k, v] of this.entries()) fn.call(self, v, k, this); }
    entries() {
      const names = [...this._map.keys()];
      if (this._cookies.length) names.push('set-cookie');
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const pairs = [];
      for (const k of names) {
        if (k === 'set-cookie') for (const c of this._cookies) pairs.push([k, c]);
        else pairs.push([k, this._map.get(k)]);
      }
      return pairs[Symbol.iterator]();
    }
    keys() { return [...this.entries()].map(([k]) => k)[Symbol.iterator](); }
    values() { return [...this.entries()].map(([, v]) => v)[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return 'Headers'; }
    /** Pairs for the wire: each Set-Cookie on its own. */
    _wire() { return [...this.entries()]; }
  }

  // A body is kept as text (a string), bytes (a Uint8Array of its own) or a ReadableStream, read once.
  const bodyOf = (body, headers) => {
    const typed = (type) => { if (!headers.has('content-type') && type) headers.set('content-type', type); };
    if (body === undefined || body === null) return null;
    if (typeof body === 'string') { typed('text/plain;charset=UTF-8'); return body; }
    if (body instanceof URLSearchParams) { typed('application/x-www-form-urlencoded;charset=UTF-8'); return body.toString(); }
    if (body instanceof FormData) { const encoded = encodeMultipart(body); typed(encoded.type); return encoded.bytes; }
    if (body instanceof Blob) { typed(body.type); return body._bytes.slice(); }
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return asBytes(body).slice();
    if (body instanceof ReadableStream) return body;
    typed('text/plain;charset=UTF-8');
    return String(body);
  };
  const bodyBytes = (body) => (body === null ? new Uint8Array(0) : typeof body === 'string' ? utf8Encode(body) : body);
  /** The body on the wire to the host: text as is, bytes as base64. */
  const wireBody = (body) => (body === null ? { body: '' } : typeof body === 'string' ? { body } : { body: '', bodyBase64: toBase64(body) });
  /** A body from the wire: base64 when the host sent bytes. */
  const fromWire = (wire) => (typeof wire.bodyBase64 === 'string' ? fromBase64(wire.bodyBase64) : wire.body === '' || wire.body === undefined || wire.body === null ? null : wire.body);

  class Body {
    _init(body) { this._body = bodyOf(body, this.headers); this.bodyUsed = false; }
    /** The body, read once: text, bytes, or null. */
    _take() {
      if (this.bodyUsed) return Promise.reject(new TypeError('Body has already been read'));
      this.bodyUsed = true;
      const body = this._body;
      return body instanceof ReadableStream ? readAllBytes(body) : Promise.resolve(body);
    }
    text() { return this._take().then((b) => (b === null ? '' : typeof b === 'string' ? b : utf8Decode(b))); }
    json() { return this.text().then((t) => JSON.parse(t)); }
    arrayBuffer() { return this._take().then((b) => bodyBytes(b).slice().buffer); }
    bytes() { return this._take().then((b) => bodyBytes(b).slice()); }
    blob() { return this._take().then((b) => new Blob([bodyBytes(b)], { type: this.headers.get('content-type') ?? '' })); }
    formData() { return this._take().then((b) => parseForm(typeof b === 'string' ? b : bodyBytes(b), this.headers.get('content-type'))); }
    get body() {
      if (this._body === null) return null;
      if (!(this._body instanceof ReadableStream)) this._body = streamOfBytes(bodyBytes(this._body));
      return this._body;
    }
  }

  class Request extends Body {
    constructor(input, init = {}) {
      super();
      const from = input instanceof Request ? input : null;
      this.url = from ? from.url : new URL(String(input)).href;
      this.method = String(init.method || (from && from.method) || 'GET');
      if (/^(get|head|post|put|delete|options|patch)$/i.test(this.method)) this.method = this.method.toUpperCase();
      this.headers = new Headers(init.headers || (from && from.headers));
      const body = init.body !== undefined ? init.body : from ? from._body : null;
      if (body !== null && body !== undefined && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
      this._init(body);
      this.redirect = init.redirect || (from && from.redirect) || 'follow';
      this.signal = init.signal || (from && from.signal) || new AbortSignal();
    }
    clone() {
      if (this._body instanceof ReadableStream) throw new TypeError('A request with a streamed body cannot be cloned');
      return new Request(this);
    }
  }

  class Response extends Body {
    constructor(body, init = {}) {
      super();
      this.status = init.status === undefined ? 200 : Number(init.status);
      if (!(this.status >= 200 && this.status <= 599)) throw new RangeError('Response status must be between 200 and 599');
      this.statusText = init.statusText || '';
      this.headers = new Headers(init.headers);
      this._init(body);
      this.type = 'default';
      this.url = '';
      this.redirected = false;
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    clone() {
      if (this._body instanceof ReadableStream) throw new TypeError('A response with a streamed body cannot be cloned');
      return new Response(this._body, this);
    }
    static json(data, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), { ...init, headers });
    }
    static redirect(url, status = 302) { return new Response(null, { status, headers: { location: String(url) } }); }
  }

  const fetch = (input, init) => {
    let request;
    try { request = input instanceof Request && init === undefined ? input : new Request(input, init); } catch (err) { return Promise.reject(err); }
    const signal = request.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    const sent = request._take().then((body) => {
      const wire = JSON.stringify({ url: request.url, method: request.method, headers: request.headers._wire(), ...(body === null ? { body: null } : wireBody(body)), redirect: request.redirect });
      return host.fetch(wire);
    }).then((answer) => {
      const parsed = JSON.parse(answer);
      if (parsed.error) throw new TypeError(parsed.error);
      const response = new Response(fromWire(parsed), { status: parsed.status, headers: parsed.headers });
      response.url = request.url;
      return response;
    });
    // An abort settles the call at once; the host's answer, when it comes, is not used.
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      sent.then(resolve, reject);
    });
  };

  // URLPattern, matched by Node's (host.urlPattern): the sandbox keeps the pattern's init and parts.
  const patternCall = (request) => {
    const answer = JSON.parse(host.urlPattern(JSON.stringify(request)));
    if (answer.error) throw new TypeError(answer.error);
    return answer.value;
  };
  const patternInput = (input) => (input instanceof URL ? input.href : input);
  class URLPattern {
    constructor(init = {}, base, options) {
      if (base !== undefined && typeof base === 'object') { options = base; base = undefined; }
      this._made = { init: patternInput(init), ...(base !== undefined && { base: String(base) }), ...(options && { options }) };
      const parts = patternCall({ ...this._made, op: 'make' });
      for (const [k, v] of Object.entries(parts)) Object.defineProperty(this, k, { value: v, enumerable: true });
    }
    test(input = {}, base) { return patternCall({ ...this._made, op: 'test', input: patternInput(input), ...(base !== undefined && { inputBase: String(base) }) }); }
    exec(input = {}, base) { return patternCall({ ...this._made, op: 'exec', input: patternInput(input), ...(base !== undefined && { inputBase: String(base) }) }); }
  }

  // The Cache API as a zone-less worker (workers.dev) has it: every operation works and caches nothing.
  class Cache {
    match() { return Promise.resolve(undefined); }
    put(request, response) { return response instanceof Response ? Promise.resolve(undefined) : Promise.reject(new TypeError('put() expects a Response')); }
    delete() { return Promise.resolve(false); }
  }
  const defaultCache = new Cache();
  const caches = { default: defaultCache, open: () => Promise.resolve(new Cache()) };

  const show = (v) => (typeof v === 'string' ? v : v instanceof Error ? String(v.stack || v) : (() => { try { return JSON.stringify(v); } catch { return String(v); } })());
  const logAt = (level) => (...args) => host.log(level, args.map(show).join(' '));
  const console = { log: logAt('info'), info: logAt('info'), debug: logAt('debug'), warn: logAt('warn'), error: logAt('error'), trace: logAt('debug') };

  // In V8, where these scripts are written to run, an error's stack starts with "Name: message"; QuickJS's
  // holds the frames only, so a script that logs error.stack (as @gitbook/runtime does) would log no reason.
  // Errors made by the script (and classes extending them) get V8's form.
  for (const name of ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']) {
    const Native = globalThis[name];
    if (typeof Native !== 'function') continue;
    globalThis[name] = new Proxy(Native, {
      construct(target, args, newTarget) {
        const error = Reflect.construct(target, args, newTarget);
        const frames = typeof error.stack === 'string' ? error.stack : '';
        Object.defineProperty(error, 'stack', {
          get() { return String(this.name) + (this.message ? ': ' + this.message : '') + '\n' + frames; },
          set(value) { Object.defineProperty(this, 'stack', { value, writable: true, configurable: true }); },
          configurable: true,
        });
        return error;
      },
    });
  }

  Object.assign(globalThis, {
    TextEncoder, TextDecoder, atob, btoa,
    DOMException, Event, EventTarget, AbortController, AbortSignal,
    setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask, structuredClone,
    Blob, File, FormData,
    ReadableStream, ReadableStreamDefaultReader, WritableStream, WritableStreamDefaultWriter, TransformStream,
    TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream, CountQueuingStrategy, ByteLengthQueuingStrategy,
    crypto, CryptoKey,
    URL, URLSearchParams, URLPattern, Headers, Request, Response, fetch, console, caches, Cache,
  });
  globalThis.self = globalThis;
  globalThis.navigator = { userAgent: 'docs-api-integrations' };

  // Called by the worker with the module's namespace: runs its default export's fetch and answers the
  // response as JSON text (what the host reads back). Work handed to context.waitUntil goes on after the
  // answer: "waiting" tells the worker how much, and __settle() is the promise of all of it.
  let waiting = [];
  globalThis.__settle = () => { const all = Promise.all(waiting); waiting = []; return all.then(() => ''); };
  globalThis.__dispatch = (module, wire, envJson) => {
    const handler = module && module.default;
    if (!handler || typeof handler.fetch !== 'function') {
      return Promise.reject(new TypeError('The script has no default export with a fetch(request, env, context) method'));
    }
    const incoming = JSON.parse(wire);
    const request = new Request(incoming.url, { method: incoming.method, headers: incoming.headers, body: fromWire(incoming) });
    waiting = [];
    const context = { waitUntil: (p) => { waiting.push(Promise.resolve(p).catch((e) => console.error('waitUntil:', show(e)))); }, passThroughOnException() {} };
    return Promise.resolve()
      .then(() => handler.fetch(request, JSON.parse(envJson), context))
      .then((response) => {
        if (!(response instanceof Response)) throw new TypeError('fetch must return a Response');
        return response._take().then((body) => JSON.stringify({ status: response.status, headers: response.headers._wire(), ...wireBody(body), waiting: waiting.length }));
      });
  };
`;

export const PRELUDE = `(() => {
  const host = globalThis.__host;
  delete globalThis.__host;
${ENCODING}
${EVENTS}
${FORMS}
${STREAMS}
${CRYPTO}
${WEB}
})();
`;
