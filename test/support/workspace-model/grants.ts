// Grants (issue 35): roles given on a space or a collection to a member or a team join the model here, as
// commands that record them in the Model (a `grants` field in model.ts) and change `roleOnContent` in
// model.ts, the one rule every member command reads for a member's role on content.
import type fc from 'fast-check';
import type { Cmd } from './model.js';

export const grantCommands: fc.Arbitrary<Cmd>[] = [];
