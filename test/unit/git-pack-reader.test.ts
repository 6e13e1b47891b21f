// The streaming pack reader (server/git-sync/pack-reader.ts) reads packs a Git server the space's admin named
// sent: untrusted bytes. A well-formed pack reads back object for object; any pack, however damaged, either
// reads or is refused with an error, in bounded time and memory, never by hanging or recursing forever.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositoryTooLarge } from '../../server/git-sync/git-http.js';
import { PackReader, type BlobKeeper, type ObjectType, type PackReaderOptions } from '../../server/git-sync/pack-reader.js';
import { varint } from '../support/git-pack-bytes.js';

const KINDS: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const REF_DELTA = 7;

/** A pack object's header: its kind and inflated size (4 bits, then 7 a byte). */
function objectHeader(kind: number, size: number): Buffer {
  const out = [(kind << 4) | (size & 15)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out[out.length - 1] |= 0x80;
    out.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(out);
}

const oidOf = (type: ObjectType, bytes: Buffer) => createHash('sha1').update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');

type PackPart = { kind: number; data: Buffer; baseOid?: string };

/** A version-2 pack of `parts` (the trailing checksum included, which the reader does not need). */
function pack(parts: PackPart[]): Buffer {
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'ascii');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(parts.length, 8);
  const body = parts.flatMap((p) => [objectHeader(p.kind, p.data.length), ...(p.baseOid ? [Buffer.from(p.baseOid, 'hex')] : []), deflateSync(p.data)]);
  const all = Buffer.concat([head, ...body]);
  return Buffer.concat([all, createHash('sha1').update(all).digest()]);
}

/** A delta that rebuilds `target` from `base`: a copy of the base's first half, then the rest inserted. */
function delta(base: Buffer, target: Buffer): Buffer {
  const shared = Math.min(base.length, target.length, 0xff) >> 1;
  const ops: number[] = [];
  if (shared > 0) ops.push(0x80 | 0x10, shared);
  for (let at = shared; at < target.length; at += 0x7f) {
    const piece = target.subarray(at, at + 0x7f);
    ops.push(piece.length, ...piece);
  }
  return Buffer.from([...varint(base.length), ...varint(target.length), ...ops]);
}

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pack-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The object streamed, whole. */
async function streamed(reader: PackReader<unknown>, oid: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of reader.stream(oid)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Every object of the pack at `bytes`, read back whole and as a stream; or the error that refused it.
 * With `inMemoryBytes` smaller than the objects, they are read as a stream only (rebuilt through files).
 */
async function readAll(bytes: Buffer, oids: string[], options: PackReaderOptions = {}, handedOver = false): Promise<Map<string, Buffer> | Error> {
  const file = path.join(dir, `p${n++}.pack`);
  await writeFile(file, bytes);
  let reader: PackReader | undefined;
  try {
    reader = await PackReader.open(file, options);
    // Read by another reader, from the index the first one made (as the server's thread reads what the pack's thread indexed).
    if (handedOver) reader = await PackReader.indexed(file, await reader.handOver(), options);
    const out = new Map<string, Buffer>();
    for (const oid of oids) {
      if (!reader.has(oid)) continue;
      const stream = await streamed(reader, oid);
      if (reader.info(oid)!.size <= (options.inMemoryBytes ?? Infinity)) expect(stream.equals((await reader.read(oid)).bytes)).toBe(true);
      out.set(oid, stream);
    }
    return out;
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    return err as Error;
  } finally {
    await reader?.close();
    await rm(file, { force: true });
  }
}

const contents = fc.array(fc.uint8Array({ minLength: 0, maxLength: 600 }), { minLength: 1, maxLength: 5 });

describe('PackReader', () => {
  it('reads back every object of a well-formed pack, deltas on earlier objects included', async () => {
    await fc.assert(
      fc.asyncProperty(contents, fc.uint8Array({ minLength: 1, maxLength: 300 }), async (blobs, tail) => {
        const bases = blobs.map((b) => Buffer.from(b));
        const target = Buffer.concat([bases[0]!.subarray(0, bases[0]!.length >> 1), Buffer.from(tail)]);
        const parts: PackPart[] = bases.map((data) => ({ kind: KINDS.blob, data }));
        parts.push({ kind: REF_DELTA, data: delta(bases[0]!, target), baseOid: oidOf('blob', bases[0]!) });
        const expected = new Map([...bases, target].map((b) => [oidOf('blob', b), b]));
        const read = await readAll(pack(parts), [...expected.keys()]);
        expect(read).toBeInstanceOf(Map);
        for (const [oid, bytes] of expected) expect((read as Map<string, Buffer>).get(oid)?.equals(bytes)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('reads back the same objects from the index another reader handed over, in memory and through files', async () => {
    await fc.assert(
      fc.asyncProperty(contents, fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 1024 }), async (blobs, tail, inMemoryBytes) => {
        const bases = blobs.map((b) => Buffer.from(b));
        const target = Buffer.concat([bases[0]!.subarray(0, bases[0]!.length >> 1), Buffer.from(tail)]);
        const again = Buffer.concat([target.subarray(0, target.length >> 1), Buffer.from(tail).reverse()]);
        // bases[0] twice: the first copy stays the object's entry.
        const parts: PackPart[] = [...bases, bases[0]!].map((data) => ({ kind: KINDS.blob, data }));
        parts.push({ kind: REF_DELTA, data: delta(bases[0]!, target), baseOid: oidOf('blob', bases[0]!) });
        parts.push({ kind: REF_DELTA, data: delta(target, again), baseOid: oidOf('blob', target) });
        const expected = new Map([...bases, target, again].map((b) => [oidOf('blob', b), b]));
        const read = await readAll(pack(parts), [...expected.keys()], { inMemoryBytes }, true);
        expect(read).toBeInstanceOf(Map);
        for (const [oid, bytes] of expected) expect((read as Map<string, Buffer>).get(oid)?.equals(bytes)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('reads back the same objects when the deltas and their bases are rebuilt through files, not memory', async () => {
    await fc.assert(
      fc.asyncProperty(contents, fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 64 }), async (blobs, tail, inMemoryBytes) => {
        const bases = blobs.map((b) => Buffer.from(b));
        const target = Buffer.concat([bases[0]!.subarray(0, bases[0]!.length >> 1), Buffer.from(tail)]);
        // A chain: the second delta's base is the first delta's result.
        const again = Buffer.concat([target.subarray(0, target.length >> 1), Buffer.from(tail).reverse()]);
        const parts: PackPart[] = bases.map((data) => ({ kind: KINDS.blob, data }));
        parts.push({ kind: REF_DELTA, data: delta(bases[0]!, target), baseOid: oidOf('blob', bases[0]!) });
        parts.push({ kind: REF_DELTA, data: delta(target, again), baseOid: oidOf('blob', target) });
        const expected = new Map([...bases, target, again].map((b) => [oidOf('blob', b), b]));
        const read = await readAll(pack(parts), [...expected.keys()], { inMemoryBytes });
        expect(read).toBeInstanceOf(Map);
        for (const [oid, bytes] of expected) expect((read as Map<string, Buffer>).get(oid)?.equals(bytes)).toBe(true);
      }),
      { numRuns: 40 },
    );
    // The files are gone with the reader.
    expect((await readdir(dir)).filter((name) => !name.endsWith('.pack'))).toEqual([]);
  });

  it('rebuilds a delta larger than it holds in memory into a file, and refuses one larger than a pack may be', async () => {
    const base = Buffer.alloc(0x10000, 7);
    // 64 copies of the 64 KiB base and one byte of its own: 4 MiB from a delta of a few hundred bytes.
    const size = 64 * 0x10000 + 1;
    const largeDelta = Buffer.from([...varint(base.length), ...varint(size), ...Array<number>(64).fill(0x80), 1, 9]);
    const expected = Buffer.concat([Buffer.alloc(64 * 0x10000, 7), Buffer.from([9])]);
    const bytes = pack([{ kind: KINDS.blob, data: base }, { kind: REF_DELTA, data: largeDelta, baseOid: oidOf('blob', base) }]);
    const read = await readAll(bytes, [oidOf('blob', expected)], { inMemoryBytes: 1024 * 1024 });
    expect(read).toBeInstanceOf(Map);
    expect((read as Map<string, Buffer>).get(oidOf('blob', expected))?.equals(expected)).toBe(true);
    const file = path.join(dir, 'bounded.pack');
    await writeFile(file, bytes);
    const refused = await PackReader.open(file, { inMemoryBytes: 1024 * 1024, maxObjectBytes: size - 1 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RepositoryTooLarge);
    expect((refused as Error).message).toContain(`${size} bytes`);
    await rm(file);
    expect((await readdir(dir)).filter((name) => !name.endsWith('.pack'))).toEqual([]);
  });

  it('reads or refuses a damaged pack, never hangs', async () => {
    await fc.assert(
      fc.asyncProperty(
        contents,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (blobs, flips, cut) => {
          const bases = blobs.map((b) => Buffer.from(b));
          const parts: PackPart[] = bases.map((data) => ({ kind: KINDS.blob, data }));
          parts.push({ kind: REF_DELTA, data: delta(bases[0]!, Buffer.from('changed')), baseOid: oidOf('blob', bases[0]!) });
          let bytes = pack(parts);
          for (const [at, value] of flips) bytes[12 + (at % (bytes.length - 12))] = value;
          if (cut !== undefined) bytes = bytes.subarray(0, 12 + (cut % (bytes.length - 12)));
          await readAll(bytes, bases.map((b) => oidOf('blob', b)));
          await readAll(bytes, bases.map((b) => oidOf('blob', b)), { inMemoryBytes: 16 });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads a delta that rebuilds an object the pack already holds, without taking itself for its base', async () => {
    const base = Buffer.from('the same bytes, twice in the pack');
    const oid = oidOf('blob', base);
    // Deltas of 8 MiB (127 copies of a 64 KiB base, then one byte of their own) push the first delta out of
    // the reader's cache of rebuilt objects (32 MiB), so a read of `oid` goes through the index.
    const large = Buffer.alloc(0x10000, 7);
    const largeDelta = (own: number) => Buffer.from([...varint(large.length), ...varint(127 * 0x10000 + 1), ...Array<number>(127).fill(0x80), 1, own]);
    const bytes = pack([
      { kind: KINDS.blob, data: base },
      // A delta on the first object that rebuilds the very same object (the same id).
      { kind: REF_DELTA, data: delta(base, base), baseOid: oid },
      { kind: KINDS.blob, data: large },
      ...[1, 2, 3, 4, 5].map((own) => ({ kind: REF_DELTA, data: largeDelta(own), baseOid: oidOf('blob', large) })),
    ]);
    const file = path.join(dir, 'twice.pack');
    await writeFile(file, bytes);
    const reader = await PackReader.open(file);
    try {
      expect((await reader.read(oid)).bytes.equals(base)).toBe(true);
      const streamed: Buffer[] = [];
      for await (const chunk of reader.stream(oid)) streamed.push(chunk);
      expect(Buffer.concat(streamed).equals(base)).toBe(true);
    } finally {
      await reader.close();
    }
  }, 10_000);

  it('hands the large blobs it indexes to its keeper once each, and lets go of what nobody takes', async () => {
    // Over the 1 MiB the reader inflates in one read: these are streamed, so offered to the keeper.
    const first = randomBytes(1536 * 1024);
    const second = randomBytes(1100 * 1024);
    const small = Buffer.from('a page');
    const file = path.join(dir, 'kept.pack');
    // `first` twice: the second copy's bytes are dropped, the first copy's kept.
    await writeFile(file, pack([first, small, second, first].map((data) => ({ kind: KINDS.blob, data }))));
    const dropped: Buffer[] = [];
    const sizes: number[] = [];
    const keep: BlobKeeper<Buffer> = {
      wants: (size) => (sizes.push(size), size < 1500 * 1024),
      take: async (bytes) => {
        const chunks: Buffer[] = [];
        for await (const chunk of bytes) chunks.push(chunk);
        return Buffer.concat(chunks);
      },
      drop: async (kept) => void dropped.push(kept),
    };
    const reader = await PackReader.open(file, { keep });
    try {
      // Asked of the large blobs only; the one it did not want is indexed all the same.
      expect(sizes).toEqual([first.length, second.length, first.length]);
      expect(reader.takeKept(oidOf('blob', first))).toBeUndefined();
      expect(reader.takeKept(oidOf('blob', small))).toBeUndefined();
      expect(reader.takeKept(oidOf('blob', second))?.equals(second)).toBe(true);
      expect(reader.takeKept(oidOf('blob', second))).toBeUndefined();
      expect((await streamed(reader, oidOf('blob', first))).equals(first)).toBe(true);
      expect((await streamed(reader, oidOf('blob', second))).equals(second)).toBe(true);
    } finally {
      await reader.close();
    }
    expect(dropped).toEqual([]);

    // With everything wanted: the duplicate is dropped at once, what is not taken when the reader closes.
    const all = await PackReader.open(file, { keep: { ...keep, wants: () => true } });
    expect(dropped.map((d) => d.equals(first))).toEqual([true]);
    await all.close();
    expect(dropped.map((d) => oidOf('blob', d)).sort()).toEqual([oidOf('blob', first), oidOf('blob', first), oidOf('blob', second)].sort());

    // Handed over: the first reader drops nothing it kept, the second gives it out and drops what is left when it closes.
    dropped.length = 0;
    const indexing = await PackReader.open(file, { keep: { ...keep, wants: () => true } });
    expect(dropped.length).toBe(1);
    const index = await indexing.handOver();
    expect(dropped.length).toBe(1);
    expect(index.kept.map(([oid]) => oid).sort()).toEqual([oidOf('blob', first), oidOf('blob', second)].sort());
    const reading = await PackReader.indexed(file, index, { drop: keep.drop });
    expect(reading.takeKept(oidOf('blob', second))?.equals(second)).toBe(true);
    expect((await streamed(reading, oidOf('blob', small))).equals(small)).toBe(true);
    await reading.close();
    expect(dropped.slice(1).map((d) => oidOf('blob', d))).toEqual([oidOf('blob', first)]);
  });

  it('refuses a large blob that inflates to another size than it declares, dropping what its keeper made', async () => {
    const bytes = randomBytes(1200 * 1024);
    const file = path.join(dir, 'lying.pack');
    const good = pack([{ kind: KINDS.blob, data: bytes }]);
    // The header declares 16 bytes more than the data holds: the keeper reads the whole stream, then the size is checked.
    const lying = Buffer.concat([good.subarray(0, 12), objectHeader(KINDS.blob, bytes.length + 16), deflateSync(bytes)]);
    await writeFile(file, lying);
    const dropped: unknown[] = [];
    const refused = await PackReader.open(file, {
      keep: {
        wants: () => true,
        take: async (chunks) => {
          for await (const _ of chunks);
          return 'made';
        },
        drop: async (kept) => void dropped.push(kept),
      },
    }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain('declared size');
    expect(dropped).toEqual(['made']);
    await rm(file);
  });
});
