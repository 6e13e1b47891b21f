// The pkt-line reader takes lines off a byte stream however its chunks are cut: within one chunk, across
// several, and a flush between them; a stream cut inside a line is an error.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { FLUSH, pktLine, PktReader } from '../server/git-sync/pkt-line.js';

async function* chunked(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function readAll(reader: PktReader): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (;;) {
    const line = await reader.next();
    if (line === undefined) return out;
    out.push(line === null ? null : line.toString('hex'));
  }
}

it('reads the same lines whatever the chunks, a line spanning several of them', async () => {
  const payloads = [Buffer.from('want abc\n'), randomBytes(65_515), Buffer.from('x'), Buffer.alloc(0), randomBytes(3_000), randomBytes(65_515)];
  const stream = Buffer.concat([pktLine(payloads[0]!), Buffer.from(FLUSH), ...payloads.slice(1).map((p) => pktLine(p))]);
  const expected = [payloads[0]!.toString('hex'), null, ...payloads.slice(1).map((p) => p.toString('hex'))];
  for (const sizes of [[stream.length], [1], [3, 5], [65_536], [40_000, 7], [2, 65_536, 100_000]]) {
    expect(await readAll(new PktReader(chunked(stream, sizes)))).toEqual(expected);
  }
});

it('refuses a stream that ends inside a line', async () => {
  const line = pktLine(randomBytes(100));
  await expect(readAll(new PktReader(chunked(line.subarray(0, 50), [20])))).rejects.toThrow('ended its answer inside a pkt-line');
  await expect(readAll(new PktReader(chunked(line.subarray(0, 2), [1])))).rejects.toThrow('ended its answer inside a pkt-line');
});
