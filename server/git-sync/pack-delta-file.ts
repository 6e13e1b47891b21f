// Git's delta applied with its base, its instructions and its result on disk, for objects too large to
// rebuild in memory (pack-reader.ts rebuilds the others in memory, as `applyDelta`). The base is read at
// the offsets the copy instructions name, the instructions are read in order a window at a time, and the
// result is written as it is made, so memory holds a few windows whatever the object's size.
import type { FileHandle } from 'node:fs/promises';

/** An object's bytes with reads at any offset: held in memory, or in a file. */
export interface ObjectBytes {
  readonly size: number;
  read(at: number, length: number): Promise<Buffer>;
}

export const bytesInMemory = (bytes: Buffer): ObjectBytes => ({
  size: bytes.length,
  read: async (at, length) => bytes.subarray(at, at + length),
});

/** The first `size` bytes of an open file. */
export function bytesInFile(file: FileHandle, size: number): ObjectBytes {
  return {
    size,
    async read(at, length) {
      const out = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - at)));
      const { bytesRead } = await file.read(out, 0, out.length, at);
      return out.subarray(0, bytesRead);
    },
  };
}

/** The size of the reads from the base and the instructions, and of the writes of the result. */
const WINDOW_BYTES = 1024 * 1024;
/** The most bytes one instruction takes (an insert: its opcode and up to 127 bytes). */
const LONGEST_INSTRUCTION = 128;

/** The instructions of a delta read in order, a window at a time. */
class InstructionReader {
  private window: Buffer = Buffer.alloc(0);
  private windowAt = 0;
  private at = 0;

  constructor(private readonly delta: ObjectBytes) {}

  get done(): boolean {
    return this.at >= this.delta.size;
  }

  /** Makes the next LONGEST_INSTRUCTION bytes (or the rest) readable without a wait. */
  async fill(): Promise<void> {
    if (this.at + LONGEST_INSTRUCTION <= this.windowAt + this.window.length || this.windowAt + this.window.length >= this.delta.size) return;
    this.window = await this.delta.read(this.at, WINDOW_BYTES);
    this.windowAt = this.at;
  }

  byte(): number {
    const value = this.window[this.at - this.windowAt];
    if (value === undefined) throw new Error('A delta of the pack ends inside an instruction');
    this.at++;
    return value;
  }

  take(length: number): Buffer {
    const start = this.at - this.windowAt;
    if (start + length > this.window.length) throw new Error('A delta of the pack ends inside an instruction');
    this.at += length;
    return this.window.subarray(start, start + length);
  }

  varint(): number {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && shift < 64);
    return value;
  }
}

/** The base size and the result size a delta declares (its first two numbers). */
export async function deltaSizes(delta: ObjectBytes): Promise<{ baseSize: number; size: number }> {
  const reader = new InstructionReader(delta);
  await reader.fill();
  return { baseSize: reader.varint(), size: reader.varint() };
}

/**
 * Rebuilds the object `delta` makes from `base`, giving its bytes to `write` in order, in pieces of at
 * most WINDOW_BYTES; returns its size. Refuses, before writing, a delta that declares another base size
 * or a result over `maxSize`, and refuses a delta whose instructions do not make the size it declared.
 */
export async function applyDeltaStreaming(
  base: ObjectBytes,
  delta: ObjectBytes,
  maxSize: number,
  tooLarge: (size: number) => Error,
  write: (piece: Buffer) => Promise<void>,
): Promise<number> {
  const reader = new InstructionReader(delta);
  await reader.fill();
  if (reader.varint() !== base.size) throw new Error('A delta of the pack does not fit its base');
  const size = reader.varint();
  if (size > maxSize) throw tooLarge(size);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let written = 0;
  const emit = async (piece: Buffer) => {
    written += piece.length;
    if (written > size) throw new Error('A delta of the pack does not rebuild the size it declares');
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes >= WINDOW_BYTES) await flush();
  };
  const flush = async () => {
    if (pendingBytes === 0) return;
    const out = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await write(out);
  };
  while (!reader.done) {
    await reader.fill();
    const op = reader.byte();
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += reader.byte() * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (1 << (4 + i))) length += reader.byte() * 2 ** (8 * i);
      if (length === 0) length = 0x10000;
      if (offset + length > base.size) throw new Error('A delta of the pack copies past its base');
      for (let from = offset; from < offset + length; from += WINDOW_BYTES) {
        await emit(await base.read(from, Math.min(WINDOW_BYTES, offset + length - from)));
      }
    } else if (op > 0) {
      await emit(reader.take(op));
    } else throw new Error('A delta of the pack holds an unknown instruction');
  }
  await flush();
  if (written !== size) throw new Error('A delta of the pack does not rebuild the size it declares');
  return size;
}
