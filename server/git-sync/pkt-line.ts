// Git's pkt-line framing (smart HTTP, protocol v0): four hex digits of length (their own included), then
// the payload; `0000` is a flush. The reader takes lines off a byte stream as they arrive, so a pack
// that follows the lines (or is carried in them, side-band) is never held whole.

export const FLUSH = '0000';

/** One pkt-line holding `text`. */
export function pktLine(text: string | Buffer): Buffer {
  const payload = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0'), 'ascii'), payload]);
}

/** Reads pkt-lines from a byte stream. */
export class PktReader {
  private buffered: Buffer[] = [];
  private size = 0;
  private readonly source: AsyncIterator<Uint8Array>;

  constructor(stream: AsyncIterable<Uint8Array>) {
    this.source = stream[Symbol.asyncIterator]();
  }

  private async fill(bytes: number): Promise<boolean> {
    while (this.size < bytes) {
      const next = await this.source.next();
      if (next.done) return false;
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      this.buffered.push(chunk);
      this.size += chunk.length;
    }
    return true;
  }

  /**
   * The next `bytes` bytes: a view of the first chunk when they lie in it, else a copy of just those bytes;
   * what follows them stays a view of its chunk. A side-band packet (64 KiB) spans two of the socket's
   * chunks most of the time: copying the whole buffered list for each one (and the rest again for the next)
   * allocated the pack two times over, each allocation counting toward V8's external memory, whose growth
   * starts a full garbage collection every few tens of MB (docs/benchmarks.md, the 500 MB import).
   */
  private take(bytes: number): Buffer {
    if (bytes === 0) return Buffer.alloc(0); // `0004`, an empty line
    const first = this.buffered[0]!;
    let out: Buffer;
    if (first.length >= bytes) {
      out = first.subarray(0, bytes);
      if (first.length === bytes) this.buffered.shift();
      else this.buffered[0] = first.subarray(bytes);
    } else {
      out = Buffer.allocUnsafe(bytes);
      let filled = 0;
      let used = 0;
      while (filled < bytes) {
        const chunk = this.buffered[used]!;
        const n = chunk.copy(out, filled, 0, Math.min(chunk.length, bytes - filled));
        filled += n;
        if (n === chunk.length) used++;
        else this.buffered[used] = chunk.subarray(n);
      }
      this.buffered.splice(0, used);
    }
    this.size -= bytes;
    return out;
  }

  /** The next line's payload; null for a flush; undefined at the end of the stream. */
  async next(): Promise<Buffer | null | undefined> {
    if (!(await this.fill(4))) {
      if (this.size > 0) throw new Error('The Git server ended its answer inside a pkt-line');
      return undefined;
    }
    const length = Number.parseInt(this.take(4).toString('ascii'), 16);
    if (Number.isNaN(length)) throw new Error('The Git server sent a malformed pkt-line');
    if (length < 4) return null; // 0000 flush (0001/0002 delimiters of protocol v2 are not asked for)
    if (!(await this.fill(length - 4))) throw new Error('The Git server ended its answer inside a pkt-line');
    return this.take(length - 4);
  }
}
