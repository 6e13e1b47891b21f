// A Git pack file read from disk, never loaded whole: one pass indexes it (each object's offset, type,
// size and id, hashing objects as they inflate), then an object is read from its offset: small ones (commits,
// trees, Markdown) into memory, a blob as a stream inflated from the file as it is read. A delta (an
// object stored as the difference from another) is rebuilt from its base: in memory up to `inMemoryBytes`,
// with a small cache of rebuilt bases for chains of deltas; a larger one into a file beside the pack
// (pack-delta-file.ts), kept while the spill budget allows, so a large asset Git sent as a delta streams
// from disk like any other. A caller that wants the large blobs' bytes anyway (the import, for the file
// store) may take each as the index pass inflates it (`keep`), so those bytes are inflated once, not twice.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { createInflate, inflateSync } from 'node:zlib';
import { RepositoryTooLarge } from './git-http.js';
import { applyDeltaStreaming, bytesInFile, bytesInMemory, deltaSizes, type ObjectBytes } from './pack-delta-file.js';

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

/**
 * What the index pass found, to be read by another reader of the same file (the pass may run in a thread of
 * its own: pack-thread.ts): each object in pack order with its id, and what `keep` made of the large blobs.
 */
export interface PackIndex<K> {
  objects: (Entry & { oid: string })[];
  kept: [oid: string, kept: K][];
}

/** Objects up to this size are inflated in one read; larger ones as a stream. */
const SMALL_BYTES = 1024 * 1024;

/**
 * The largest object rebuilt in memory by default (a delta, its base, the object it makes): a pack declares
 * these sizes itself, so a size is checked before anything is allocated, and a larger object goes through
 * files instead. A blob that is no delta is streamed whatever its size.
 */
export const MAX_IN_MEMORY_BYTES = 64 * 1024 * 1024;

/** The largest object a delta may make by default: GIT_SYNC_MAX_PACK_BYTES's default (a pack's own limit). */
const MAX_OBJECT_BYTES = 1024 * 1024 * 1024;

const tooLarge = (size: number, max: number) =>
  new RepositoryTooLarge(`The repository is too large: an object of its pack stored as a delta makes ${size} bytes, more than ${max}`);

/**
 * Takes the bytes of a large blob (streamed, not a delta) as the index pass inflates and hashes them: what
 * `take` makes of them is the pack's `takeKept(oid)`; `drop` lets go of what nobody took (a second copy of
 * an object, the pack closed).
 */
export interface BlobKeeper<K> {
  /** Whether to take a blob of this (declared) size. */
  wants(size: number): boolean;
  /** Reads `bytes` to their end (the pass goes on when it returns). */
  take(bytes: AsyncIterable<Buffer>): Promise<K>;
  drop(kept: K): Promise<void>;
}

export interface PackReaderOptions<K = never> {
  /** The largest object rebuilt or read whole in memory; a larger delta is rebuilt in a file beside the pack. */
  inMemoryBytes?: number;
  /**
   * The largest object a delta may make, refused before anything is written (a few bytes of delta can
   * declare any size); also the disk the rebuilt files may hold together beside the pack.
   */
  maxObjectBytes?: number;
  keep?: BlobKeeper<K>;
  /** Lets go of what a reader holds of `keep`'s making when it closes: `keep.drop` unless said (a reader made by `indexed` keeps nothing itself). */
  drop?: (kept: K) => Promise<void>;
}

const isDelta = (h: Header) => h.kind === OFS_DELTA || h.kind === REF_DELTA;

/** Writes the whole of `piece` at the file's position. */
async function writeAll(file: FileHandle, piece: Buffer): Promise<void> {
  for (let at = 0; at < piece.length; ) at += (await file.write(piece, at, piece.length - at)).bytesWritten;
}

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

/** Git's delta: copy instructions from `base` and inserted bytes, into an object of the size it declares (at most `maxSize`). */
export function applyDelta(base: Buffer, delta: Buffer, maxSize = MAX_IN_MEMORY_BYTES): Buffer {
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
  if (size > maxSize) throw tooLarge(size, maxSize);
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

/** An object rebuilt in a file of its own beside the pack. */
interface Spilled {
  path: string;
  size: number;
}

export class PackReader<K = never> {
  private readonly byOid = new Map<string, Entry>();
  /** What `keep` made of the large blobs, by id, until taken. */
  private readonly kept = new Map<string, K>();
  private readonly byOffset = new Map<number, Entry>();
  /** Each object's id, by offset (a second copy of an object has the id of the first). */
  private readonly oidAt = new Map<number, string>();
  private readonly cache = new Map<number, Buffer>();
  private cached = 0;
  /** Objects rebuilt in files, by offset, oldest use first; their bytes together at most maxObjectBytes. */
  private readonly spilled = new Map<number, Spilled>();
  private spilledBytes = 0;
  private readonly spilling = new Map<number, Promise<Spilled>>();
  /** Rebuilds made so far, numbering their files. */
  private spills = 0;
  private readonly inMemoryBytes: number;
  private readonly maxObjectBytes: number;
  private readonly keep: BlobKeeper<K> | undefined;
  /** What lets go of a kept blob (a method, as BlobKeeper's: a reader of any K reads as a PackReader<unknown>). */
  private readonly dropper: Pick<BlobKeeper<K>, 'drop'> | undefined;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    options: PackReaderOptions<K>,
  ) {
    this.inMemoryBytes = options.inMemoryBytes ?? MAX_IN_MEMORY_BYTES;
    this.maxObjectBytes = options.maxObjectBytes ?? MAX_OBJECT_BYTES;
    this.keep = options.keep;
    const drop = options.drop ?? options.keep?.drop;
    this.dropper = drop && { drop };
  }

  /** Indexes the pack at `path` (one pass over it). */
  static async open<K = never>(path: string, options: PackReaderOptions<K> = {}): Promise<PackReader<K>> {
    const reader = new PackReader<K>(path, await open(path, 'r'), options);
    try {
      await reader.index();
    } catch (err) {
      await reader.close();
      throw err;
    }
    return reader;
  }

  /** A reader of the pack at `path` from the index another reader made of it (`handOver`): no pass over it. */
  static async indexed<K = never>(path: string, index: PackIndex<K>, options: PackReaderOptions<K> = {}): Promise<PackReader<K>> {
    const reader = new PackReader<K>(path, await open(path, 'r'), options);
    for (const { oid, ...entry } of index.objects) {
      // The first copy of an object stays its entry, as in the index pass.
      if (!reader.byOid.has(oid)) reader.byOid.set(oid, entry);
      reader.byOffset.set(entry.offset, entry);
      reader.oidAt.set(entry.offset, oid);
    }
    for (const [oid, kept] of index.kept) reader.kept.set(oid, kept);
    return reader;
  }

  /** Closes this reader and hands its index and what `keep` made (now the caller's) to another (`indexed`). */
  async handOver(): Promise<PackIndex<K>> {
    const objects = [...this.byOffset.values()].map((entry) => ({ ...entry, oid: this.oidAt.get(entry.offset)! }));
    const kept = [...this.kept];
    this.kept.clear();
    await this.close();
    return { objects, kept };
  }

  async close(): Promise<void> {
    await this.file.close();
    for (const kept of this.kept.values()) await this.dropper!.drop(kept);
    this.kept.clear();
    for (const { path } of this.spilled.values()) await rm(path, { force: true });
    this.spilled.clear();
    this.spilledBytes = 0;
  }

  has(oid: string): boolean {
    return this.byOid.has(oid);
  }

  /** What `keep` made of the blob `oid` when the index pass met it, now the caller's; undefined when it made nothing or was taken. */
  takeKept(oid: string): K | undefined {
    const kept = this.kept.get(oid);
    this.kept.delete(oid);
    return kept;
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

  /** The inflated data at `dataAt`, whole, and the compressed length (a small object always fits). */
  private async inflated(dataAt: number, size: number): Promise<{ bytes: Buffer; consumed: number }> {
    if (size > Math.max(this.inMemoryBytes, SMALL_BYTES)) throw tooLarge(size, this.inMemoryBytes);
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
      let oid: string | undefined;
      let consumed: number;
      if (isDelta(h)) {
        const base = this.baseOf(h);
        const hash = createHash('sha1');
        let size: number;
        // In memory when the delta, its base and what it makes fit; else through files.
        const fits = h.size <= this.inMemoryBytes && base.size <= this.inMemoryBytes;
        const delta = fits ? await this.inflated(h.dataAt, h.size) : undefined;
        if (delta && (await deltaSizes(bytesInMemory(delta.bytes))).size <= this.inMemoryBytes) {
          const bytes = applyDelta(await this.readAt(base.offset), delta.bytes, this.inMemoryBytes);
          size = bytes.length;
          hash.update(`${base.type} ${size}\0`).update(bytes);
          this.remember(at, bytes);
          consumed = delta.consumed;
        } else {
          // The id's header holds the object's size: the size the delta declares, checked against what it makes.
          const made = await this.spill(at, h, async (declared) => void hash.update(`${base.type} ${declared}\0`), async (piece) => void hash.update(piece));
          size = made.size;
          consumed = made.consumed;
        }
        entry = { offset: at, type: base.type, size };
        oid = hash.digest('hex');
      } else {
        const type = TYPES[h.kind]!;
        const hash = createHash('sha1').update(`${type} ${h.size}\0`);
        if (h.size <= SMALL_BYTES) {
          const small = await this.inflated(h.dataAt, h.size);
          hash.update(small.bytes);
          consumed = small.consumed;
        } else if (type === 'blob' && this.keep?.wants(h.size)) {
          const taken = await this.taken(h, hash);
          consumed = taken.consumed;
          oid = hash.digest('hex');
          if (this.kept.has(oid) || this.byOid.has(oid)) await this.dropper!.drop(taken.kept);
          else this.kept.set(oid, taken.kept);
        } else consumed = await inflateAt(this.path, h.dataAt, (chunk) => void hash.update(chunk));
        entry = { offset: at, type, size: h.size };
        oid ??= hash.digest('hex');
      }
      // The first copy of an object stays its entry: a later delta that rebuilds the same object would
      // otherwise be found as its own base, and read itself without end once the cache let it go.
      if (!this.byOid.has(oid)) this.byOid.set(oid, entry);
      this.byOffset.set(at, entry);
      this.oidAt.set(at, oid);
      at = h.dataAt + consumed;
    }
  }

  /** A streamed blob inflated into `keep.take` as it is hashed; what it made, and the pack bytes the blob took. */
  private async taken(h: Header, hash: Hash): Promise<{ kept: K; consumed: number }> {
    const { input, inflate } = inflating(this.path, h.dataAt);
    let size = 0;
    const bytes = async function* (): AsyncGenerator<Buffer> {
      for await (const chunk of inflate) {
        size += (chunk as Buffer).length;
        if (size > h.size) throw new Error('An object of the pack does not inflate to its declared size');
        hash.update(chunk as Buffer);
        yield chunk as Buffer;
      }
    };
    let kept: K;
    try {
      kept = await this.keep!.take(bytes());
    } finally {
      input.unpipe(inflate);
      input.destroy();
    }
    if (size !== h.size) {
      await this.keep!.drop(kept);
      throw new Error('An object of the pack does not inflate to its declared size');
    }
    return { kept, consumed: inflate.bytesWritten };
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

  /** The entry of a delta's base: always an object before it in the pack, so a chain of bases ends. */
  private baseOf(h: Header): Entry {
    const base = h.baseAt !== undefined ? this.byOffset.get(h.baseAt) : this.byOid.get(h.baseOid!);
    if (!base) throw new Error('A delta of the pack has its base outside the pack');
    return base;
  }

  /** The whole object at `offset` in memory (a delta rebuilt); refused past inMemoryBytes. */
  private async readAt(offset: number): Promise<Buffer> {
    const hit = this.cache.get(offset);
    if (hit) return hit;
    const h = await this.header(offset);
    const { bytes } = await this.inflated(h.dataAt, h.size);
    if (!isDelta(h)) return bytes;
    const base = this.baseOf(h);
    const rebuilt = base.size <= this.inMemoryBytes ? applyDelta(await this.readAt(base.offset), bytes, this.inMemoryBytes) : await this.fromLargeBase(base, bytes);
    this.remember(offset, rebuilt);
    return rebuilt;
  }

  /** An object that fits in memory, rebuilt from a base that does not (read from the base's file). */
  private async fromLargeBase(base: Entry, delta: Buffer): Promise<Buffer> {
    const from = await this.bytesOf(base);
    try {
      const pieces: Buffer[] = [];
      await applyDeltaStreaming(from.bytes, bytesInMemory(delta), this.inMemoryBytes, (n) => tooLarge(n, this.inMemoryBytes), async (piece) => void pieces.push(piece));
      return Buffer.concat(pieces);
    } finally {
      await from.release();
    }
  }

  /**
   * The object at `offset` in a file of its own, made once: a delta rebuilt from its base (itself in memory
   * or in a file), or a whole object inflated (a large base). `declared` hears the object's size before its
   * bytes, `piece` each piece as it is written; `consumed` is the pack bytes the object's data took.
   */
  private async spill(
    offset: number,
    h: Header,
    declared: (size: number) => Promise<void> = async () => {},
    piece: (bytes: Buffer) => Promise<void> = async () => {},
  ): Promise<Spilled & { consumed: number }> {
    // A name of its own per rebuild: a file let go (rm) never removes a newer rebuild of the same object.
    const path = `${this.path}.${offset}.${this.spills++}.object`;
    const out = await open(path, 'w');
    let size = 0;
    let consumed: number;
    try {
      const write = async (bytes: Buffer) => {
        await piece(bytes);
        await writeAll(out, bytes);
      };
      if (isDelta(h)) {
        const delta = await this.deltaBytes(offset, h);
        try {
          const base = await this.bytesOf(this.baseOf(h));
          try {
            await declared((await deltaSizes(delta.bytes)).size);
            size = await applyDeltaStreaming(base.bytes, delta.bytes, this.maxObjectBytes, (n) => tooLarge(n, this.maxObjectBytes), write);
          } finally {
            await base.release();
          }
        } finally {
          await delta.release();
        }
        consumed = delta.consumed;
      } else {
        await declared(h.size);
        consumed = await inflateAt(this.path, h.dataAt, async (chunk) => {
          size += chunk.length;
          if (size > h.size) throw new Error('An object of the pack does not inflate to its declared size');
          await write(chunk);
        });
        if (size !== h.size) throw new Error('An object of the pack does not inflate to its declared size');
      }
    } catch (err) {
      await out.close();
      await rm(path, { force: true });
      throw err;
    }
    await out.close();
    await this.keepSpilled(offset, { path, size });
    return { path, size, consumed };
  }

  /** Keeps a file-rebuilt object for the next read, letting the least recently used others go. */
  private async keepSpilled(offset: number, made: Spilled): Promise<void> {
    this.spilled.set(offset, made);
    this.spilledBytes += made.size;
    for (const [key, old] of this.spilled) {
      if (this.spilledBytes <= this.maxObjectBytes || key === offset) break;
      this.spilled.delete(key);
      this.spilledBytes -= old.size;
      // A reader that opened it keeps reading: an unlinked file lives until its last descriptor closes.
      await rm(old.path, { force: true });
    }
  }

  /** The object at `offset` in a file, rebuilt or inflated there when not kept (once, for readers who come together). */
  private async spilledAt(offset: number): Promise<Spilled> {
    const kept = this.spilled.get(offset);
    if (kept) {
      this.spilled.delete(offset);
      this.spilled.set(offset, kept);
      return kept;
    }
    const making = this.spilling.get(offset) ?? this.header(offset).then((h) => this.spill(offset, h));
    this.spilling.set(offset, making);
    try {
      return await making;
    } finally {
      this.spilling.delete(offset);
    }
  }

  /** A delta's instructions: in memory, or inflated into a file of their own when larger than inMemoryBytes. */
  private async deltaBytes(offset: number, h: Header): Promise<{ bytes: ObjectBytes; consumed: number; release: () => Promise<void> }> {
    if (h.size <= this.inMemoryBytes) {
      const { bytes, consumed } = await this.inflated(h.dataAt, h.size);
      return { bytes: bytesInMemory(bytes), consumed, release: async () => {} };
    }
    const path = `${this.path}.${offset}.delta`;
    const file = await open(path, 'w+');
    const release = async () => {
      await file.close();
      await rm(path, { force: true });
    };
    try {
      let size = 0;
      const consumed = await inflateAt(this.path, h.dataAt, async (chunk) => {
        size += chunk.length;
        if (size > h.size) throw new Error('An object of the pack does not inflate to its declared size');
        await writeAll(file, chunk);
      });
      if (size !== h.size) throw new Error('An object of the pack does not inflate to its declared size');
      return { bytes: bytesInFile(file, size), consumed, release };
    } catch (err) {
      await release();
      throw err;
    }
  }

  /**
   * The file of the object at `offset`, open. Another reader's rebuild may let a kept file go between its
   * making and its opening (the spill budget is full): it is then made again.
   */
  private async openSpilled(offset: number): Promise<FileHandle> {
    for (let attempt = 1; ; attempt++) {
      const { path } = await this.spilledAt(offset);
      try {
        return await open(path, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 3) throw err;
      }
    }
  }

  /** An object's bytes for reads at any offset: in memory when it fits, else from its file. */
  private async bytesOf(entry: Entry): Promise<{ bytes: ObjectBytes; release: () => Promise<void> }> {
    if (entry.size <= this.inMemoryBytes) return { bytes: bytesInMemory(await this.readAt(entry.offset)), release: async () => {} };
    const file = await this.openSpilled(entry.offset);
    return { bytes: bytesInFile(file, entry.size), release: () => file.close() };
  }

  /** The object whole: for commits, trees and text files. */
  async read(oid: string): Promise<{ type: ObjectType; bytes: Buffer }> {
    const entry = this.byOid.get(oid);
    if (!entry) throw new Error(`The pack holds no object ${oid}`);
    if (entry.size > this.inMemoryBytes) throw tooLarge(entry.size, this.inMemoryBytes);
    return { type: entry.type, bytes: await this.readAt(entry.offset) };
  }

  /** The object's bytes as a stream: inflated from the file as read, or (a delta) rebuilt first. */
  async *stream(oid: string): AsyncGenerator<Buffer> {
    const entry = this.byOid.get(oid);
    if (!entry) throw new Error(`The pack holds no object ${oid}`);
    const h = await this.header(entry.offset);
    // A small object is inflated in one read (a page: no stream to set up); a delta that fits is rebuilt in memory.
    if (entry.size <= this.inMemoryBytes && (isDelta(h) ? h.size <= this.inMemoryBytes : h.size <= SMALL_BYTES)) {
      yield await this.readAt(entry.offset);
      return;
    }
    if (isDelta(h)) {
      const file = await this.openSpilled(entry.offset);
      const input = file.createReadStream({ highWaterMark: STREAM_CHUNK_BYTES });
      try {
        for await (const chunk of input) yield chunk as Buffer;
      } finally {
        input.destroy();
        await file.close().catch(() => {});
      }
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
