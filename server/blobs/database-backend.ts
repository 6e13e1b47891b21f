// Bytes in the database itself (the embedded default): blob_chunks rows of 1 MiB, so writing or reading a
// large file, or a range of it, holds one chunk at a time, never the whole file.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { and, asc, between, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { blobChunks } from '../db/schema/index.js';
import { BlobMissing, type BlobBackend, type BlobSource, type ByteRange } from './backend.js';

export const CHUNK_BYTES = 1024 * 1024;

async function* chunksOf(source: BlobSource): AsyncGenerator<Buffer> {
  if ('buffer' in source) {
    for (let at = 0; at < source.buffer.length; at += CHUNK_BYTES) yield source.buffer.subarray(at, at + CHUNK_BYTES);
    return;
  }
  // highWaterMark = chunk size: every read but the last fills one chunk.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of createReadStream(source.path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= CHUNK_BYTES) {
      const joined = Buffer.concat(pending);
      yield joined.subarray(0, CHUNK_BYTES);
      pending = [joined.subarray(CHUNK_BYTES)];
      pendingBytes = pending[0]!.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

export function databaseBackend(): BlobBackend {
  return {
    kind: 'database',
    async put(db, sha256, source) {
      let seq = 0;
      for await (const bytes of chunksOf(source)) {
        await db.insert(blobChunks).values({ sha256, seq: seq++, bytes }).onConflictDoNothing();
      }
    },
    async open(db, sha256, size, range?: ByteRange) {
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      if (size > 0) {
        const [first] = await db.select({ seq: blobChunks.seq }).from(blobChunks).where(eq(blobChunks.sha256, sha256)).limit(1);
        if (!first) throw new BlobMissing(`no chunks of ${sha256} in the database`);
      }
      const firstSeq = Math.floor(start / CHUNK_BYTES);
      const lastSeq = Math.floor(end / CHUNK_BYTES);
      async function* read(): AsyncGenerator<Buffer> {
        if (end < start) return;
        // A few chunks a query: memory stays at a few MiB however large the file.
        for (let seq = firstSeq; seq <= lastSeq; seq += 4) {
          const rows = await db
            .select({ seq: blobChunks.seq, bytes: blobChunks.bytes })
            .from(blobChunks)
            .where(and(eq(blobChunks.sha256, sha256), between(blobChunks.seq, seq, Math.min(seq + 3, lastSeq))))
            .orderBy(asc(blobChunks.seq));
          for (const row of rows) {
            const offset = row.seq * CHUNK_BYTES;
            yield row.bytes.subarray(Math.max(0, start - offset), Math.min(row.bytes.length, end - offset + 1));
          }
        }
      }
      return Readable.from(read(), { objectMode: false });
    },
    async delete(db, sha256) {
      await db.delete(blobChunks).where(eq(blobChunks.sha256, sha256));
    },
    async check(db) {
      await db.execute(sql`SELECT 1`);
    },
  };
}
