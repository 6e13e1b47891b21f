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
      // The fastest level: assets (most of a push's bytes) are images and PDFs that do not compress further.
      const deflate = createDeflate({ level: 1 });
      const feeding = (async () => {
        let size = 0;
        for await (const chunk of object.bytes()) {
          size += chunk.byteLength;
          if (!deflate.write(chunk)) await once(deflate, 'drain');
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
