// Prelude fragment (see prelude.mjs): Blob, File and FormData, with the multipart/form-data encoding
// (what a FormData body is sent as) and its parsing (Request/Response.formData(), which is how a script
// built on GitBook's runtime reads the event, the environment and the fetch body it is sent).
export const FORMS = String.raw`
  const concatBytes = (chunks) => {
    let size = 0;
    for (const c of chunks) size += c.length;
    const out = new Uint8Array(size);
    let o = 0;
    for (const c of chunks) { out.set(c, o); o += c.length; }
    return out;
  };

  class Blob {
    constructor(parts = [], options = {}) {
      const chunks = [];
      for (const part of parts) {
        if (part instanceof Blob) chunks.push(part._bytes);
        else if (part instanceof ArrayBuffer || ArrayBuffer.isView(part)) chunks.push(asBytes(part).slice());
        else chunks.push(utf8Encode(String(part)));
      }
      this._bytes = concatBytes(chunks);
      this.type = options.type ? String(options.type).toLowerCase() : '';
    }
    get size() { return this._bytes.length; }
    text() { return Promise.resolve(utf8Decode(this._bytes)); }
    arrayBuffer() { return Promise.resolve(this._bytes.slice().buffer); }
    bytes() { return Promise.resolve(this._bytes.slice()); }
    slice(start = 0, end = this.size, type = '') {
      const blob = new Blob([], { type });
      blob._bytes = this._bytes.slice(start, end);
      return blob;
    }
    stream() { return streamOfBytes(this._bytes); }
  }
  class File extends Blob {
    constructor(parts, name, options = {}) {
      super(parts, options);
      this.name = String(name);
      this.lastModified = options.lastModified ?? Date.now();
    }
  }

  class FormData {
    constructor() { this._list = []; }
    append(name, value, filename) { this._list.push([String(name), this._entry(value, filename)]); }
    set(name, value, filename) {
      const key = String(name);
      const entry = this._entry(value, filename);
      const at = this._list.findIndex(([k]) => k === key);
      if (at < 0) return void this._list.push([key, entry]);
      // The first entry of the name takes the value; the others go (entries before it stay where they are).
      this._list = this._list.filter(([k], i) => k !== key || i === at);
      this._list[at] = [key, entry];
    }
    _entry(value, filename) {
      if (value instanceof Blob) return value instanceof File && filename === undefined ? value : new File([value], filename ?? 'blob', { type: value.type });
      return String(value);
    }
    get(name) { const e = this._list.find(([k]) => k === String(name)); return e ? e[1] : null; }
    getAll(name) { return this._list.filter(([k]) => k === String(name)).map(([, v]) => v); }
    has(name) { return this._list.some(([k]) => k === String(name)); }
    delete(name) { this._list = this._list.filter(([k]) => k !== String(name)); }
    forEach(fn) { for (const [k, v] of this._list) fn(v, k, this); }
    entries() { return this._list[Symbol.iterator](); }
    keys() { return this._list.map(([k]) => k)[Symbol.iterator](); }
    values() { return this._list.map(([, v]) => v)[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
  }

  const randomBoundary = () => '----sandbox' + toBase64(fromBase64(host.random(12))).replace(/[+/=]/g, 'x');
  const quoted = (text) => String(text).replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  /** A FormData as multipart bytes and its content type. */
  const encodeMultipart = (form) => {
    const boundary = randomBoundary();
    const chunks = [];
    for (const [name, value] of form._list) {
      let head = '--' + boundary + '\r\nContent-Disposition: form-data; name="' + quoted(name) + '"';
      if (typeof value === 'string') {
        chunks.push(utf8Encode(head + '\r\n\r\n'), utf8Encode(value), utf8Encode('\r\n'));
      } else {
        head += '; filename="' + quoted(value.name) + '"\r\nContent-Type: ' + (value.type || 'application/octet-stream') + '\r\n\r\n';
        chunks.push(utf8Encode(head), value._bytes, utf8Encode('\r\n'));
      }
    }
    chunks.push(utf8Encode('--' + boundary + '--\r\n'));
    return { bytes: concatBytes(chunks), type: 'multipart/form-data; boundary=' + boundary };
  };

  const indexOf = (bytes, needle, from) => {
    outer: for (let i = from; i <= bytes.length - needle.length; i++) {
      for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer;
      return i;
    }
    return -1;
  };
  /** The FormData of multipart bytes with 'boundary'; a TypeError when they are not such a body. */
  const parseMultipart = (bytes, boundary) => {
    const form = new FormData();
    const delimiter = utf8Encode('--' + boundary);
    let at = indexOf(bytes, delimiter, 0);
    if (at < 0) throw new TypeError('Could not parse the body as multipart/form-data');
    for (;;) {
      at += delimiter.length;
      if (bytes[at] === 45 && bytes[at + 1] === 45) return form; // "--": the closing delimiter
      if (bytes[at] === 13 && bytes[at + 1] === 10) at += 2;
      const headEnd = indexOf(bytes, utf8Encode('\r\n\r\n'), at);
      if (headEnd < 0) throw new TypeError('Could not parse the body as multipart/form-data');
      const head = utf8Decode(bytes.subarray(at, headEnd));
      const next = indexOf(bytes, utf8Encode('\r\n--' + boundary), headEnd + 4);
      if (next < 0) throw new TypeError('Could not parse the body as multipart/form-data');
      const content = bytes.slice(headEnd + 4, next);
      const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      const type = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim() ?? '';
      if (name !== undefined) {
        if (filename !== undefined) form.append(name, new File([content], filename, { type }));
        else form.append(name, utf8Decode(content));
      }
      at = next + 2;
    }
  };
  /**
   * parseMultipart for a body the host sent as text (valid UTF-8, which is how every event reaches a script
   * built on GitBook's runtime): the same parts, found with the engine's own string search instead of a
   * loop over bytes in guest code, which cost ~1.4 ms of a 3 ms event (bench/results/script-runtime.md).
   * The delimiters are ASCII, so cutting the text where the bytes would be cut gives the same parts.
   */
  const parseMultipartText = (text, boundary) => {
    const form = new FormData();
    const delimiter = '--' + boundary;
    let at = text.indexOf(delimiter);
    if (at < 0) throw new TypeError('Could not parse the body as multipart/form-data');
    for (;;) {
      at += delimiter.length;
      if (text.startsWith('--', at)) return form;
      if (text.startsWith('\r\n', at)) at += 2;
      const headEnd = text.indexOf('\r\n\r\n', at);
      if (headEnd < 0) throw new TypeError('Could not parse the body as multipart/form-data');
      const head = text.slice(at, headEnd);
      const next = text.indexOf('\r\n' + delimiter, headEnd + 4);
      if (next < 0) throw new TypeError('Could not parse the body as multipart/form-data');
      const content = text.slice(headEnd + 4, next);
      const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      const type = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim() ?? '';
      if (name !== undefined) {
        if (filename !== undefined) form.append(name, new File([content], filename, { type }));
        else form.append(name, content);
      }
      at = next + 2;
    }
  };
  /** The FormData of a body of 'contentType' (multipart or URL-encoded): bytes, or text as the host sent it. */
  const parseForm = (body, contentType) => {
    const type = String(contentType ?? '').toLowerCase();
    if (type.startsWith('multipart/form-data')) {
      const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(String(contentType));
      if (!boundary) throw new TypeError('The multipart/form-data body has no boundary');
      const name = (boundary[1] ?? boundary[2]).trim();
      return typeof body === 'string' ? parseMultipartText(body, name) : parseMultipart(body, name);
    }
    if (type.startsWith('application/x-www-form-urlencoded')) {
      const form = new FormData();
      for (const [k, v] of new URLSearchParams(typeof body === 'string' ? body : utf8Decode(body))) form.append(k, v);
      return form;
    }
    throw new TypeError('The body is neither multipart/form-data nor application/x-www-form-urlencoded');
  };
`;
