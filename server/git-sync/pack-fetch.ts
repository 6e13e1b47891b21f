// The fetch of one commit at depth 1 over smart HTTP (protocol v0, `git-upload-pack`), its pack written
// to a file as it arrives: the answer is read through the outbound guard as a stream (public addresses,
// the deadline, at most `maxBytes`), its pkt-lines taken off one at a time and the pack's side-band
// packets appended to the file, so memory holds one packet, never the pack.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { outboundSend, OutboundTooLarge, type OutboundLimits } from '../http/outbound.js';
import { RepositoryTooLarge } from './git-http.js';
import { FLUSH, pktLine, PktReader } from './pkt-line.js';

export interface FetchTarget {
  url: string;
  headers: Record<string, string>;
}

const tooLarge = (limits: OutboundLimits) => new RepositoryTooLarge(`The repository is too large: the server sent more than ${limits.maxBytes} bytes`);

/** Writes the pack of `commit` (depth 1: the commit, its trees and files) to `packPath`. */
export async function fetchPack(target: FetchTarget, commit: string, packPath: string, limits: OutboundLimits): Promise<void> {
  const body = Buffer.concat([
    pktLine(`want ${commit} side-band-64k ofs-delta shallow no-progress agent=git/docs-workspace-api\n`),
    pktLine('deepen 1\n'),
    Buffer.from(FLUSH),
    pktLine('done\n'),
  ]);
  let res;
  try {
    // Undici's `request`, not fetch: the pack's chunks arrive as the socket read them, not copied into a web stream.
    res = await outboundSend(`${target.url.replace(/\/+$/, '')}/git-upload-pack`, limits, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/x-git-upload-pack-request', accept: 'application/x-git-upload-pack-result' },
      body,
      origin: 'user',
      redirect: 'follow',
    });
  } catch (err) {
    if (err instanceof OutboundTooLarge) throw tooLarge(limits);
    throw err;
  }
  if (res.status !== 200) {
    for await (const _ of res.body) break;
    throw new Error(`The Git server answered ${res.status} to the fetch`);
  }
  const out = createWriteStream(packPath);
  try {
    const lines = new PktReader(res.body);
    // The shallow lines, their flush, then NAK (no common commit: this repository has none).
    for (;;) {
      const line = await lines.next();
      if (line === undefined) throw new Error('The Git server ended its answer before the pack');
      if (line === null) continue;
      const text = line.toString('utf8');
      if (text.startsWith('ERR ')) throw new Error(`The Git server refused the fetch: ${text.slice(4).trim()}`);
      if (text.startsWith('NAK') || text.startsWith('ACK')) break;
    }
    for (;;) {
      const line = await lines.next();
      if (line === undefined || line === null) break;
      const band = line[0];
      if (band === 1) {
        if (!out.write(line.subarray(1))) await once(out, 'drain');
      } else if (band === 3) throw new Error(`The Git server failed the fetch: ${line.subarray(1).toString('utf8').trim()}`);
    }
    out.end();
    await finished(out);
  } catch (err) {
    // A write still in flight fails once the stream is destroyed: this failure is already thrown (spool.ts).
    out.on('error', () => {});
    out.destroy();
    // Closed before the failure is told: the operation then removes its folder, which a pack file still being
    // opened (the fetch runs in a thread of its own: pack-thread.ts) would fill again (ENOTEMPTY).
    if (!out.closed) await once(out, 'close');
    if (err instanceof OutboundTooLarge || (err as Error).cause instanceof OutboundTooLarge) throw tooLarge(limits);
    throw err;
  }
}
