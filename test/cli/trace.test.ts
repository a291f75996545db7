/** `tool arazzo run --trace` in-process: the demo workflow (a retry, then a polling goto) against a real loopback server. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemo, type Demo } from '../e2e/trace-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

interface Line {
  v: number;
  t: number;
  type: string;
  [field: string]: unknown;
}

let demo: Demo | undefined;
afterEach(async () => {
  await demo?.api.close();
  demo = undefined;
});

async function tracedRun(): Promise<{ code: number; lines: Line[]; stdout: string; trace: string }> {
  demo = await startDemo();
  const run = await runInWorkspace(['arazzo', 'run', demo.file, '--input', 'name=Rex', '--input', 'adopter=Ann', '--trace', 'run.ndjson'], { cwd: demo.dir });
  const trace = readFileSync(join(demo.dir, 'run.ndjson'), 'utf8');
  return { code: run.code, lines: trace.trim().split('\n').map((line) => JSON.parse(line) as Line), stdout: run.stdout, trace };
}

describe('tool arazzo run --trace', () => {
  it('traces a run with a retry and a goto as the expected sequence of states', async () => {
    const { code, lines } = await tracedRun();
    expect(code).toBe(0);
    const states = lines.filter((l) => l.type === 'state').map((l) => l.state);
    // One state per step run: a step's runStep.done judges it and applies its actions in one transition.
    expect(states).toEqual([
      's0_registerPet',
      's1_readPet',
      's2_requestAdoption.calling',
      's2_requestAdoption.backoff', // shelterBusy: retry after 0.2 s
      's2_requestAdoption.calling',
      's3_checkAdoption',
      's3_checkAdoption', // stillPending: goto checkAdoption
      's3_checkAdoption',
      'succeeded',
    ]);
  });

  it('writes the actions taken, each request and the end, with the budget used', async () => {
    const { lines } = await tracedRun();
    expect(lines[0]).toEqual({ v: 1, t: 0, type: 'start', workflowId: 'adoptPet', steps: 4, maxSteps: 10000 });
    expect(lines.filter((l) => l.type === 'action').map((l) => [l.stepId, l.action, l.actionType, l.retries, l.runs])).toEqual([
      ['requestAdoption', 'shelterBusy', 'retry', 1, 3],
      ['checkAdoption', 'stillPending', 'goto', 0, 5],
      ['checkAdoption', 'stillPending', 'goto', 0, 6],
    ]);
    const requests = lines.filter((l) => l.type === 'step');
    expect(requests.map((l) => [l.stepId, l.method, new URL(l.url as string).pathname, l.status, l.ok])).toEqual([
      ['registerPet', 'POST', '/pets', 201, true],
      ['readPet', 'GET', '/pets/1', 200, true],
      ['requestAdoption', 'POST', '/pets/1/adoptions', 503, false],
      ['requestAdoption', 'POST', '/pets/1/adoptions', 202, true],
      ['checkAdoption', 'GET', '/adoptions/a1', 200, true],
      ['checkAdoption', 'GET', '/adoptions/a1', 200, true],
      ['checkAdoption', 'GET', '/adoptions/a1', 200, true],
    ]);
    for (const l of requests) expect(typeof l.durationMs).toBe('number');
    const backoff = lines.find((l) => l.state === 's2_requestAdoption.backoff')!;
    const retried = lines.find((l) => l.state === 's2_requestAdoption.calling' && l.from === 's2_requestAdoption.backoff')!;
    expect(backoff).toMatchObject({ retryDelayMs: 200, event: 'runStep.done' });
    expect(retried.t - backoff.t).toBeGreaterThanOrEqual(190);
    expect(lines.at(-1)).toMatchObject({ v: 1, type: 'end', status: 'succeeded', runs: 7, records: 7 });
  });

  it('keeps every line versioned and in time order, and holds no inputs or bodies', async () => {
    const { lines, stdout, trace } = await tracedRun();
    expect(new Set(lines.map((l) => l.v))).toEqual(new Set([1]));
    const times = lines.map((l) => l.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Inputs (Rex, Ann) and response bodies ("approved") never reach the trace; criteria text in labels may.
    expect(trace).not.toMatch(/Rex|Ann|adopter|approved/);
    // The run record on stdout is the same as without --trace: the trace goes only to its file.
    expect(JSON.parse(stdout)).toMatchObject({ workflowId: 'adoptPet', outputs: { status: 'approved' } });
  });

  it('refuses a trace path it cannot write before sending anything (exit 2)', async () => {
    demo = await startDemo();
    const run = await runInWorkspace(['arazzo', 'run', demo.file, '--trace', 'missing/run.ndjson'], { cwd: demo.dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error: cannot write the trace file missing/run.ndjson: ENOENT');
    expect(run.stderr).not.toContain('registerPet');
  });

  it('replaces a symbolic link at the trace path instead of writing through it', async () => {
    demo = await startDemo();
    const victim = join(demo.dir, 'precious.txt');
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, join(demo.dir, 'linked.ndjson'));
    const run = await runInWorkspace(['arazzo', 'run', demo.file, '--input', 'name=Rex', '--input', 'adopter=Ann', '--trace', 'linked.ndjson'], { cwd: demo.dir });
    expect(run.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(demo.dir, 'linked.ndjson')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(demo.dir, 'linked.ndjson'), 'utf8')).toContain('"type":"start"');
  });
});
