// POSIX paths inside a repository: normalized, relative, never escaping the tree they are read in. A path
// that climbs out (`..` past the root), is absolute or holds a backslash or a NUL is refused with the
// path named (RepositoryFormatError), so nothing the repository says reaches outside what was read.
import { RepositoryFormatError } from './types.js';

/** `a/./b//c/../d` → `a/b/d`; undefined when it climbs above where it starts or is not a plain relative path. */
export function normalizePath(path: string): string | undefined {
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return undefined;
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** A path the repository gives (a tree entry, a config value), normalized; `at` names where it was read. */
export function checkedPath(path: string, at: string): string {
  const normalized = normalizePath(path);
  if (normalized === undefined) throw new RepositoryFormatError(at, `the path "${path}" leaves the repository (absolute, "..", backslash or NUL)`);
  return normalized;
}

/** `dir` and `rest` joined (either may be ''). */
export function joinPath(dir: string, rest: string): string {
  if (dir === '') return rest;
  if (rest === '') return dir;
  return `${dir}/${rest}`;
}

/** The folder of a file path ('' at the top). */
export function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `path` below `dir`, relative to it; undefined when it is not below. */
export function below(dir: string, path: string): string | undefined {
  if (dir === '') return path;
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : undefined;
}

/** The relative path from the folder `fromDir` to the file `to`, each segment URL-encoded. */
export function relativeUrl(fromDir: string, to: string): string {
  const from = fromDir === '' ? [] : fromDir.split('/');
  const parts = to.split('/');
  let common = 0;
  while (common < from.length && common < parts.length - 1 && from[common] === parts[common]) common++;
  return [...from.slice(common).map(() => '..'), ...parts.slice(common).map(encodeSegment)].join('/');
}

/**
 * The relative path from the folder `fromDir` to the file `to` as GitBook writes it in a page
 * (`![](<../.gitbook/assets/shot (1).png>)`, `{% file src="../.gitbook/assets/a b.pdf" %}`): spaces and
 * parentheses as they are, only what a link reads otherwise percent-encoded (`%`, `#`, `?`, angle brackets,
 * backslashes, control characters). Read back by resolveLink to the same path.
 */
export function relativePath(fromDir: string, to: string): string {
  return relativeUrl(fromDir, to)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/[%#?<>\\\u0000-\u001f\u007f]/g, (c) => encodeURIComponent(c)))
    .join('/');
}

/** A path segment in a link: what a URL cannot hold as is, percent-encoded (parentheses and spaces too). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The repository path a link of a file in `fromDir` names, with its `#anchor`: undefined for a URL with a
 * scheme, a link that climbs out of `within`, or an encoding that does not decode.
 */
export function resolveLink(fromDir: string, url: string, within: string): { path: string; anchor?: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return undefined;
  const hash = url.indexOf('#');
  const raw = hash < 0 ? url : url.slice(0, hash);
  const anchor = hash < 0 ? undefined : url.slice(hash + 1);
  const query = raw.indexOf('?');
  let target: string;
  try {
    target = decodeURIComponent(query < 0 ? raw : raw.slice(0, query));
  } catch {
    return undefined;
  }
  if (target === '') return undefined;
  const path = target.startsWith('/') ? normalizePath(joinPath(within, target.slice(1))) : normalizePath(joinPath(fromDir, target));
  if (path === undefined || below(within, path) === undefined) return undefined;
  return { path, ...(anchor !== undefined && anchor !== '' && { anchor }) };
}
