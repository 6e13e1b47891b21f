// The one answer of a locked space (`editMode: locked`) to every write of content: the live content (a
// template applied), a change request's content (edits, bringing it up to date) and merges. A lock is a
// state of the space, not a role the caller lacks, so it is a conflict (409), whatever the caller's role;
// reading, commenting and reviewing go on.
import type { SpaceRow } from '../auth/access.js';
import { Conflict } from '../errors.js';

/** Throws the locked space's conflict; `space` is the row read (and locked) in the writing transaction. */
export function refuseLocked(space: Pick<SpaceRow, 'editMode'>): void {
  if (space.editMode === 'locked') throw new Conflict('The space is locked (editMode: locked): its content cannot be changed');
}
