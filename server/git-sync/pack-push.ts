// A push over smart HTTP (protocol v0, `git-receive-pack`): the objects the server lacks written as a pack
// one at a time (each deflated as its bytes stream from where they are: the export's memory, or the file
// store for an asset), straight into the request's body as the socket takes it. It was written to a file
// first and the file sent after: 500 MB written and read again, and the Git server's work on the pack
// (inflating and hashing every object) could only start once all of it was written. The server's report
// (`report-status`) says whether it took the branch.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
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

/**
 * The size of the chunks a large object is deflated into: zlib's default, 16 KiB, made 32,000 chunks
 * (each a Buffer, a callback and a write) of a 500 MB push.
 */
const DEFLATED_CHUNK_BYTES = 256 * 1024;

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

/** The bytes of a pack of `objects`, each object deflated as its bytes are read, as the consumer takes them. */
export async function* packStream(objects: PackObject[]): AsyncGenerator<Buffer> {
  const hash = createHash('sha1');
  const out = (chunk: Buffer) => {
    hash.update(chunk);
    return chunk;
  };
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'ascii');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.length, 8);
  yield out(head);
  for (const object of objects) {
    yield out(objectHeader(object.type, object.size));
    if (object.size <= SMALL_BYTES) {
      // A page or a tree: deflated at once (a stream each would cost more than the bytes).
      const chunks: Uint8Array[] = [];
      for await (const chunk of object.bytes()) chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      if (bytes.length !== object.size) throw new Error(`An object to push holds ${bytes.length} bytes, not the ${object.size} it was listed with`);
      yield out(deflateSync(bytes, { level: 1 }));
      continue;
    }
    const { sample, head: first, rest } = await sampled(object.bytes());
    const deflate = createDeflate({ level: levelFor(sample), chunkSize: DEFLATED_CHUNK_BYTES });
    const feeding = (async () => {
      let size = 0;
      const feed = async (chunk: Uint8Array) => {
        size += chunk.byteLength;
        if (!deflate.write(chunk)) await once(deflate, 'drain');
      };
      try {
        for (const chunk of first) await feed(chunk);
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
    try {
      for await (const chunk of deflate) yield out(chunk as Buffer);
    } finally {
      // The consumer stopped (the request failed): the source is closed with the stream.
      deflate.destroy();
    }
    await feeding;
  }
  yield hash.digest();
}

/** Sends `pack` (packStream) to set `ref` from `old` (undefined: a new branch) to `commit`; throws when the server refuses it. */
export async function pushPack(target: FetchTarget, ref: string, old: string | undefined, commit: string, pack: AsyncIterable<Uint8Array>, limits: OutboundLimits): Promise<void> {
  async function* body(): AsyncGenerator<Uint8Array> {
    yield pktLine(`${old ?? ZERO} ${commit} ${ref}\0report-status agent=git/docs-workspace-api\n`);
    yield Buffer.from(FLUSH);
    yield* pack;
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
