// Prelude fragment (see prelude.mjs): the WHATWG streams scripts use, written for the sandbox (QuickJS has
// none; Node's own live outside it): ReadableStream (start/pull/cancel sources, a default reader, async
// iteration, tee, pipeTo, pipeThrough, ReadableStream.from), WritableStream (start/write/close/abort sinks, a
// writer with ready/closed/desiredSize), TransformStream (start/transform/flush, a default controller),
// TextEncoderStream, TextDecoderStream, CompressionStream and DecompressionStream (gzip, deflate,
// deflate-raw: the bytes are (de)compressed by Node's zlib, `host.zlib`, once the writable side closes),
// the queuing strategies, and the helpers the bodies use (streamOfBytes, readAllBytes). Queues count chunks
// (or what a strategy's size says) against a high-water mark, which is what `desiredSize` and a writer's
// `ready` report; a source's pull is called while the queue is below it.
export const STREAMS = String.raw`
  const settledPromise = Promise.resolve();
  const deferred = () => { let resolve, reject; const promise = new Promise((a, b) => { resolve = a; reject = b; }); promise.catch(() => {}); return { promise, resolve, reject }; };
  const sizeOf = (strategy) => (strategy && typeof strategy.size === 'function' ? strategy.size : () => 1);
  const markOf = (strategy, fallback) => (strategy && strategy.highWaterMark !== undefined ? Number(strategy.highWaterMark) : fallback);

  class ReadableStream {
    constructor(source = {}, strategy = {}) {
      this._source = source || {};
      this._queue = [];
      this._queued = 0;
      this._size = sizeOf(strategy);
      this._mark = markOf(strategy, 1);
      this._state = 'readable';
      this._error = undefined;
      this._waiting = [];
      this._reader = null;
      this._pulling = false;
      const stream = this;
      this._controller = {
        enqueue(chunk) {
          if (stream._state !== 'readable' || stream._closeRequested) throw new TypeError('Cannot enqueue a chunk into a closed stream');
          if (stream._waiting.length > 0) stream._waiting.shift().resolve({ value: chunk, done: false });
          else {
            stream._queue.push(chunk);
            stream._queued += stream._size(chunk);
          }
          stream._pullIfNeeded();
        },
        close() {
          if (stream._state !== 'readable' || stream._closeRequested) throw new TypeError('The stream is closed');
          stream._closeRequested = true;
          if (stream._queue.length === 0) stream._close();
        },
        error(reason) { stream._fail(reason); },
        get desiredSize() { return stream._state === 'errored' ? null : stream._state === 'closed' ? 0 : stream._mark - stream._queued; },
      };
      this._started = Promise.resolve().then(() => (this._source.start ? this._source.start(this._controller) : undefined)).then(
        () => { this._startedDone = true; this._pullIfNeeded(); },
        (err) => this._fail(err),
      );
    }
    get locked() { return this._reader !== null; }
    _close() {
      if (this._state !== 'readable') return;
      this._state = 'closed';
      for (const w of this._waiting.splice(0)) w.resolve({ value: undefined, done: true });
      if (this._reader) this._reader._closed.resolve();
    }
    _fail(reason) {
      if (this._state !== 'readable') return;
      this._state = 'errored';
      this._error = reason === undefined ? new TypeError('The stream errored') : reason;
      this._queue = [];
      for (const w of this._waiting.splice(0)) w.reject(this._error);
      if (this._reader) this._reader._closed.reject(this._error);
    }
    // As the standard's CallPullIfNeeded: one pull at a time, again after it only if asked meanwhile.
    _pullIfNeeded() {
      if (!this._startedDone || this._state !== 'readable' || this._closeRequested || !this._source.pull) return;
      if (this._waiting.length === 0 && this._queued >= this._mark) return;
      if (this._pulling) { this._pullAgain = true; return; }
      this._pulling = true;
      Promise.resolve()
        .then(() => this._source.pull(this._controller))
        .then(
          () => { this._pulling = false; if (this._pullAgain) { this._pullAgain = false; this._pullIfNeeded(); } },
          (err) => { this._pulling = false; this._fail(err); },
        );
    }
    _read() {
      if (this._queue.length > 0) {
        const value = this._queue.shift();
        this._queued -= this._size(value);
        if (this._queue.length === 0 && this._closeRequested) this._close();
        else this._pullIfNeeded();
        return Promise.resolve({ value, done: false });
      }
      if (this._state === 'closed') return Promise.resolve({ value: undefined, done: true });
      if (this._state === 'errored') return Promise.reject(this._error);
      const waiter = deferred();
      this._waiting.push(waiter);
      this._pullIfNeeded();
      return waiter.promise;
    }
    cancel(reason) {
      if (this.locked) return Promise.reject(new TypeError('The stream is locked to a reader'));
      return this._cancel(reason);
    }
    _cancel(reason) {
      if (this._state === 'closed') return settledPromise;
      if (this._state === 'errored') return Promise.reject(this._error);
      this._queue = [];
      this._queued = 0;
      this._close();
      return Promise.resolve(this._source.cancel ? this._source.cancel(reason) : undefined).then(() => undefined);
    }
    getReader(options = {}) {
      if (options && options.mode === 'byob') throw new TypeError('BYOB readers are not supported here');
      if (this.locked) throw new TypeError('The stream is locked to a reader');
      return new ReadableStreamDefaultReader(this);
    }
    tee() {
      const reader = this.getReader();
      const branches = [];
      let canceled = 0;
      let reading = null;
      const pull = () => {
        if (reading) return reading;
        reading = reader.read().then(({ value, done }) => {
          reading = null;
          for (const b of branches) {
            if (b._state !== 'readable' || b._closeRequested) continue;
            if (done) b._controller.close(); else b._controller.enqueue(value);
          }
        }, (err) => { reading = null; for (const b of branches) b._fail(err); });
        return reading;
      };
      const cancel = () => { if (++canceled === 2) return reader.cancel(); return undefined; };
      for (let i = 0; i < 2; i++) branches.push(new ReadableStream({ pull, cancel }));
      return branches;
    }
    pipeTo(destination, options = {}) {
      if (this.locked) return Promise.reject(new TypeError('The stream is locked to a reader'));
      if (!(destination instanceof WritableStream)) return Promise.reject(new TypeError('pipeTo expects a WritableStream'));
      if (destination.locked) return Promise.reject(new TypeError('The destination is locked to a writer'));
      const reader = this.getReader();
      const writer = destination.getWriter();
      const signal = options.signal;
      const finish = () => { reader.releaseLock(); writer.releaseLock(); };
      return new Promise((resolve, reject) => {
        let done = false;
        const end = (error, fn) => { if (done) return; done = true; Promise.resolve(fn && fn()).then(() => { finish(); error === undefined ? resolve() : reject(error); }, (e) => { finish(); reject(error === undefined ? e : error); }); };
        if (signal) {
          const abort = () => end(signal.reason, () => Promise.all([options.preventAbort ? null : writer.abort(signal.reason), options.preventCancel ? null : reader.cancel(signal.reason)]).catch(() => {}));
          if (signal.aborted) return abort();
          signal.addEventListener('abort', abort, { once: true });
        }
        writer.closed.catch((err) => end(err, () => (options.preventCancel ? undefined : reader.cancel(err).catch(() => {}))));
        const step = () => {
          if (done) return;
          writer.ready.then(() => reader.read()).then(({ value, done: finished }) => {
            if (done) return;
            if (finished) return end(undefined, () => (options.preventClose ? undefined : writer.close()));
            writer.write(value).catch(() => {});
            step();
          }, (err) => end(err, () => (options.preventAbort ? undefined : writer.abort(err).catch(() => {}))));
        };
        step();
      });
    }
    pipeThrough(transform, options) {
      const piped = this.pipeTo(transform.writable, options);
      piped.catch(() => {});
      return transform.readable;
    }
    values(options = {}) {
      const reader = this.getReader();
      const keep = options && options.preventCancel;
      return {
        next: () => reader.read().then((r) => { if (r.done) reader.releaseLock(); return r; }),
        return: (value) => { const done = keep ? settledPromise : reader.cancel(value); reader.releaseLock(); return done.then(() => ({ value, done: true })); },
        [Symbol.asyncIterator]() { return this; },
      };
    }
    [Symbol.asyncIterator](options) { return this.values(options); }
    static from(iterable) {
      if (iterable instanceof ReadableStream) return iterable;
      const iterator = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
      return new ReadableStream({
        pull(c) { return Promise.resolve(iterator.next()).then(({ value, done }) => (done ? c.close() : Promise.resolve(value).then((v) => c.enqueue(v)))); },
        cancel(reason) { return iterator.return ? iterator.return(reason) : undefined; },
      }, { highWaterMark: 0 });
    }
  }

  class ReadableStreamDefaultReader {
    constructor(stream) {
      if (stream.locked) throw new TypeError('The stream is locked to a reader');
      this._stream = stream;
      stream._reader = this;
      this._closed = deferred();
      if (stream._state === 'closed') this._closed.resolve();
      if (stream._state === 'errored') this._closed.reject(stream._error);
    }
    get closed() { return this._closed.promise; }
    read() {
      if (!this._stream) return Promise.reject(new TypeError('The reader was released'));
      return this._stream._read();
    }
    cancel(reason) { return this._stream ? this._stream._cancel(reason) : Promise.reject(new TypeError('The reader was released')); }
    releaseLock() {
      if (!this._stream) return;
      for (const w of this._stream._waiting.splice(0)) w.reject(new TypeError('The reader was released'));
      this._stream._reader = null;
      this._stream = null;
    }
  }

  class WritableStream {
    constructor(sink = {}, strategy = {}) {
      this._sink = sink || {};
      this._state = 'writable';
      this._error = undefined;
      this._queue = [];
      this._queued = 0;
      this._size = sizeOf(strategy);
      this._mark = markOf(strategy, 1);
      this._writer = null;
      this._busy = false;
      this._closing = null;
      this._readyWaiters = [];
      this._closedWaiters = [];
      const stream = this;
      this._controller = {
        error(reason) { stream._fail(reason); },
        signal: new AbortController().signal,
      };
      this._abortController = null;
      this._started = Promise.resolve().then(() => (this._sink.start ? this._sink.start(this._controller) : undefined)).then(
        () => { this._startedDone = true; this._advance(); },
        (err) => this._fail(err),
      );
    }
    get locked() { return this._writer !== null; }
    get _desired() { return this._state === 'errored' ? null : this._state !== 'writable' ? 0 : this._mark - this._queued; }
    _fail(reason) {
      if (this._state === 'errored' || this._state === 'closed') return;
      this._state = 'errored';
      this._error = reason === undefined ? new TypeError('The stream errored') : reason;
      for (const item of this._queue.splice(0)) item.reject(this._error);
      if (this._closing) this._closing.reject(this._error);
      for (const w of this._readyWaiters.splice(0)) w.reject(this._error);
      for (const w of this._closedWaiters.splice(0)) w.reject(this._error);
    }
    _notifyReady() {
      if (this._desired > 0 || this._state !== 'writable') for (const w of this._readyWaiters.splice(0)) w.resolve();
    }
    _advance() {
      if (!this._startedDone || this._busy || this._state === 'errored' || this._state === 'closed') return;
      if (this._queue.length > 0) {
        const item = this._queue.shift();
        this._busy = true;
        Promise.resolve()
          .then(() => (this._sink.write ? this._sink.write(item.chunk, this._controller) : undefined))
          .then(() => {
            this._busy = false;
            this._queued -= item.size;
            item.resolve();
            this._notifyReady();
            this._advance();
          }, (err) => { this._busy = false; item.reject(err); this._fail(err); });
        return;
      }
      if (this._closing && this._state === 'closing') {
        this._busy = true;
        Promise.resolve()
          .then(() => (this._sink.close ? this._sink.close() : undefined))
          .then(() => {
            this._busy = false;
            this._state = 'closed';
            this._closing.resolve();
            for (const w of this._closedWaiters.splice(0)) w.resolve();
          }, (err) => { this._busy = false; this._fail(err); });
      }
    }
    _write(chunk) {
      if (this._state === 'errored') return Promise.reject(this._error);
      if (this._state !== 'writable') return Promise.reject(new TypeError('The stream is closing or closed'));
      const item = deferred();
      item.chunk = chunk;
      item.size = this._size(chunk);
      this._queued += item.size;
      this._queue.push(item);
      this._advance();
      return item.promise;
    }
    _close() {
      if (this._state === 'errored') return Promise.reject(this._error);
      if (this._state !== 'writable') return Promise.reject(new TypeError('The stream is closing or closed'));
      this._state = 'closing';
      this._closing = deferred();
      this._notifyReady();
      this._advance();
      return this._closing.promise;
    }
    _abort(reason) {
      if (this._state === 'closed' || this._state === 'errored') return settledPromise;
      this._fail(reason);
      return Promise.resolve(this._sink.abort ? this._sink.abort(reason) : undefined).then(() => undefined);
    }
    abort(reason) { return this.locked ? Promise.reject(new TypeError('The stream is locked to a writer')) : this._abort(reason); }
    close() { return this.locked ? Promise.reject(new TypeError('The stream is locked to a writer')) : this._close(); }
    getWriter() {
      if (this.locked) throw new TypeError('The stream is locked to a writer');
      return new WritableStreamDefaultWriter(this);
    }
  }

  class WritableStreamDefaultWriter {
    constructor(stream) {
      if (stream.locked) throw new TypeError('The stream is locked to a writer');
      this._stream = stream;
      stream._writer = this;
    }
    _live() { if (!this._stream) throw new TypeError('The writer was released'); return this._stream; }
    get desiredSize() { return this._live()._desired; }
    get ready() {
      const stream = this._stream;
      if (!stream) return Promise.reject(new TypeError('The writer was released'));
      if (stream._state === 'errored') return Promise.reject(stream._error);
      if (stream._desired > 0 || stream._state !== 'writable') return settledPromise;
      const waiter = deferred();
      stream._readyWaiters.push(waiter);
      return waiter.promise;
    }
    get closed() {
      const stream = this._stream;
      if (!stream) return Promise.reject(new TypeError('The writer was released'));
      if (stream._state === 'closed') return settledPromise;
      if (stream._state === 'errored') return Promise.reject(stream._error);
      const waiter = deferred();
      stream._closedWaiters.push(waiter);
      return waiter.promise;
    }
    write(chunk) { try { return this._live()._write(chunk); } catch (err) { return Promise.reject(err); } }
    close() { try { return this._live()._close(); } catch (err) { return Promise.reject(err); } }
    abort(reason) { try { return this._live()._abort(reason); } catch (err) { return Promise.reject(err); } }
    releaseLock() { if (this._stream) { this._stream._writer = null; this._stream = null; } }
  }

  class TransformStream {
    constructor(transformer = {}, writableStrategy = {}, readableStrategy = {}) {
      transformer = transformer || {};
      let readableController;
      this.readable = new ReadableStream({ start(c) { readableController = c; } }, readableStrategy);
      const readable = this.readable;
      const controller = {
        enqueue: (chunk) => readableController.enqueue(chunk),
        error: (reason) => { readableController.error(reason); this.writable._fail(reason); },
        terminate: () => { try { readableController.close(); } catch {} },
        get desiredSize() { return readableController.desiredSize; },
      };
      const started = Promise.resolve().then(() => (transformer.start ? transformer.start(controller) : undefined));
      // A transform or flush that fails errors both sides (a reader of the readable side learns why).
      const failing = (work) => Promise.resolve().then(work).catch((err) => { readable._fail(err); throw err; });
      this.writable = new WritableStream({
        start: () => started,
        write: (chunk) => failing(() => (transformer.transform ? transformer.transform(chunk, controller) : controller.enqueue(chunk))),
        close: () => failing(() => (transformer.flush ? transformer.flush(controller) : undefined)).then(() => { if (readable._state === 'readable' && !readable._closeRequested) readableController.close(); }),
        abort: (reason) => { readable._fail(reason); },
      }, writableStrategy);
      // Cancelling the readable side errors the writable side, as the standard's transform does.
      readable._source.cancel = (reason) => { this.writable._fail(reason); return transformer.cancel ? transformer.cancel(reason) : undefined; };
    }
  }

  class TextEncoderStream extends TransformStream {
    constructor() { super({ transform(chunk, c) { const bytes = utf8Encode(String(chunk)); if (bytes.length > 0) c.enqueue(bytes); } }); }
    get encoding() { return 'utf-8'; }
  }
  class TextDecoderStream extends TransformStream {
    constructor(label = 'utf-8', options = {}) {
      const decoder = new TextDecoder(label, options);
      super({
        transform(chunk, c) { const text = decoder.decode(chunk, { stream: true }); if (text) c.enqueue(text); },
        flush(c) { const text = decoder.decode(); if (text) c.enqueue(text); },
      });
      this._decoder = decoder;
    }
    get encoding() { return this._decoder.encoding; }
    get fatal() { return this._decoder.fatal; }
    get ignoreBOM() { return this._decoder.ignoreBOM; }
  }

  const ZLIB_FORMATS = ['gzip', 'deflate', 'deflate-raw'];
  const zlibStream = (direction, format) => {
    if (!ZLIB_FORMATS.includes(format)) throw new TypeError('Unsupported compression format: ' + format);
    const chunks = [];
    return {
      transform(chunk) {
        if (!(chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk))) throw new TypeError('The chunk must be an ArrayBuffer or an ArrayBufferView');
        chunks.push(asBytes(chunk).slice());
      },
      flush(c) {
        const answer = JSON.parse(host.zlib(direction, format, toBase64(concatBytes(chunks))));
        if (answer.error) throw new TypeError(answer.error);
        const bytes = fromBase64(answer.bytes);
        if (bytes.length > 0) c.enqueue(bytes);
      },
    };
  };
  class CompressionStream extends TransformStream { constructor(format) { super(zlibStream('compress', format)); } }
  class DecompressionStream extends TransformStream { constructor(format) { super(zlibStream('decompress', format)); } }

  class CountQueuingStrategy {
    constructor({ highWaterMark }) { this.highWaterMark = highWaterMark; }
    get size() { return () => 1; }
  }
  class ByteLengthQueuingStrategy {
    constructor({ highWaterMark }) { this.highWaterMark = highWaterMark; }
    get size() { return (chunk) => chunk.byteLength; }
  }

  const streamOfBytes = (bytes) => new ReadableStream({ start(c) { if (bytes.length > 0) c.enqueue(bytes.slice()); c.close(); } });
  /** Every chunk of the stream, as one byte array (strings as UTF-8). */
  const readAllBytes = async (stream) => {
    const chunks = [];
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(typeof value === 'string' ? utf8Encode(value) : asBytes(value));
    }
    reader.releaseLock();
    return concatBytes(chunks);
  };
`;
