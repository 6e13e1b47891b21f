// The CHECK constraints of the database hold columns to the same value sets as the contract's enums.
import { describe, expect, it } from 'vitest';
import { DefaultLevel, roles } from '../contract/common.js';
import { spaceVisibilities, spaceOperations } from '../contract/spaces.js';
import { defaultLevelValues, editModeValues, roleValues, spaceVisibilityValues } from '../server/db/schema/enums.js';

describe('database enums', () => {
  it('match the contract', () => {
    expect([...roleValues]).toEqual([...roles]);
    expect([...spaceVisibilityValues]).toEqual([...spaceVisibilities]);
    // DefaultLevel: a role, null or `inherit`; the column holds the non-null ones.
    expect([...defaultLevelValues]).toEqual([...roles, 'inherit']);
    expect(DefaultLevel.safeParse('inherit').success && DefaultLevel.safeParse(null).success).toBe(true);
    expect([...editModeValues]).toEqual(spaceOperations.updateSpaceById.body.shape.editMode.unwrap().options);
  });
});
