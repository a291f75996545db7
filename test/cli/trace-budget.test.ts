/** `tool arazzo run --trace` when the step budget stops the run: the machine's own transition, traced from the step it left. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemo, type Demo } from '../e2e/trace-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

let demo: Demo | undefined;
afterEach(async () => {
  await demo?.api.close();
  demo = undefined;
});

describe('tool arazzo run --trace with --tool-max-steps', () => {
  it('writes the budget failure as a move from the step the budget stopped to failed', async () => {
    demo = await startDemo();
    const run = await runInWorkspace(['arazzo', 'run', demo.file, '--input', 'name=Rex', '--input', 'adopter=Ann', '--tool-max-steps', '3', '--trace', 'run.ndjson'], { cwd: demo.dir });
    expect(run.code).not.toBe(0);
    const lines = readFileSync(join(demo.dir, 'run.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const states = lines.filter((l) => l.type === 'state');
    // registerPet, readPet, requestAdoption (503, retry): the fourth run, requestAdoption again, is over the budget.
    expect(states.map((l) => [l.from, l.state, l.event])).toEqual([
      ['', 's0_registerPet', 'xstate.init'],
      ['s0_registerPet', 's1_readPet', 'runStep.done'],
      ['s1_readPet', 's2_requestAdoption.calling', 'runStep.done'],
      ['s2_requestAdoption.calling', 's2_requestAdoption.backoff', 'runStep.done'],
      [expect.stringMatching(/^s2_requestAdoption/), 's2_requestAdoption.calling', expect.stringMatching(/^xstate\.after\./)],
      ['s2_requestAdoption.calling', 'failed', 'runStep.budgetSpent'],
    ]);
    expect(states.at(-1)).toMatchObject({ actions: ['failBudget'], runs: 3, maxSteps: 3 });
    expect(lines.at(-1)).toMatchObject({ type: 'end', status: 'failed', failure: { code: 'STEP_BUDGET_EXHAUSTED', stepId: 'requestAdoption' } });
  });
});
