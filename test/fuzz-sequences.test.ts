// Model-based test of the workspace: random sequences of real API calls (the content tree, members and
// their roles, change requests with pages, merges, comments, sites and their published pages,
// integrations and installations) run on a fresh organization and are compared, call by call, with a small
// reference model (test/support/workspace-model/): the status the model expects, then the reads the call
// should change (lists and counts, roles and what they allow, page content, the published HTML). Every
// answer is also checked against the document (`send`), and any 5xx fails.
//
// A failure is shrunk to a shortest sequence and printed as a script of commands, with the command to run
// exactly that sequence again: FUZZ_SEED=<seed> FUZZ_PATH=<path> (see docs/testing-model.md).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FUZZ_RUNS, fuzzParameters } from './support/fuzz-world.js';
import { useHarness } from './support/harness.js';
import { contentCommands } from './support/workspace-model/content.js';
import { grantCommands } from './support/workspace-model/grants.js';
import { integrationCommands } from './support/workspace-model/integrations.js';
import { memberCommands } from './support/workspace-model/members.js';
import { commandsRun, emptyModel, type Cmd, type Real } from './support/workspace-model/model.js';
import { siteCommands } from './support/workspace-model/sites.js';
import { treeCommands } from './support/workspace-model/tree.js';

const h = useHarness();

// Content commands twice: a page is read only after a change request was opened, written and merged in
// the same space, which uniform picks among all commands reach too rarely.
const commands: fc.Arbitrary<Cmd>[] = [...treeCommands, ...memberCommands, ...contentCommands, ...contentCommands, ...siteCommands, ...integrationCommands, ...grantCommands];
/** Sequences per run: FUZZ_RUNS / 2 (10 by default), of up to 100 commands. */
const runs = Math.max(1, Math.round(FUZZ_RUNS / 2));
/**
 * fast-check's record of which commands of a failing sequence ran (printed with the failure): with
 * FUZZ_SEED and FUZZ_PATH, it replays exactly the shrunk sequence (without it the shrunk path cannot be
 * found again, as shrinking depends on which commands ran).
 */
const MODEL_REPLAY = process.env.MODEL_REPLAY || undefined;

describe('model-based test of the workspace', () => {
  it(`${runs} random sequences of API calls agree with the model`, async () => {
    const property = fc.asyncProperty(fc.commands(commands, { maxCommands: 100, size: 'max', ...(MODEL_REPLAY && { replayPath: MODEL_REPLAY }) }), async (cmds) => {
      const admin = await h.current.newAdmin();
      const setup = () => ({ model: emptyModel(), real: { h: h.current, admin, accounts: new Map() } satisfies Real });
      await fc.asyncModelRun(setup, cmds);
    });
    const result = await fc.check(property, fuzzParameters(runs));
    console.info(`model-based test: commands run ${JSON.stringify(Object.fromEntries([...commandsRun].sort()))}`);
    if (result.failed) {
      const script = (result.counterexample?.[0] as Iterable<Cmd> | undefined) ?? [];
      const replay = /replayPath="([^"]*)"/.exec(String(result.counterexample?.[0]))?.[1];
      throw new Error(
        [
          'A sequence disagrees with the model. Shortest sequence found:',
          ...[...script].map((cmd, i) => `  ${i + 1}. ${cmd.toString()}`),
          `Run exactly it again: FUZZ_SEED=${result.seed} FUZZ_PATH=${result.counterexamplePath} MODEL_REPLAY='${replay}' npx vitest run test/fuzz-sequences.test.ts`,
          '',
          `What failed: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
          '',
          fc.defaultReportMessage(result) ?? '',
        ].join('\n'),
      );
    }
  }, 300_000);
});
