// Prelude fragment (see prelude.mjs): a ReadableStream enough for streamed bodies (a Response made from a
// stream, `response.body.getReader()`, `for await` over a body): an underlying source with start, pull and
// cancel, a default reader, and the helpers the bodies use (streamOfBytes, readAllBytes).
export const STREAMS = String.raw`
  class ReadableStream {
    constructor(source = {}) {
      this._source = source;
      this._queue = [];
      this._closed = false;
      this._error = undefined;
      this._wake = null;
      this.locked = false;
      const notify = () => { const wake = this._wake; this._wake = null; if (wake) wake(); };
      this._controller = {
        enqueue: (chunk) => { if (this._closed) throw new TypeError('The stream is closed'); this._queue.push(chunk); notify(); },
        close: () => { this._closed = true; notify(); },
        error: (reason) => { this._error = reason ?? new TypeError('The stream errored'); notify(); },
        get desiredSize() { return 1; },
      };
      this._started = Promise.resolve().then(() => (source.start ? source.start(this._controller) : undefined));
    }
    async _read() {
      await this._started;
      for (;;) {
        if (this._queue.length > 0) return { value: this._queue.shift(), done: false };
        if (this._error !== undefined) throw this._error;
        if (this._closed) return { value: undefined, done: true };
        if (this._source.pull) {
          await this._source.pull(this._controller);
          if (this._queue.length > 0 || this._closed || this._error !== undefined) continue;
        }
        await new Promise((resolve) => { this._wake = resolve; });
      }
    }
    cancel(reason) {
      this._closed = true;
      this._queue = [];
      return Promise.resolve(this._source.cancel ? this._source.cancel(reason) : undefined);
    }
    getReader() {
      if (this.locked) throw new TypeError('The stream is locked to a reader');
      this.locked = true;
      return {
        read: () => this._read(),
        releaseLock: () => { this.locked = false; },
        cancel: (reason) => this.cancel(reason),
      };
    }
    async *[Symbol.asyncIterator]() {
      const reader = this.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    }
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
