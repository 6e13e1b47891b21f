// One Git Sync operation's repository, on a temporary directory of its own under the OS's temp dir, removed
// when the operation ends whatever the outcome. Only one commit is fetched, at depth 1, its pack written to
// disk as it arrives and indexed, in a thread of their own (pack-thread.ts), then read from there
// (pack-reader.ts): an import reads its tree, an export writes one commit on top of it (the new commit,
// trees and pages made in memory, git-objects.ts) and pushes a pack of what the server lacks, streamed
// into the request as it is written (pack-push.ts). No `git` binary; every request goes through the
// outbound guard (public addresses, a deadline, a cap on the bytes of each answer).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import type { Spooled } from '../blobs/spool.js';
import { blobStore } from '../blobs/store.js';
import type { AssetSource } from './files.js';
import { guardedHttp, RepositoryTooLarge } from './git-http.js';
import { commitObject, objectId, treeObject, type GitObject } from './git-objects.js';
import { packStream, pushPack } from './pack-push.js';
import { packObjectOf, type PushObject } from './pack-push-job.js';
import { PackReader, type ObjectType } from './pack-reader.js';
import { fetchAndIndexInThread, pushInThread } from './pack-thread.js';

export { RepositoryTooLarge };

/** How much of a repository an operation takes: beyond any of them it is refused with the reason. */
export interface RepositoryLimits {
  /** Deadline of each HTTP exchange with the Git server. */
  timeoutMs: number;
  /** Bytes of one answer of the server (the pack of the ref's tree). */
  maxPackBytes: number;
  /** Files under the docs root. */
  maxFiles: number;
  /** Bytes of the files under the docs root together. */
  maxTotalBytes: number;
  /** Bytes of one asset (a file directly under `.gitbook/assets/`), streamed to the file store whatever FILES_MAX_BYTES says. */
  maxAssetBytes: number;
}

export interface Remote {
  /** The URL without credentials. */
  url: string;
  /** `Authorization` when the URL carried credentials. */
  headers: Record<string, string>;
}

export interface TreeFile {
  oid: string;
  mode: string;
}

export interface CommitAuthor {
  name: string;
  email: string;
}

/** Runs `work` on a fresh local repository for `remote`, removed afterwards. */
export async function withWorkRepository<T>(remote: Remote, limits: RepositoryLimits, work: (repo: WorkRepository) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'git-sync-'));
  const repo = new WorkRepository(dir, remote, limits);
  try {
    return await work(repo);
  } finally {
    await repo.close();
    // Retried: a file the pack thread closes late (a failed fetch's) would otherwise fail the removal with
    // ENOTEMPTY, which then stood in for the operation's own outcome.
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** A tree's entries: name, mode (as Git writes it) and id. */
function treeEntries(bytes: Buffer): { name: string; mode: string; oid: string }[] {
  const entries = [];
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const nul = bytes.indexOf(0, space);
    entries.push({ mode: bytes.toString('latin1', at, space), name: bytes.toString('utf8', space + 1, nul), oid: bytes.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

export class WorkRepository {
  private readonly http;
  /** The objects this operation wrote (an export's pages, trees and commit), by id. */
  private readonly written = new Map<string, GitObject>();
  private readonly packs: PackReader<Spooled>[] = [];

  constructor(
    readonly dir: string,
    private readonly remote: Remote,
    private readonly limits: RepositoryLimits,
  ) {
    this.http = guardedHttp({ timeoutMs: limits.timeoutMs, maxBytes: limits.maxPackBytes });
  }

  private get outbound() {
    return { timeoutMs: this.limits.timeoutMs, maxBytes: this.limits.maxPackBytes };
  }

  async close(): Promise<void> {
    for (const pack of this.packs.splice(0)) await pack.close();
  }

  /** The commit `ref` points at on the server; undefined when the ref does not exist (an empty repository). */
  async remoteHead(ref: string): Promise<string | undefined> {
    const refs = await git.listServerRefs({ http: this.http, url: this.remote.url, headers: { ...this.remote.headers }, prefix: ref });
    return refs.find((r) => r.ref === ref)?.oid;
  }

  /**
   * Fetches `commit` (a ref's head) at depth 1: its commit, trees and files, in a pack on disk. With
   * `spoolBlobsUpTo`, each blob the pack streams (over 1 MiB, not a delta) of at most that many bytes is
   * also written to the file store's spool as the pack is indexed, hashed for its blob name on the way
   * (`takeSpooled`): an import stores its assets from there, so their bytes are inflated once, not once
   * to index the pack and again to store them. A spool nobody takes is deleted with the repository; none
   * keeps its first bytes in memory (they are read from its file when it is stored). The fetch and the
   * index pass run in the Git pack thread (pack-thread.ts); this process reads the pack from their index.
   */
  async fetch(commit: string, options: { spoolBlobsUpTo?: number } = {}): Promise<void> {
    const path = join(this.dir, `fetched-${this.packs.length}.pack`);
    const upTo = options.spoolBlobsUpTo;
    // In a thread of its own (pack-thread.ts says why). A delta may make an object as large as a pack may
    // be; larger ones are refused before they are written.
    const maxObjectBytes = this.limits.maxPackBytes;
    const index = await fetchAndIndexInThread({
      target: this.remote,
      commit,
      packPath: path,
      limits: this.outbound,
      maxObjectBytes,
      ...(upTo !== undefined && { spool: { dir: blobStore().spoolDir, upTo } }),
    });
    this.packs.push(await PackReader.indexed(path, index, { maxObjectBytes, drop: (spooled) => spooled.discard() }));
  }

  /** The blob `oid` spooled while the pack was indexed (see `fetch`), now the caller's to store or discard; undefined when none was. */
  takeSpooled(oid: string): Spooled | undefined {
    for (const pack of this.packs) {
      const spooled = pack.takeKept(oid);
      if (spooled) return spooled;
    }
    return undefined;
  }

  /**
   * Fetches the commit `commit` at depth 1 (a head of the server's, or any commit where the server serves
   * commits by id, as GitHub and GitLab do). False when the server gives no such commit; a repository over
   * the limits still throws.
   */
  async fetchCommit(commit: string): Promise<boolean> {
    try {
      await this.fetch(commit);
      return this.has(commit);
    } catch (err) {
      if (err instanceof RepositoryTooLarge) throw err;
      return false;
    }
  }

  private has(oid: string): boolean {
    return this.packs.some((p) => p.has(oid));
  }

  private packOf(oid: string): PackReader<Spooled> {
    const pack = this.packs.find((p) => p.has(oid));
    if (!pack) throw new Error(`The fetched commit holds no object ${oid}`);
    return pack;
  }

  private async object(oid: string, type: ObjectType): Promise<Buffer> {
    const read = await this.packOf(oid).read(oid);
    if (read.type !== type) throw new Error(`${oid} is a ${read.type}, not a ${type}`);
    return read.bytes;
  }

  private async commitText(commit: string): Promise<string> {
    return (await this.object(commit, 'commit')).toString('utf8');
  }

  /** Every file of the commit's tree: path → blob id and mode (submodules aside). */
  async listFiles(commit: string): Promise<Map<string, TreeFile>> {
    const files = new Map<string, TreeFile>();
    const walk = async (tree: string, prefix: string) => {
      for (const entry of treeEntries(await this.object(tree, 'tree'))) {
        const path = `${prefix}${entry.name}`;
        if (entry.mode === '40000') await walk(entry.oid, `${path}/`);
        else if (entry.mode !== '160000') files.set(path, { oid: entry.oid, mode: entry.mode });
      }
    };
    await walk(await this.treeOf(commit), '');
    return files;
  }

  /** The size of a file, from the pack's index. */
  sizeOf(oid: string): number {
    return this.packOf(oid).info(oid)!.size;
  }

  /** A file's bytes as a stream, read from the pack on disk as they are consumed. */
  openFile(oid: string): AsyncIterable<Buffer> {
    return this.packOf(oid).stream(oid);
  }

  /** Checks the files under `root` against the limits on their count and bytes; those files. */
  checkedFiles(files: Map<string, TreeFile>, root: string): [string, TreeFile][] {
    const prefix = root ? `${root}/` : '';
    const selected = [...files].filter(([path]) => path.startsWith(prefix));
    if (selected.length > this.limits.maxFiles) {
      throw new RepositoryTooLarge(`The repository is too large: ${selected.length} files under ${root || 'its root'}, more than ${this.limits.maxFiles}`);
    }
    let total = 0;
    for (const [, { oid }] of selected) total += this.sizeOf(oid);
    if (total > this.limits.maxTotalBytes) {
      throw new RepositoryTooLarge(`The repository is too large: its files under ${root || 'its root'} hold more than ${this.limits.maxTotalBytes} bytes`);
    }
    return selected;
  }

  /** The bytes of the files under `root` ('' for all), in memory: for the few small files asked by name. */
  async readFiles(files: Map<string, TreeFile>, root: string): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for (const [path, { oid }] of this.checkedFiles(files, root)) out.set(path, await this.object(oid, 'blob'));
    return out;
  }

  /** The id of the commit's tree. */
  async treeOf(commit: string): Promise<string> {
    const match = /^tree ([0-9a-f]{40})$/m.exec(await this.commitText(commit));
    if (!match) throw new Error(`The commit ${commit} names no tree`);
    return match[1]!;
  }

  /** The commit's message. */
  async commitMessage(commit: string): Promise<string> {
    const text = await this.commitText(commit);
    const blank = text.indexOf('\n\n');
    return blank === -1 ? '' : text.slice(blank + 2);
  }

  /** Keeps `bytes` as an object of the push to come; its id. */
  private writeObject(type: ObjectType, bytes: Uint8Array): string {
    const oid = objectId(type, bytes);
    this.written.set(oid, { type, bytes });
    return oid;
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    return this.writeObject('blob', bytes);
  }

  /** Writes the trees of a flat path → file map; the id of the root tree. */
  async writeTree(files: Map<string, TreeFile>): Promise<string> {
    interface Dir {
      files: Map<string, TreeFile>;
      dirs: Map<string, Dir>;
    }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const [path, file] of files) {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
        dir = next;
      }
      dir.files.set(parts.at(-1)!, file);
    }
    const write = (dir: Dir): string => {
      const entries = [...dir.files].map(([name, f]) => ({ name, mode: f.mode, oid: f.oid }));
      for (const [name, sub] of dir.dirs) entries.push({ name, mode: '40000', oid: write(sub) });
      return this.writeObject('tree', treeObject(entries));
    };
    return write(root);
  }

  /** Writes a commit of `tree` on top of `parent` (none for the first commit of a branch). */
  async writeCommit(tree: string, parent: string | undefined, message: string, author: CommitAuthor, at: Date): Promise<string> {
    const person = { ...author, timestamp: Math.floor(at.getTime() / 1000) };
    return this.writeObject('commit', commitObject(tree, parent ? [parent] : [], person, person, message));
  }

  /**
   * Pushes `commit` to the branch `ref` (a fast-forward of its head `old`, or its creation); throws when the
   * server refuses it. The pack holds the commit and the trees and files the fetched commit does not:
   * those written here, and `streamed` ones (id → its bytes where they are kept). When each of those is a
   * file on this machine (the folder file store), the pack is written and sent in the pack thread
   * (pack-thread.ts says why); else here, streamed from the file store.
   */
  async push(commit: string, ref: string, old: string | undefined, streamed: Map<string, AssetSource>): Promise<void> {
    // An asset the pack thread cannot read (not a file here) is streamed from the file store on this thread.
    const objects: (PushObject | { type: 'blob'; size: number; source: AssetSource })[] = [];
    const seen = new Set<string>();
    const add = async (oid: string): Promise<void> => {
      if (seen.has(oid) || this.has(oid)) return;
      seen.add(oid);
      const big = streamed.get(oid);
      if (big) {
        objects.push(big.file ? { type: 'blob', size: big.size, path: big.file } : { type: 'blob', size: big.size, source: big });
        return;
      }
      const own = this.written.get(oid);
      if (!own) throw new Error(`The commit to push names ${oid}, which neither the fetched commit nor this export holds`);
      const { type, bytes: object } = own;
      objects.push({ type, size: object.byteLength, bytes: object });
      if (type === 'commit') await add(/^tree ([0-9a-f]{40})$/m.exec(Buffer.from(object).toString('utf8'))![1]!);
      if (type === 'tree') for (const entry of treeEntries(Buffer.from(object))) if (entry.mode !== '160000') await add(entry.oid);
    };
    await add(commit);
    const files = objects.filter((object): object is PushObject => !('source' in object));
    if (files.length === objects.length) {
      await pushInThread({ target: this.remote, ref, old, commit, objects: files, limits: this.outbound });
      return;
    }
    const pack = objects.map((object) => ('source' in object ? { type: object.type, size: object.size, bytes: object.source.bytes } : packObjectOf(object)));
    await pushPack(this.remote, ref, old, commit, packStream(pack), this.outbound);
  }

  /** Points the branch `ref` at a commit the server already has (a new branch at the last sync's commit). */
  async pushExisting(commit: string, ref: string): Promise<void> {
    await pushPack(this.remote, ref, undefined, commit, packStream([]), this.outbound);
  }
}
