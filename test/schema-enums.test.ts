// The CHECK constraints of the database hold columns to the same value sets as the contract's enums.
import { describe, expect, it } from 'vitest';
import { roles } from '../contract/common.js';
import { spaceVisibilities, spaceOperations } from '../contract/spaces.js';
import { editModeValues, roleValues, spaceVisibilityValues } from '../server/db/schema/enums.js';

describe('database enums', () => {
  it('match the contract', () => {
    expect([...roleValues]).toEqual([...roles]);
    expect([...spaceVisibilityValues]).toEqual([...spaceVisibilities]);
    expect([...editModeValues]).toEqual(spaceOperations.updateSpaceById.body.shape.editMode.unwrap().options);
  });
});
