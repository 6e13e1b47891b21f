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

  private take(bytes: number): Buffer {
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const out = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
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
