// The pack a push streams (server/git-sync/pack-push.ts), written to a file here: every object reads back as it was given, a large
// one deflated at the fastest level when its bytes compress and stored when they do not.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levelFor, packStream, type PackObject } from '../../server/git-sync/pack-push.js';
import { PackReader } from '../../server/git-sync/pack-reader.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pack-push-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const oidOf = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** `bytes` as a stream of `chunk`-byte pieces. */
function object(bytes: Buffer, chunk: number): PackObject {
  return {
    type: 'blob',
    size: bytes.length,
    bytes: async function* () {
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
    },
  };
}

/** The pack of `objects` in the file `file`. */
const writePack = (file: string, objects: PackObject[]) => pipeline(Readable.from(packStream(objects)), createWriteStream(file));

describe('packStream', () => {
  it('stores what does not compress and deflates what does', () => {
    expect(levelFor(randomBytes(64 * 1024))).toBe(0);
    expect(levelFor(Buffer.from('<svg><path d="M0 0 L10 10"/></svg>\n'.repeat(2000)))).toBe(1);
  });

  it('writes large objects that read back whole, stored or deflated, in chunks of any size', async () => {
    const random = randomBytes(1_300_000);
    const text = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `line ${i} of a large page\n`).join(''));
    // Smaller than the sample at first, then larger: the sample is taken across chunks.
    const small = Buffer.from('a page');
    const file = path.join(dir, 'push.pack');
    await writePack(file, [object(random, 10_000), object(text, 100_000), object(small, 3), object(randomBytes(300_000), 1 << 20)]);
    const reader = await PackReader.open(file);
    try {
      for (const bytes of [random, text, small]) {
        const chunks: Buffer[] = [];
        for await (const chunk of reader.stream(oidOf(bytes))) chunks.push(chunk);
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      }
    } finally {
      await reader.close();
    }
  });

  it('refuses an object whose bytes are not the size it was listed with', async () => {
    const bytes = randomBytes(400_000);
    const refused = await writePack(path.join(dir, 'short.pack'), [{ ...object(bytes, 50_000), size: bytes.length + 1 }]).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain('not the 400001 it was listed with');
  });
});
