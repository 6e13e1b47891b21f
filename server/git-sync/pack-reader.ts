// A Git pack file read from disk, never loaded whole: one pass indexes it (each object's offset, type,
// size and id, hashing objects as they inflate), then an object is read from its offset: small ones (commits,
// trees, Markdown) into memory, a blob as a stream inflated from the file as it is read. A delta (an
// object stored as the difference from another) is rebuilt in memory from its base: one object at a
// time, bounded by that object's size, with a small cache of rebuilt bases for chains of deltas.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInflate, inflateSync } from 'node:zlib';
import { RepositoryTooLarge } from './git-http.js';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';
const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;

interface Header {
  kind: number;
  size: number;
  dataAt: number;
  baseAt?: number;
  baseOid?: string;
}

interface Entry {
  offset: number;
  type: ObjectType;
  size: number;
}

/** Objects up to this size are inflated in one read; larger ones as a stream. */
const SMALL_BYTES = 1024 * 1024;

/**
 * The largest object rebuilt in memory (a delta, its base, the object it makes): a pack declares these sizes
 * itself, so a size past this is refused before anything is allocated. A blob that is no delta is streamed
 * whatever its size, as Git stores most large binary assets (a GIF rarely deltas against another); an asset
 * over this stored as a delta is refused, though GIT_SYNC_MAX_ASSET_BYTES may allow more (docs/git-sync.md).
 */
export const MAX_IN_MEMORY_BYTES = 64 * 1024 * 1024;

const tooLargeInMemory = (size: number) =>
  new RepositoryTooLarge(`The repository is too large: an object of its pack stored as a delta makes ${size} bytes, more than ${MAX_IN_MEMORY_BYTES}`);

/** The bytes a rebuilt-delta cache may hold. */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The size of a streamed object's reads from the file and of its inflated chunks. zlib's default (16 KiB)
 * made each 4 MB asset 256 inflate calls on the thread pool, 256 file reads and 256 turns of the event
 * loop, twice (index, then read): on a loaded machine each turn waits for a core, and that, not the bytes,
 * took the 500 MB import's time (docs/benchmarks.md). 256 KiB makes that 16, and keeps what is in flight
 * small: with 1 MiB, the import of 100 MB of assets grew the server by 18 to 53 MB over three runs
 * (test/git-sync-memory.test.ts holds it under 48 MB), with 256 KiB by 5 to 27 MB.
 */
const STREAM_CHUNK_BYTES = 256 * 1024;

/** The file from `at` and its inflated zlib stream, in chunks of STREAM_CHUNK_BYTES. */
function inflating(path: string, at: number) {
  const input = createReadStream(path, { start: at, highWaterMark: STREAM_CHUNK_BYTES });
  const inflate = createInflate({ chunkSize: STREAM_CHUNK_BYTES });
  input.pipe(inflate);
  return { input, inflate };
}

/** An inflated zlib stream starting at `at` in `path`: its output chunks, then how many input bytes it took. */
async function inflateAt(path: string, at: number, onChunk: (chunk: Buffer) => void | Promise<void>): Promise<number> {
  const { input, inflate } = inflating(path, at);
  try {
    for await (const chunk of inflate) await onChunk(chunk as Buffer);
  } finally {
    input.unpipe(inflate);
    input.destroy();
  }
  return inflate.bytesWritten;
}

/** Git's delta: copy instructions from `base` and inserted bytes, into an object of the size it declares. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  if (varint() !== base.length) throw new Error('A delta of the pack does not fit its base');
  const size = varint();
  if (size > MAX_IN_MEMORY_BYTES) throw tooLargeInMemory(size);
  const out = Buffer.allocUnsafe(size);
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[at++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (1 << (4 + i))) size += delta[at++]! * 2 ** (8 * i);
      if (size === 0) size = 0x10000;
      written += base.copy(out, written, offset, offset + size);
    } else if (op > 0) {
      written += delta.copy(out, written, at, at + op);
      at += op;
    } else throw new Error('A delta of the pack holds an unknown instruction');
  }
  if (written !== out.length) throw new Error('A delta of the pack does not rebuild the size it declares');
  return out;
}

export class PackReader {
  private readonly byOid = new Map<string, Entry>();
  private readonly byOffset = new Map<number, Entry>();
  private readonly cache = new Map<number, Buffer>();
  private cached = 0;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
  ) {}

  /** Indexes the pack at `path` (one pass over it). */
  static async open(path: string): Promise<PackReader> {
    const reader = new PackReader(path, await open(path, 'r'));
    try {
      await reader.index();
    } catch (err) {
      await reader.close();
      throw err;
    }
    return reader;
  }

  async close(): Promise<void> {
    await this.file.close();
  }

  has(oid: string): boolean {
    return this.byOid.has(oid);
  }

  /** The object's type and size, without reading it. */
  info(oid: string): Entry | undefined {
    return this.byOid.get(oid);
  }

  private async header(at: number): Promise<Header> {
    const bytes = Buffer.alloc(32);
    await this.file.read(bytes, 0, 32, at);
    let i = 0;
    let byte = bytes[i++]!;
    const kind = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while (byte & 0x80) {
      byte = bytes[i++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (kind === OFS_DELTA) {
      byte = bytes[i++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[i++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      return { kind, size, dataAt: at + i, baseAt: at - back };
    }
    if (kind === REF_DELTA) return { kind, size, dataAt: at + i + 20, baseOid: bytes.subarray(i, i + 20).toString('hex') };
    if (!TYPES[kind]) throw new Error(`The pack holds an object of unknown type ${kind} at ${at}`);
    return { kind, size, dataAt: at + i };
  }

  /** The inflated data at `dataAt`, whole, and the compressed length. */
  private async inflated(dataAt: number, size: number): Promise<{ bytes: Buffer; consumed: number }> {
    if (size > MAX_IN_MEMORY_BYTES) throw tooLargeInMemory(size);
    if (size <= SMALL_BYTES) {
      // Deflate never grows data by more than a few bytes per 16 KiB block: one read holds the whole stream.
      const window = Buffer.alloc(size + (size >>> 8) + 1024);
      const { bytesRead } = await this.file.read(window, 0, window.length, dataAt);
      const { buffer, engine } = inflateSync(window.subarray(0, bytesRead), { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      if (buffer.length !== size) throw new Error('An object of the pack does not inflate to its declared size');
      return { bytes: buffer, consumed: engine.bytesWritten };
    }
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    const consumed = await inflateAt(this.path, dataAt, (chunk) => {
      filled += chunk.copy(bytes, filled);
    });
    if (filled !== size) throw new Error('An object of the pack does not inflate to its declared size');
    return { bytes, consumed };
  }

  private async index(): Promise<void> {
    const head = Buffer.alloc(12);
    await this.file.read(head, 0, 12, 0);
    if (head.subarray(0, 4).toString('ascii') !== 'PACK') throw new Error('The Git server sent no pack');
    const count = head.readUInt32BE(8);
    let at = 12;
    for (let n = 0; n < count; n++) {
      const h = await this.header(at);
      let entry: Entry;
      let oid: string;
      let consumed: number;
      if (h.kind === OFS_DELTA || h.kind === REF_DELTA) {
        const delta = await this.inflated(h.dataAt, h.size);
        consumed = delta.consumed;
        const base = await this.resolveBase(h);
        const bytes = applyDelta(base.bytes, delta.bytes);
        entry = { offset: at, type: base.type, size: bytes.length };
        oid = createHash('sha1').update(`${base.type} ${bytes.length}\0`).update(bytes).digest('hex');
        this.remember(at, bytes);
      } else {
        const type = TYPES[h.kind]!;
        const hash = createHash('sha1').update(`${type} ${h.size}\0`);
        if (h.size <= SMALL_BYTES) {
          const small = await this.inflated(h.dataAt, h.size);
          hash.update(small.bytes);
          consumed = small.consumed;
        } else consumed = await inflateAt(this.path, h.dataAt, (chunk) => void hash.update(chunk));
        entry = { offset: at, type, size: h.size };
        oid = hash.digest('hex');
      }
      // The first copy of an object stays its entry: a later delta that rebuilds the same object would
      // otherwise be found as its own base, and read itself without end once the cache let it go.
      if (!this.byOid.has(oid)) this.byOid.set(oid, entry);
      this.byOffset.set(at, entry);
      at = h.dataAt + consumed;
    }
  }

  private remember(offset: number, bytes: Buffer): void {
    if (bytes.length > CACHE_BYTES / 4) return;
    this.cache.set(offset, bytes);
    this.cached += bytes.length;
    for (const [key, value] of this.cache) {
      if (this.cached <= CACHE_BYTES) break;
      this.cache.delete(key);
      this.cached -= value.length;
    }
  }

  private async resolveBase(h: Header): Promise<{ type: ObjectType; bytes: Buffer }> {
    const base = h.baseAt !== undefined ? this.byOffset.get(h.baseAt) : this.byOid.get(h.baseOid!);
    if (!base) throw new Error('A delta of the pack has its base outside the pack');
    return { type: base.type, bytes: await this.readAt(base.offset) };
  }

  /** The whole object at `offset` (a delta rebuilt). */
  private async readAt(offset: number): Promise<Buffer> {
    const hit = this.cache.get(offset);
    if (hit) return hit;
    const h = await this.header(offset);
    const { bytes } = await this.inflated(h.dataAt, h.size);
    if (h.kind !== OFS_DELTA && h.kind !== REF_DELTA) return bytes;
    const rebuilt = applyDelta((await this.resolveBase(h)).bytes, bytes);
    this.remember(offset, rebuilt);
    return rebuilt;
  }

  /** The object whole: for commits, trees and text files. */
  async read(oid: string): Promise<{ type: ObjectType; bytes: Buffer }> {
    const entry = this.byOid.get(oid);
    if (!entry) throw new Error(`The pack holds no object ${oid}`);
    return { type: entry.type, bytes: await this.readAt(entry.offset) };
  }

  /** The object's bytes as a stream: inflated from the file as read, or (a delta) rebuilt first. */
  async *stream(oid: string): AsyncGenerator<Buffer> {
    const entry = this.byOid.get(oid);
    if (!entry) throw new Error(`The pack holds no object ${oid}`);
    const h = await this.header(entry.offset);
    // A delta is rebuilt whole; a small object is inflated in one read (a page: no stream to set up).
    if (h.kind === OFS_DELTA || h.kind === REF_DELTA || h.size <= SMALL_BYTES) {
      yield await this.readAt(entry.offset);
      return;
    }
    const { input, inflate } = inflating(this.path, h.dataAt);
    try {
      for await (const chunk of inflate) yield chunk as Buffer;
    } finally {
      input.unpipe(inflate);
      input.destroy();
    }
  }
}
