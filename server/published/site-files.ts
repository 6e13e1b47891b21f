// The files of a published site space, under stable URLs of the site itself:
//   <site space URL>/~files/<file id>/<file name>
// A reader gets a file when they may read a page of that site space that refers to it (a link, an image,
// a file block): the reader's access to the file is their access to the page, checked like the page's
// (the site's visibility, share key or visitor token, then the page conditions). The URL never expires, so
// an image keeps showing; a public site's files may be cached by anyone, others' (and an adaptive site's,
// whose pages depend on the reader's claims) only by the reader.
import { childrenOf } from '../content/document-walk.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { contentDisposition } from '../content/file-download.route.js';
import { sendFile } from '../content/file-send.js';
import { pageDocument } from '../content/page-content.js';
import type { Db } from '../db/client.js';
import { contentFiles } from '../db/schema/index.js';
import type { SiteRow } from '../sites/site-view.js';
import type { SpaceTree, TreePage } from './site-data.js';
import { sameForEveryReader } from './reader-caching.js';

export const FILES_SEGMENT = '~files';

/** Files each page of a revision refers to, by revision and page (a revision never changes). */
const referenced = new WeakMap<SpaceTree, Map<string, Set<string>>>();

function filesOfPage(tree: SpaceTree, page: TreePage['page']): Set<string> {
  let byPage = referenced.get(tree);
  if (!byPage) referenced.set(tree, (byPage = new Map()));
  let files = byPage.get(page.id);
  if (!files) {
    files = new Set();
    const walk = (nodes: unknown[] | undefined) => {
      for (const node of nodes ?? []) {
        const n = node as { data?: { ref?: unknown }; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
        const resolved = n.data?.ref ? tree.refs.resolve(n.data.ref as never, page) : undefined;
        if (resolved?.kind === 'file') files!.add(resolved.file.id);
        walk(childrenOf(n));
      }
    };
    walk(pageDocument(page).nodes);
    byPage.set(page.id, files);
  }
  return files;
}

export interface FilePlace {
  site: SiteRow;
  spaceId: string;
  tree: SpaceTree;
  /** The pages of the site space this reader may read. */
  readable: TreePage[];
  fileId: string;
}

/** Sends the file when the reader may have it; false (nothing sent) when not, or when there is no such file. */
export async function siteFileAnswer(db: Db, req: IncomingMessage, res: ServerResponse, at: FilePlace): Promise<boolean> {
  const file = at.tree.refs.file(at.fileId);
  if (!file || !at.readable.some((p) => filesOfPage(at.tree, p.page).has(file.id))) return false;
  const [row] = await db
    .select({ sha256: contentFiles.sha256, size: contentFiles.size, contentType: contentFiles.contentType })
    .from(contentFiles)
    .where(and(eq(contentFiles.spaceId, at.spaceId), eq(contentFiles.fileId, file.id)));
  if (!row) return false;
  const open = at.site.visibility === 'public' || at.site.visibility === 'unlisted';
  const headers: Record<string, string> = {
    // A file id's bytes never change: a file every reader may have may be kept by any cache; another (a
    // restricted site's, or one only some readers' claims reach on an adaptive site) only by its reader.
    'Cache-Control': sameForEveryReader(at.site) ? 'public, max-age=86400' : 'private, max-age=300',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  };
  if (!open) headers['X-Robots-Tag'] = 'noindex';
  // Streamed from the file store with Range and ETag, never redirected to it: the site's URL is stable and
  // cacheable (a presigned one expires), and a restricted site's bytes must not leave past its reader's access.
  await sendFile(db, req, res, { sha256: row.sha256, size: row.size, contentType: row.contentType, contentDisposition: contentDisposition(file.name, row.contentType) }, headers);
  return true;
}
