// A page that moved: a path the space's current revision has no page at, where an earlier revision had a
// page that is still in the space (at another path now). The revisions the current one was made from are
// walked back (first parents, MAX_STEPS at most); their trees are kept per revision (site-data.ts), and each
// answer per revision and path, so a path asked again costs nothing.
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { spaceTree, type PublishedSpace, type SpaceTree, type TreePage, type TreeRead } from '../published/site-data.js';

const MAX_STEPS = 10;
const answers = new LRUCache<string, { pageId: string | null }>({ max: 10_000 });

/** The page of `tree` that was at `path` in an earlier revision (their trees read by `treeRead`); undefined when none was, or it is gone. */
export async function movedPage(db: Db, space: PublishedSpace, tree: SpaceTree, path: string, treeRead: TreeRead = spaceTree): Promise<TreePage | undefined> {
  const key = `${tree.revisionId}\u0000${path}`;
  let known = answers.get(key);
  if (!known) {
    known = { pageId: null };
    let parents = tree.parents;
    for (let step = 0; step < MAX_STEPS && parents.length > 0; step++) {
      const earlier = await treeRead(db, { ...space, revisionId: parents[0] });
      const was = earlier.byPath.get(path);
      if (was) {
        known = { pageId: was.page.id };
        break;
      }
      parents = earlier.parents;
    }
    answers.set(key, known);
  }
  return known.pageId === null ? undefined : tree.pages.find((p) => p.page.id === known.pageId);
}
