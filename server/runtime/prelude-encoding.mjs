// Prelude fragment (see prelude.mjs): text and base64 encodings, written in the sandbox's JavaScript
// (QuickJS has none of them): utf8Encode/utf8Decode, fromBase64/toBase64, asBytes, and the globals
// TextEncoder, TextDecoder, atob and btoa.
export const ENCODING = String.raw`
  const utf8Encode = (text) => {
    const out = new Uint8Array(text.length * 3);
    let o = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
      }
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      if (c < 0x80) out[o++] = c;
      else if (c < 0x800) { out[o++] = 0xc0 | (c >> 6); out[o++] = 0x80 | (c & 63); }
      else if (c < 0x10000) { out[o++] = 0xe0 | (c >> 12); out[o++] = 0x80 | ((c >> 6) & 63); out[o++] = 0x80 | (c & 63); }
      else { out[o++] = 0xf0 | (c >> 18); out[o++] = 0x80 | ((c >> 12) & 63); out[o++] = 0x80 | ((c >> 6) & 63); out[o++] = 0x80 | (c & 63); }
    }
    return out.slice(0, o);
  };
  const utf8Decode = (bytes, fatal = false) => {
    const parts = [];
    let s = '';
    const bad = () => { if (fatal) throw new TypeError('The encoded data was not valid UTF-8'); s += '\ufffd'; };
    for (let i = 0; i < bytes.length; ) {
      const b = bytes[i];
      if (b < 0x80) { s += String.fromCharCode(b); i++; }
      else {
        let c, n;
        if (b >= 0xc2 && b < 0xe0) { c = b & 31; n = 2; }
        else if (b >= 0xe0 && b < 0xf0) { c = b & 15; n = 3; }
        else if (b >= 0xf0 && b < 0xf5) { c = b & 7; n = 4; }
        else { bad(); i++; continue; }
        if (i + n > bytes.length) { bad(); break; }
        let ok = true;
        for (let k = 1; k < n; k++) { const x = bytes[i + k]; if ((x & 0xc0) !== 0x80) { ok = false; break; } c = (c << 6) | (x & 63); }
        if (!ok) { bad(); i++; continue; }
        s += String.fromCodePoint(c);
        i += n;
      }
      if (s.length >= 8192) { parts.push(s); s = ''; }
    }
    parts.push(s);
    return parts.join('');
  };

  // Bytes cross the host boundary as base64 inside the JSON text (strings are all that crosses it).
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const B64_INDEX = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;
  const fromBase64 = (text) => {
    const clean = text.replace(/=+$/, '');
    const out = new Uint8Array((clean.length * 3) >> 2);
    let o = 0;
    for (let i = 0; i < clean.length; i += 4) {
      const n = (B64_INDEX[clean.charCodeAt(i)] << 18) | (B64_INDEX[clean.charCodeAt(i + 1)] << 12) | ((B64_INDEX[clean.charCodeAt(i + 2)] & 63) << 6) | (B64_INDEX[clean.charCodeAt(i + 3)] & 63);
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
    encodeInto(text, into) {
      const bytes = utf8Encode(String(text));
      const written = Math.min(bytes.length, into.length);
      into.set(bytes.subarray(0, written));
      return { read: String(text).length, written };
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      if (!/^(utf-?8|unicode-1-1-utf-8)$/i.test(String(label).trim())) throw new RangeError('Only utf-8 is supported, not ' + label);
      this.fatal = !!options.fatal;
      this.ignoreBOM = !!options.ignoreBOM;
    }
    get encoding() { return 'utf-8'; }
    // With { stream: true }, a sequence cut at the end of the input waits for the next call (the bytes kept
    // in _pending); the BOM is looked for at the start of the stream only.
    decode(input, options = {}) {
      let bytes = input === undefined ? new Uint8Array(0) : asBytes(input);
      if (this._pending) { const joined = new Uint8Array(this._pending.length + bytes.length); joined.set(this._pending); joined.set(bytes, this._pending.length); bytes = joined; this._pending = null; }
      if (!this._started && !this.ignoreBOM) {
        if (bytes.length < 3 && options.stream && [0xef, 0xbb, 0xbf].slice(0, bytes.length).every((b, i) => bytes[i] === b)) { this._pending = bytes.slice(); return ''; }
        if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      }
      if (options.stream) {
        this._started = bytes.length > 0 || this._started;
        let cut = bytes.length;
        // The start of the last sequence, if it is incomplete: at most 3 bytes back.
        for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
          const b = bytes[i];
          if ((b & 0xc0) === 0x80) continue;
          const need = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 1;
          if (need > bytes.length - i) cut = i;
          break;
        }
        if (cut < bytes.length) this._pending = bytes.slice(cut);
        return utf8Decode(bytes.subarray(0, cut), this.fatal);
      }
      this._started = false;
      return utf8Decode(bytes, this.fatal);
    }
  }

  // atob/btoa work on "binary strings" (one character per byte), as in browsers.
  const btoa = (text) => {
    text = String(text);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 255) throw new DOMException('The string to be encoded contains characters outside of the Latin1 range', 'InvalidCharacterError');
      bytes[i] = c;
    }
    return toBase64(bytes);
  };
  const atob = (text) => {
    const clean = String(text).replace(/[\t\n\f\r ]/g, '');
    if (clean.length % 4 === 1 || /[^A-Za-z0-9+/=]/.test(clean) || /=[^=]/.test(clean)) throw new DOMException('The string to be decoded is not correctly encoded', 'InvalidCharacterError');
    const bytes = fromBase64(clean);
    let s = '';
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return s;
  };
`;
