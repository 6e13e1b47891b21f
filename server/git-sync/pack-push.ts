// A push over smart HTTP (protocol v0, `git-receive-pack`): the objects the server lacks written as a pack
// to a file one at a time (each deflated as its bytes stream from where they are: the work repository, or
// the file store for an asset), then the file sent as the request's body as it is read. The server's
// report (`report-status`) says whether it took the branch.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createDeflate, deflateSync } from 'node:zlib';
import { outboundSend, OutboundTooLarge, type OutboundLimits } from '../http/outbound.js';
import { RepositoryTooLarge } from './git-http.js';
import type { FetchTarget } from './pack-fetch.js';
import type { ObjectType } from './pack-reader.js';
import { FLUSH, pktLine, PktReader } from './pkt-line.js';

export interface PackObject {
  type: ObjectType;
  size: number;
  bytes: () => AsyncIterable<Uint8Array>;
}

const CODES: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const ZERO = '0'.repeat(40);
/** Objects up to this size are deflated in one call. */
const SMALL_BYTES = 256 * 1024;

/** How much of a larger object is deflated first, to judge whether its bytes compress. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * The zlib level of a large object from its first bytes: 1 (the fastest) when they compress, else 0 (stored
 * blocks). Most of a push's bytes are images, video and PDFs, compressed already: zlib at level 1 took
 * 150-190 ms per 4 MB of them to save nothing, 20 s of a 500 MB export's 22 s of CPU; stored, 5 ms.
 */
export function levelFor(sample: Uint8Array): 0 | 1 {
  return deflateSync(sample, { level: 1 }).length < sample.byteLength * 0.95 ? 1 : 0;
}

/** The first SAMPLE_BYTES of `source` (or all of it), and an iterator of what follows them. */
async function sampled(source: AsyncIterable<Uint8Array>): Promise<{ sample: Buffer; head: Uint8Array[]; rest: AsyncIterator<Uint8Array> }> {
  const rest = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SAMPLE_BYTES) {
      const next = await rest.next();
      if (next.done) break;
      head.push(next.value);
      size += next.value.byteLength;
    }
  } catch (err) {
    await rest.return?.();
    throw err;
  }
  return { sample: Buffer.concat(head).subarray(0, SAMPLE_BYTES), head, rest };
}

function objectHeader(type: ObjectType, size: number): Buffer {
  const bytes = [];
  let byte = (CODES[type] << 4) | (size & 15);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** Writes `objects` as a pack to `path`. */
export async function writePack(path: string, objects: PackObject[]): Promise<void> {
  const out = createWriteStream(path);
  const hash = createHash('sha1');
  const write = async (chunk: Buffer) => {
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  try {
    const head = Buffer.alloc(12);
    head.write('PACK', 0, 'ascii');
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(objects.length, 8);
    await write(head);
    for (const object of objects) {
      await write(objectHeader(object.type, object.size));
      if (object.size <= SMALL_BYTES) {
        // A page or a tree: deflated at once (a stream each would cost more than the bytes).
        const chunks: Uint8Array[] = [];
        for await (const chunk of object.bytes()) chunks.push(chunk);
        const bytes = Buffer.concat(chunks);
        if (bytes.length !== object.size) throw new Error(`An object to push holds ${bytes.length} bytes, not the ${object.size} it was listed with`);
        await write(deflateSync(bytes, { level: 1 }));
        continue;
      }
      const { sample, head, rest } = await sampled(object.bytes());
      const deflate = createDeflate({ level: levelFor(sample) });
      const feeding = (async () => {
        let size = 0;
        const feed = async (chunk: Uint8Array) => {
          size += chunk.byteLength;
          if (!deflate.write(chunk)) await once(deflate, 'drain');
        };
        try {
          for (const chunk of head) await feed(chunk);
          for (let next = await rest.next(); !next.done; next = await rest.next()) await feed(next.value);
        } finally {
          // Closes the source (a file store's stream) however the feeding ends, as a for-await does.
          await rest.return?.();
        }
        deflate.end();
        if (size !== object.size) throw new Error(`An object to push holds ${size} bytes, not the ${object.size} it was listed with`);
      })().catch((err: unknown) => {
        deflate.destroy(err as Error);
        throw err;
      });
      feeding.catch(() => undefined); // reported by the loop below, or awaited after it
      for await (const chunk of deflate) await write(chunk as Buffer);
      await feeding;
    }
    out.end(hash.digest());
    await finished(out);
  } catch (err) {
    // A write still in flight fails once the stream is destroyed: this failure is already thrown (as pack-fetch.ts).
    out.on('error', () => {});
    out.destroy();
    throw err;
  }
}

/** Sends the pack at `packPath` to set `ref` from `old` (undefined: a new branch) to `commit`; throws when the server refuses it. */
export async function pushPack(target: FetchTarget, ref: string, old: string | undefined, commit: string, packPath: string, limits: OutboundLimits): Promise<void> {
  async function* body(): AsyncGenerator<Uint8Array> {
    yield pktLine(`${old ?? ZERO} ${commit} ${ref}\0report-status agent=git/docs-workspace-api\n`);
    yield Buffer.from(FLUSH);
    yield* createReadStream(packPath, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
  }
  let res;
  try {
    res = await outboundSend(`${target.url.replace(/\/+$/, '')}/git-receive-pack`, limits, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/x-git-receive-pack-request', accept: 'application/x-git-receive-pack-result' },
      body: Readable.from(body(), { objectMode: false }),
      origin: 'user',
    });
  } catch (err) {
    if (err instanceof OutboundTooLarge) throw new RepositoryTooLarge(`The Git server's answer to the push was larger than ${limits.maxBytes} bytes`);
    throw err;
  }
  const lines = new PktReader(res.body);
  const report: string[] = [];
  for (let line = await lines.next(); line !== undefined && line !== null; line = await lines.next()) report.push(line.toString('utf8').trim());
  if (res.status !== 200) throw new Error(`The Git server refused the push to ${ref}: it answered ${res.status}`);
  const unpack = report.find((l) => l.startsWith('unpack '));
  const status = report.find((l) => l.startsWith('ok ') || l.startsWith('ng '));
  if (unpack !== 'unpack ok') throw new Error(`The Git server refused the push to ${ref}: ${unpack ?? 'no report'}`);
  if (!status?.startsWith('ok ')) throw new Error(`The Git server refused the push to ${ref}: ${status?.replace(/^ng \S+ ?/, '') || 'no reason given'}`);
}
