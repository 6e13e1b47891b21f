// Bytes of Git's pack format for the pack reader's tests (server/git-sync/pack-reader.ts).

/** A size varint as deltas write them (7 bits a byte, low first). */
export function varint(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}
