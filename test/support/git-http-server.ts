// A Git server over smart HTTP for the tests: the machine's `git http-backend` (the CGI program Git ships
// for exactly this) behind a small Node HTTP server that speaks CGI to it. Each repository is a bare
// repository in a temporary directory; a working clone beside it lets a test commit as a developer would.
// `credentials` makes the server answer 401 to requests without them (basic auth), and every request's
// Authorization header is kept so a test can check what was sent.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Dana Developer',
  GIT_AUTHOR_EMAIL: 'dana@example.com',
  GIT_COMMITTER_NAME: 'Dana Developer',
  GIT_COMMITTER_EMAIL: 'dana@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface GitHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:1234`; a repository `name` is at `${base}/${name}.git`. */
  base: string;
  /** The Authorization headers of the requests received, in order. */
  authorizations: (string | undefined)[];
  /**
   * Makes an empty bare repository (branch main); returns its URL. `options.store`: objects kept and sent
   * without compression or deltas (large random files: the tests of size spend no time on what cannot shrink);
   * with `options.deltas` too, Git still sends an object as a delta of a like one (its default window).
   */
  createRepository(name: string, options?: { store?: boolean; deltas?: boolean }): string;
  /** Commits `files` (path → text or bytes; null deletes) on `branch` as Dana Developer; returns the commit id. */
  commit(name: string, files: Record<string, string | Uint8Array | null>, message: string, branch?: string): string;
  /** The commit `ref` points at. */
  head(name: string, ref?: string): string;
  /** A file of a commit, as text. */
  show(name: string, rev: string, path: string): string;
  /** A commit's message, author name and email, and parents. */
  commitInfo(name: string, rev: string): { message: string; author: string; email: string; parents: string[] };
  /** Paths of the files of a commit. */
  files(name: string, rev: string): string[];
  /** The lines one commit removes (`-…`) and adds (`+…`) against another, by path (`git diff -U0`). */
  changedLines(name: string, from: string, to: string): Record<string, string[]>;
  close(): Promise<void>;
  /** Called with each request's path and query before it is served (a test acts between an operation's exchanges). */
  beforeRequest?: (path: string) => Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 (a loopback address: the API needs ALLOW_PRIVATE_FETCH=true to reach it).
 * `stream`: each request is passed to `git http-backend` as it arrives and each answer passed on as it
 * writes it (as a Git host serves them), not once whole.
 */
export async function startGitHttpServer(options: { credentials?: { username: string; password: string }; stream?: boolean } = {}): Promise<GitHttpServer> {
  const root = mkdtempSync(join(tmpdir(), 'git-http-'));
  const repos = join(root, 'repos');
  mkdirSync(repos);
  const authorizations: (string | undefined)[] = [];
  const expected = options.credentials && `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`;

  const server: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('Authentication required');
      return;
    }
    /** Runs the CGI on the request's body: the bytes received, or (`stream`) the request itself as it arrives. */
    const serve = async (body: Buffer | undefined) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      await served.beforeRequest?.(`${url.pathname}${url.search}`);
      const cgi = spawn('git', ['http-backend'], {
        env: {
          ...gitEnv,
          GIT_PROJECT_ROOT: repos,
          GIT_HTTP_EXPORT_ALL: '1',
          REMOTE_USER: options.credentials?.username ?? 'anonymous',
          REQUEST_METHOD: req.method ?? 'GET',
          PATH_INFO: decodeURIComponent(url.pathname),
          QUERY_STRING: url.search.slice(1),
          CONTENT_TYPE: req.headers['content-type'] ?? '',
          // Streamed, a chunked request (a push) has no length: the CGI reads its input to the end.
          ...(body ? { CONTENT_LENGTH: String(body.length) } : req.headers['content-length'] !== undefined && { CONTENT_LENGTH: req.headers['content-length'] }),
          HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
          GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        },
      });
      const respond = (all: Buffer, split: number, gap: number) => {
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of all.subarray(0, Math.max(split, 0)).toString('utf8').split(/\r?\n/)) {
          const at = line.indexOf(':');
          if (at < 0) continue;
          const name = line.slice(0, at).trim().toLowerCase();
          const value = line.slice(at + 1).trim();
          if (name === 'status') status = Number(value.split(' ')[0]);
          else headers[name] = value;
        }
        res.writeHead(status, headers);
        return split < 0 ? all : all.subarray(split + gap);
      };
      /** The headers' end (CRLF or LF line ends): where, and how long the blank line is. */
      const headersEnd = (all: Buffer): [number, number] | undefined => {
        const crlf = all.indexOf('\r\n\r\n');
        const lf = all.indexOf('\n\n');
        if (crlf >= 0 && (lf < 0 || crlf < lf)) return [crlf, 4];
        return lf >= 0 ? [lf, 2] : undefined;
      };
      cgi.stderr.on('data', () => undefined);
      if (!options.stream) {
        const out: Buffer[] = [];
        cgi.stdout.on('data', (c: Buffer) => out.push(c));
        cgi.on('close', () => {
          const all = Buffer.concat(out);
          const [split, gap] = headersEnd(all) ?? [-1, 0];
          res.end(respond(all, split, gap));
        });
      } else {
        // Passed on as the CGI writes it, as a real Git host serves a fetch: the pack arrives while
        // `git upload-pack` still writes it, and this process never holds it whole.
        let head: Buffer | undefined = Buffer.alloc(0);
        cgi.stdout.on('data', (c: Buffer) => {
          let body = c;
          if (head) {
            const all = Buffer.concat([head, c]);
            const end = headersEnd(all);
            if (!end) {
              head = all;
              return;
            }
            head = undefined;
            body = respond(all, ...end);
          }
          if (!res.write(body)) {
            cgi.stdout.pause();
            res.once('drain', () => cgi.stdout.resume());
          }
        });
        // A client that goes away mid-answer leaves no CGI waiting on a full pipe.
        res.on('close', () => {
          if (!res.writableFinished) cgi.kill();
        });
        cgi.on('close', () => {
          // No blank line at all: the whole output is the body.
          if (head) res.end(respond(head, -1, 0));
          else res.end();
        });
      }
      // git http-backend may answer (a refused push) and exit before it has read the whole request body:
      // the write then fails with EPIPE, and the answer it gave is what the client must get.
      cgi.stdin.on('error', () => undefined);
      if (body) cgi.stdin.end(body);
      else req.pipe(cgi.stdin);
    };
    if (options.stream) {
      // As a Git host takes a push: `git receive-pack` reads the pack while the client still sends it.
      req.pause();
      void serve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serve(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const bare = (name: string) => join(repos, `${name}.git`);
  const work = (name: string) => join(root, 'work', name);

  const served: GitHttpServer = {
    base,
    authorizations,
    createRepository(name, options = {}) {
      git(repos, 'init', '--bare', '--initial-branch=main', `${name}.git`);
      git(bare(name), 'config', 'http.receivepack', 'true');
      mkdirSync(work(name), { recursive: true });
      git(work(name), 'init', '--initial-branch=main');
      git(work(name), 'remote', 'add', 'origin', bare(name));
      if (options.store) {
        for (const dir of [bare(name), work(name)]) {
          git(dir, 'config', 'core.compression', '0');
          if (!options.deltas) git(dir, 'config', 'pack.window', '0');
        }
      }
      return `${base}/${name}.git`;
    },
    commit(name, files, message, branch = 'main') {
      const dir = work(name);
      // Start from what the server has (an export may have pushed since).
      try {
        git(dir, 'fetch', 'origin', branch);
        git(dir, 'checkout', '-B', branch, `origin/${branch}`);
      } catch {
        git(dir, 'checkout', '--orphan', branch);
      }
      for (const [path, content] of Object.entries(files)) {
        const target = join(dir, path);
        if (content === null) rmSync(target, { force: true });
        else {
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, content);
        }
      }
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '--allow-empty', '-m', message);
      git(dir, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
      return git(dir, 'rev-parse', 'HEAD').trim();
    },
    head(name, ref = 'refs/heads/main') {
      return git(bare(name), 'rev-parse', ref).trim();
    },
    show(name, rev, path) {
      return git(bare(name), 'show', `${rev}:${path}`);
    },
    commitInfo(name, rev) {
      const [message, author, email, parents] = git(bare(name), 'log', '-1', '--format=%B%x00%an%x00%ae%x00%P', rev).split('\u0000');
      return { message: message.trim(), author, email, parents: parents.trim() ? parents.trim().split(' ') : [] };
    },
    files(name, rev) {
      return git(bare(name), 'ls-tree', '-r', '--name-only', rev).split('\n').filter(Boolean);
    },
    changedLines(name, from, to) {
      const out: Record<string, string[]> = {};
      let path = '';
      for (const line of git(bare(name), 'diff', '-U0', '--no-color', '--no-renames', from, to).split('\n')) {
        const file = /^diff --git a\/(.*) b\//.exec(line);
        if (file) path = file[1];
        else if (/^[-+]/.test(line) && !/^(?:---|\+\+\+) /.test(line)) (out[path] ??= []).push(line);
      }
      return out;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    },
  };
  return served;
}

/** Reads a fixture directory's files into a path → bytes map (for `commit`). */
export function readFixture(dir: string, paths: string[]): Record<string, Uint8Array> {
  return Object.fromEntries(paths.map((p) => [p, readFileSync(join(dir, p))]));
}
