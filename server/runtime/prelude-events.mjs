// Prelude fragment (see prelude.mjs): DOMException, Event, EventTarget, AbortController and AbortSignal
// (with timeout, abort and any), timers (setTimeout, setInterval and their clear*, queueMicrotask) and
// structuredClone. A timer waits on the host (`host.sleep`, a promise the worker settles), so a script
// waiting on one spends no CPU time; timers live within one invocation: those still pending when it ends
// never fire (as in Workers after the answer, unless waitUntil keeps the invocation going).
export const EVENTS = String.raw`
  class DOMException extends Error {
    constructor(message = '', name = 'Error') {
      super(message);
      this.name = name;
    }
    get code() { return ({ AbortError: 20, TimeoutError: 23, InvalidCharacterError: 5, NotSupportedError: 9, DataCloneError: 25, InvalidAccessError: 15 })[this.name] ?? 0; }
  }

  class Event {
    constructor(type, init = {}) {
      this.type = String(type);
      this.bubbles = !!init.bubbles;
      this.cancelable = !!init.cancelable;
      this.defaultPrevented = false;
      this.target = null;
      this.currentTarget = null;
      this.timeStamp = Date.now();
    }
    preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
    stopPropagation() {}
    stopImmediatePropagation() { this._stopped = true; }
  }

  class EventTarget {
    constructor() { this._listeners = new Map(); }
    addEventListener(type, listener, options = {}) {
      if (!listener) return;
      const list = this._listeners.get(type) ?? [];
      if (list.some((l) => l.listener === listener)) return;
      list.push({ listener, once: typeof options === 'object' && !!options.once });
      this._listeners.set(type, list);
      if (typeof options === 'object' && options.signal) options.signal.addEventListener('abort', () => this.removeEventListener(type, listener));
    }
    removeEventListener(type, listener) {
      const list = this._listeners.get(type);
      if (list) this._listeners.set(type, list.filter((l) => l.listener !== listener));
    }
    dispatchEvent(event) {
      event.target = event.currentTarget = this;
      const handler = this['on' + event.type];
      if (typeof handler === 'function') handler.call(this, event);
      for (const { listener, once } of [...(this._listeners.get(event.type) ?? [])]) {
        if (once) this.removeEventListener(event.type, listener);
        if (typeof listener === 'function') listener.call(this, event);
        else if (listener && typeof listener.handleEvent === 'function') listener.handleEvent(event);
        if (event._stopped) break;
      }
      return !event.defaultPrevented;
    }
  }

  const timers = new Map();
  let nextTimer = 1;
  const runTimer = (id) => {
    const timer = timers.get(id);
    if (!timer) return;
    host.sleep(timer.ms).then(() => {
      if (!timers.has(id)) return;
      if (!timer.repeat) timers.delete(id);
      try { timer.fn(...timer.args); } catch (err) { console.error('Uncaught in a timer:', String(err && err.stack || err)); }
      if (timer.repeat && timers.has(id)) runTimer(id);
    });
  };
  const addTimer = (fn, ms, args, repeat) => {
    if (typeof fn !== 'function') throw new TypeError('The timer callback must be a function');
    const id = nextTimer++;
    timers.set(id, { fn, ms: Math.max(repeat ? 1 : 0, Number(ms) || 0), args, repeat });
    runTimer(id);
    return id;
  };
  const setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
  const setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
  const clearTimeout = (id) => { timers.delete(id); };
  const clearInterval = clearTimeout;
  const queueMicrotask = (fn) => { Promise.resolve().then(fn).catch((err) => console.error('Uncaught in a microtask:', String(err && err.stack || err))); };

  class AbortSignal extends EventTarget {
    constructor() {
      super();
      this.aborted = false;
      this.reason = undefined;
      this.onabort = null;
    }
    throwIfAborted() { if (this.aborted) throw this.reason; }
    _abort(reason) {
      if (this.aborted) return;
      this.aborted = true;
      this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      this.dispatchEvent(new Event('abort'));
    }
    static abort(reason) { const s = new AbortSignal(); s._abort(reason); return s; }
    static timeout(ms) {
      const s = new AbortSignal();
      setTimeout(() => s._abort(new DOMException('The operation timed out', 'TimeoutError')), ms);
      return s;
    }
    static any(signals) {
      const s = new AbortSignal();
      for (const one of signals) {
        if (one.aborted) { s._abort(one.reason); break; }
        one.addEventListener('abort', () => s._abort(one.reason));
      }
      return s;
    }
  }
  class AbortController {
    constructor() { this.signal = new AbortSignal(); }
    abort(reason) { this.signal._abort(reason); }
  }

  // The structured clone of values a script may keep or pass on; functions and symbols cannot be cloned.
  const structuredClone = (value) => {
    const seen = new Map();
    const clone = (v) => {
      if (v === null || typeof v !== 'object') {
        if (typeof v === 'function' || typeof v === 'symbol') throw new DOMException('The value could not be cloned', 'DataCloneError');
        return v;
      }
      if (seen.has(v)) return seen.get(v);
      let out;
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (ArrayBuffer.isView(v)) out = new v.constructor(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
      else if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
      else if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x)); return out; }
      else if (v instanceof Error) { out = new v.constructor(v.message); out.name = v.name; }
      else if (Array.isArray(v)) { out = []; seen.set(v, out); for (let i = 0; i < v.length; i++) out[i] = clone(v[i]); return out; }
      else if (typeof Blob !== 'undefined' && v instanceof Blob) out = v.slice(0, v.size, v.type);
      else {
        out = {};
        seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      }
      seen.set(v, out);
      return out;
    };
    return clone(value);
  };
`;
