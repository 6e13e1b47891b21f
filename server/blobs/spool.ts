// A stream of unknown length (an upload, a fetched URL) written to a temporary file while its sha256 is
// computed: the blob's name is known only at the end, and S3 wants the length before the first byte. So
// memory holds one chunk at a time (and the first MiB, for an image's dimensions), never the file.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';

/** How much of the start of a file is kept in memory (image headers, for their dimensions). */
export const HEAD_BYTES = 1024 * 1024;

export interface Spooled {
  path: string;
  size: number;
  sha256: string;
  /** The first bytes (at most HEAD_BYTES). */
  head: Buffer;
  /** Deletes the temporary file (when the backend did not take it). */
  discard(): Promise<void>;
}

/** The stream was longer than the cap: nothing is kept. */
export class SpoolTooLarge extends Error {}

/**
 * Writes `source` to a new file under `dir`; SpoolTooLarge past `maxBytes`. `headBytes` of its start are
 * kept in memory (fewer for spools kept a while, many at once: `headOf` reads them from the file later).
 */
export async function spool(source: AsyncIterable<Uint8Array>, dir: string, maxBytes: number, headBytes = HEAD_BYTES): Promise<Spooled> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `upload-${randomBytes(8).toString('hex')}`);
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let kept = 0;
  let size = 0;
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new SpoolTooLarge(`larger than ${maxBytes} bytes`);
      hash.update(chunk);
      if (kept < headBytes) {
        const part = Buffer.from(chunk.subarray(0, headBytes - kept));
        head.push(part);
        kept += part.length;
      }
      // Back-pressure: wait for the disk when its buffer is full.
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
  } catch (err) {
    // A write still in flight fails once the stream is destroyed: that failure is this one, already thrown,
    // so it is not reported again (unheard, it was an uncaught exception); the file goes once it is closed.
    out.on('error', () => {});
    out.destroy();
    await finished(out).catch(() => {});
    await rm(file, { force: true });
    throw err;
  }
  return { path: file, size, sha256: hash.digest('hex'), head: Buffer.concat(head), discard: () => rm(file, { force: true }) };
}

/** The first HEAD_BYTES of a spool (or all of it), read from its file when fewer were kept in memory. */
export async function headOf(spooled: Spooled): Promise<Buffer> {
  const want = Math.min(spooled.size, HEAD_BYTES);
  if (spooled.head.length >= want) return spooled.head;
  const file = await open(spooled.path, 'r');
  try {
    const head = Buffer.allocUnsafe(want);
    let filled = 0;
    while (filled < want) {
      const { bytesRead } = await file.read(head, filled, want - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return head.subarray(0, filled);
  } finally {
    await file.close();
  }
}
