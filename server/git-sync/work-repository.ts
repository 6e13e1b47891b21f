// One Git Sync operation's repository: isomorphic-git (pure JavaScript smart HTTP, no `git` binary) on a
// temporary directory of its own under the OS's temp dir, removed when the operation ends whatever the
// outcome. Only the one ref is fetched, at depth 1: an import reads its tree, an export writes one commit
// on top of it and pushes it. Every request goes through guardedHttp (the outbound address rules).
import { mkdtemp, rm } from 'node:fs/promises';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { guardedHttp, RepositoryTooLarge } from './git-http.js';

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
  try {
    const repo = new WorkRepository(dir, remote, limits);
    await git.init({ fs: nodeFs, dir, defaultBranch: 'git-sync' });
    // A fetch records what it fetched under the remote's refspec (refs/remotes/origin/*).
    await git.addRemote({ fs: nodeFs, dir, remote: 'origin', url: remote.url });
    return await work(repo);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export class WorkRepository {
  private readonly http;
  private readonly cache = {};

  constructor(
    readonly dir: string,
    private readonly remote: Remote,
    private readonly limits: RepositoryLimits,
  ) {
    this.http = guardedHttp({ timeoutMs: limits.timeoutMs, maxBytes: limits.maxPackBytes });
  }

  private get common() {
    return { fs: nodeFs, dir: this.dir, cache: this.cache };
  }

  /** The commit `ref` points at on the server; undefined when the ref does not exist (an empty repository). */
  async remoteHead(ref: string): Promise<string | undefined> {
    const refs = await git.listServerRefs({ http: this.http, url: this.remote.url, headers: { ...this.remote.headers }, prefix: ref });
    return refs.find((r) => r.ref === ref)?.oid;
  }

  // isomorphic-git adds its own headers (Git-Protocol) to the object it is given: each call gets a copy.

  /** Fetches `ref` at depth 1 (its commit and tree). */
  async fetch(ref: string): Promise<void> {
    await git.fetch({
      ...this.common,
      http: this.http,
      remote: 'origin',
      headers: { ...this.remote.headers },
      remoteRef: ref,
      singleBranch: true,
      depth: 1,
      tags: false,
    });
  }

  /**
   * Fetches the commit `commit` at depth 1: through a branch or tag of the server whose head it is, else by
   * its id (servers that allow it, as GitHub and GitLab do). False when the server gives no such commit (it
   * is not this repository's, or the server does not serve commits by id); a repository over the limits
   * still throws.
   */
  async fetchCommit(commit: string): Promise<boolean> {
    // Branches, then tags: not every ref (a forge's pull request refs can be many).
    let named: string | undefined;
    for (const prefix of ['refs/heads/', 'refs/tags/']) {
      const refs = await git.listServerRefs({ http: this.http, url: this.remote.url, headers: { ...this.remote.headers }, prefix, peelTags: true });
      named = refs.find((r) => r.ref.startsWith(prefix) && (r.oid === commit || r.peeled === commit))?.ref;
      if (named) break;
    }
    try {
      await git.fetch({ ...this.common, http: this.http, remote: 'origin', headers: { ...this.remote.headers }, remoteRef: named ?? commit, singleBranch: true, depth: 1, tags: false });
      await git.readCommit({ ...this.common, oid: commit });
      return true;
    } catch (err) {
      if (err instanceof RepositoryTooLarge) throw err;
      return false;
    }
  }

  /** Every file of the commit's tree: path → blob id and mode. */
  async listFiles(commit: string): Promise<Map<string, TreeFile>> {
    const files = new Map<string, TreeFile>();
    await git.walk({
      ...this.common,
      trees: [git.TREE({ ref: commit })],
      map: async (path, [entry]) => {
        if (!entry) return null;
        const type = await entry.type();
        if (type === 'blob') files.set(path, { oid: await entry.oid(), mode: (await entry.mode()).toString(8) });
        return true;
      },
    });
    return files;
  }

  /** The bytes of the files under `root` ('' for all), refusing more than the limits allow. */
  async readFiles(files: Map<string, TreeFile>, root: string): Promise<Map<string, Uint8Array>> {
    const prefix = root ? `${root}/` : '';
    const selected = [...files].filter(([path]) => path.startsWith(prefix));
    if (selected.length > this.limits.maxFiles) {
      throw new RepositoryTooLarge(`The repository is too large: ${selected.length} files under ${root || 'its root'}, more than ${this.limits.maxFiles}`);
    }
    const out = new Map<string, Uint8Array>();
    let total = 0;
    for (const [path, { oid }] of selected) {
      const { blob } = await git.readBlob({ ...this.common, oid });
      total += blob.byteLength;
      if (total > this.limits.maxTotalBytes) {
        throw new RepositoryTooLarge(`The repository is too large: its files under ${root || 'its root'} hold more than ${this.limits.maxTotalBytes} bytes`);
      }
      out.set(path, blob);
    }
    return out;
  }

  /** The id of the commit's tree. */
  async treeOf(commit: string): Promise<string> {
    return (await git.readCommit({ ...this.common, oid: commit })).commit.tree;
  }

  /** The commit's message. */
  async commitMessage(commit: string): Promise<string> {
    return (await git.readCommit({ ...this.common, oid: commit })).commit.message;
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    return git.writeBlob({ ...this.common, blob: bytes });
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
    const write = async (dir: Dir): Promise<string> => {
      const tree = [...dir.files].map(([path, f]) => ({ mode: f.mode, path, oid: f.oid, type: 'blob' as const }));
      for (const [path, sub] of dir.dirs) tree.push({ mode: '040000', path, oid: await write(sub), type: 'tree' as unknown as 'blob' });
      return git.writeTree({ ...this.common, tree });
    };
    return write(root);
  }

  /** Writes a commit of `tree` on top of `parent` (none for the first commit of a branch). */
  async writeCommit(tree: string, parent: string | undefined, message: string, author: CommitAuthor, at: Date): Promise<string> {
    const person = { ...author, timestamp: Math.floor(at.getTime() / 1000), timezoneOffset: 0 };
    return git.writeCommit({ ...this.common, commit: { tree, parent: parent ? [parent] : [], message, author: person, committer: person } });
  }

  /** Pushes `commit` to the branch `ref` (a fast-forward of its head, or its creation); throws when the server refuses it. */
  async push(commit: string, ref: string): Promise<void> {
    await git.writeRef({ ...this.common, ref: 'refs/heads/git-sync', value: commit, force: true });
    const result = await git.push({ ...this.common, http: this.http, url: this.remote.url, headers: { ...this.remote.headers }, ref: 'refs/heads/git-sync', remoteRef: ref });
    const status = result.refs?.[ref];
    if (!result.ok || (status && !status.ok)) throw new Error(`The Git server refused the push to ${ref}: ${status?.error ?? result.error ?? 'no reason given'}`);
  }
}
