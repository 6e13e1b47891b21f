// The value sets that CHECK constraints hold columns to. They repeat the contract's enums because
// drizzle-kit loads these files on its own; test/schema-enums.test.ts proves the two agree.
export const roleValues = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
/** A content's `defaultLevel` when not null: a role, or `inherit`. */
export const defaultLevelValues = [...roleValues, 'inherit'] as const;
export const spaceVisibilityValues = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const editModeValues = ['live', 'locked'] as const;
export const jobStatusValues = ['queued', 'running', 'done', 'failed'] as const;
