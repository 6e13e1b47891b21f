// Git's delta format as the streaming pack reader rebuilds it (server/git-sync/pack-reader.ts): the pack
// comes from a Git server the space's admin named, so every size it declares is checked before use.
import { describe, expect, it } from 'vitest';
import { RepositoryTooLarge } from '../../server/git-sync/git-http.js';
import { applyDelta, MAX_IN_MEMORY_BYTES } from '../../server/git-sync/pack-reader.js';
import { varint } from '../support/git-pack-bytes.js';

/** A copy instruction of `size` bytes from `offset` of the base (one byte each, as both fit). */
const copy = (offset: number, size: number) => [0x80 | 0x01 | 0x10, offset, size];
/** An insert instruction of `text`. */
const insert = (text: string) => [text.length, ...Buffer.from(text)];

describe('applyDelta', () => {
  it('rebuilds an object from copies of its base and inserted bytes', () => {
    const base = Buffer.from('Hello, world');
    const delta = Buffer.from([...varint(base.length), ...varint(13), ...copy(0, 7), ...insert('there'), ...copy(11, 1)]);
    expect(applyDelta(base, delta).toString()).toBe('Hello, thered');
  });

  it('refuses a delta made for another base, or one that does not make the size it declares', () => {
    const base = Buffer.from('abc');
    expect(() => applyDelta(base, Buffer.from([...varint(4), ...varint(3), ...copy(0, 3)]))).toThrow(/does not fit its base/);
    expect(() => applyDelta(base, Buffer.from([...varint(3), ...varint(5), ...copy(0, 3)]))).toThrow(/does not rebuild the size it declares/);
  });

  it('refuses, before allocating it, an object larger than it rebuilds in memory', () => {
    const base = Buffer.from('abc');
    const huge = MAX_IN_MEMORY_BYTES + 1;
    const attempt = () => applyDelta(base, Buffer.from([...varint(3), ...varint(huge), ...copy(0, 3)]));
    expect(attempt).toThrow(RepositoryTooLarge);
    expect(attempt).toThrow(`${huge} bytes`);
  });
});
