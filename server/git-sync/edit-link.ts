// The "Edit on …" link of a published page (the site customization's `git.showEditLink`): the space's
// tree URL (`repoTreeURL` or `gitInfo.url`) followed by the path of the page's file in the repository, as
// recorded by the last import or export (on the current revision, or else on the revision of the last
// sync, for a page not edited since). Nothing when the space has no sync, no tree URL, or the page no file.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { contentRevisions, spaces } from '../db/schema/index.js';
import type { RevisionGit } from '../content/revisions.store.js';
import { asRecord } from './sync-record.js';

const providerNames = { github: 'GitHub', gitlab: 'GitLab', git: 'Git' } as const;

async function blobsOf(db: Db, revisionId: string): Promise<RevisionGit['blobs'] | undefined> {
  const [row] = await db.select({ git: contentRevisions.git }).from(contentRevisions).where(eq(contentRevisions.id, revisionId));
  return (row?.git as RevisionGit | null)?.blobs;
}

/** The link to edit `pageId` of the space in its repository, or undefined. */
export async function editLinkOf(db: Db, spaceId: string, pageId: string): Promise<{ title: string; href: string } | undefined> {
  const [space] = await db.select({ gitSync: spaces.gitSync, revisionId: spaces.revisionId }).from(spaces).where(eq(spaces.id, spaceId));
  const record = asRecord(space?.gitSync);
  if (!space || !record?.treeURL) return undefined;
  let blob = (await blobsOf(db, space.revisionId))?.[pageId];
  if (!blob && record.revision && record.revision !== space.revisionId) blob = (await blobsOf(db, record.revision))?.[pageId];
  if (!blob) return undefined;
  const base = record.treeURL.endsWith('/') ? record.treeURL : `${record.treeURL}/`;
  return { title: `Edit on ${providerNames[record.provider]}`, href: `${base}${blob.path.split('/').map(encodeURIComponent).join('/')}` };
}
