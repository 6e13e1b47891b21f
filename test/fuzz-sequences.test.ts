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
import { describe, expect, it } from 'vitest';
import { fuzzParameters, intFromEnv } from './support/fuzz-world.js';
import { useHarness } from './support/harness.js';
import { contentCommands } from './support/workspace-model/content.js';
import { grantCommands } from './support/workspace-model/grants.js';
import { integrationCommands } from './support/workspace-model/integrations.js';
import { memberCommands } from './support/workspace-model/members.js';
import { commandsRun, commandsTime, emptyModel, type Cmd, type Real } from './support/workspace-model/model.js';
import { siteCommands } from './support/workspace-model/sites.js';
import { treeCommands } from './support/workspace-model/tree.js';

const h = useHarness();

// Content commands twice: a page is read only after a change request was opened, written and merged in
// the same space, which uniform picks among all commands reach too rarely.
// Access commands twice too: who may see what is where a mistake leaks private content.
const commands: fc.Arbitrary<Cmd>[] = [...treeCommands, ...memberCommands, ...contentCommands, ...contentCommands, ...siteCommands, ...integrationCommands, ...grantCommands, ...grantCommands];
/** Every kind of command there is (a command's description up to its arguments), sampled from each arbitrary. */
const kindsOfCommands = new Set(commands.flatMap((arb) => fc.sample(arb, { numRuns: 30, seed: 1 }).map((cmd) => cmd.toString().replace(/\(.*$/, ''))));
/**
 * Sequences per pass, of up to 100 commands: MODEL_RUNS, 50 by default, so CI's PGlite and PostgreSQL
 * passes run 100 between them (docs/testing-model.md, "Runs and time").
 */
const runs = intFromEnv('MODEL_RUNS', 50);
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
      const other = await h.current.newAdmin(); // a second organization
      const setup = () => ({ model: emptyModel(), real: { h: h.current, admin, other, accounts: new Map() } satisfies Real });
      await fc.asyncModelRun(setup, cmds);
    });
    const result = await fc.check(property, fuzzParameters(runs));
    console.info(`model-based test: commands run ${JSON.stringify(Object.fromEntries([...commandsRun].sort()))}`);
    console.info(`model-based test: ms per kind ${JSON.stringify(Object.fromEntries([...commandsTime].sort((a, b) => b[1] - a[1]).map(([k, ms]) => [k, Math.round(ms)])))}`);
    // A command kind that never ran proves nothing: each must have run (passed its precondition) at least
    // once. Asked of 30 sequences or more (the passes of CI run 50; a shorter run, as the floor pass's 10 or
    // a replay, may miss a rare kind by chance).
    if (!result.failed && !MODEL_REPLAY && runs >= 30) expect([...kindsOfCommands].filter((kind) => !commandsRun.has(kind)), 'command kinds that never ran').toEqual([]);
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
