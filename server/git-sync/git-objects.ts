// The Git objects an export writes (its pages' blobs, the trees, the commit), made in memory as Git makes
// them: each object's bytes and its id, the SHA-1 of `<type> <size>\0<bytes>`. They were loose objects
// written by isomorphic-git (deflated by pako and written to a file each, then read and inflated again
// for the push): 2-3 s of a 1,000-page export, more than writing the pages' Markdown (bench/git-sync.ts).
// The pages' bytes are held by the export anyway; their blobs are the same buffers.
import { createHash } from 'node:crypto';
import type { ObjectType } from './pack-reader.js';

export interface GitObject {
  type: ObjectType;
  bytes: Uint8Array;
}

/** The id of an object of `type` holding `bytes`. */
export function objectId(type: ObjectType, bytes: Uint8Array): string {
  return createHash('sha1').update(`${type} ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

export interface TreeEntry {
  name: string;
  /** As Git writes it: `100644`, `100755`, `120000`, `160000`, or `40000` for a tree. */
  mode: string;
  oid: string;
}

/** A mode as Git writes it in a tree, from any of the forms met (`040000`, a file's `100664` of old Git). */
export function treeMode(mode: string): string {
  if (/^0?4/.test(mode)) return '40000';
  if (mode.startsWith('1007')) return '100755';
  if (mode.startsWith('1006')) return '100644';
  if (mode.startsWith('120')) return '120000';
  if (mode.startsWith('160')) return '160000';
  throw new Error(`Not a Git file mode: ${mode}`);
}

/** A tree's bytes: its entries in Git's order (by their names' bytes, a tree's name as if it ended in `/`). */
export function treeObject(entries: TreeEntry[]): Buffer {
  const keyed = entries.map((e) => {
    const mode = treeMode(e.mode);
    const name = Buffer.from(e.name, 'utf8');
    return { mode, name, oid: e.oid, key: mode === '40000' ? Buffer.concat([name, Buffer.from('/')]) : name };
  });
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return Buffer.concat(keyed.flatMap((e) => [Buffer.from(`${e.mode} `), e.name, Buffer.from([0]), Buffer.from(e.oid, 'hex')]));
}

export interface Person {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/**
 * A commit's bytes, as isomorphic-git wrote them (the commits this server pushed before keep their form):
 * the time zone `+0000`, the message without carriage returns or leading blank lines, ending in one newline.
 */
export function commitObject(tree: string, parents: string[], author: Person, committer: Person, message: string): Buffer {
  const person = (p: Person) => `${p.name} <${p.email}> ${p.timestamp} +0000`;
  const text = message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '');
  return Buffer.from(`tree ${tree}\n${parents.map((p) => `parent ${p}\n`).join('')}author ${person(author)}\ncommitter ${person(committer)}\n\n${text}\n`, 'utf8');
}
