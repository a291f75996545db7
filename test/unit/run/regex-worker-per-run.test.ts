/**
 * The regex worker is a service of the run (src/execute/regex-worker.ts), not of the process: each
 * run whose criteria test a regex creates its own, a run without such criteria creates none, and
 * the run stops it when it ends, so no thread outlives the run.
 */
import { describe, expect, it } from '@jest/globals';
import { V1_PROFILE, V2_PROFILE, type RunnerProfile } from '../../../src/arazzo/runner-profile.js';
import { createRegexWorker, type RegexWorker } from '../../../src/execute/regex-worker.js';
import { runWorkflowFile } from '../../../src/run/run-workflow.js';
import type { Routes } from '../../e2e/helpers/scripted-server.js';
import { useScriptedWorkspace } from '../../e2e/helpers/scripted-workspace.js';
import { toolEnv } from '../../e2e/helpers/run-tool.js';
import { Collector } from '../../cli/run-tool.js';

const shared = useScriptedWorkspace();
const READY = { body: { id: 7, items: [{ status: 'waiting' }, { status: 'ready' }] } };
const SHIPPED = { headers: { 'content-type': 'application/xml' }, body: '<order><status>shipped</status><item/><item/></order>' };

/** Runs `fixture` with a regex worker factory that keeps what it made. */
async function run(fixture: string, routes: Routes, profile: RunnerProfile = V2_PROFILE, signal = new AbortController().signal): Promise<{ code: string; workers: RegexWorker[]; stops: number; stderr: string }> {
  const file = shared.prepare(fixture, routes);
  const workers: RegexWorker[] = [];
  let stops = 0;
  const regexWorker = () => {
    const worker = createRegexWorker();
    workers.push(worker);
    const stop = worker.stop.bind(worker);
    worker.stop = () => {
      stops += 1;
      stop();
    };
    return worker;
  };
  const stderr = new Collector();
  const outcome = await runWorkflowFile(
    { file, inputs: {}, dryRun: false, output: 'json', verbose: false, quiet: true, maxSteps: 100, retry: 0, retryUnsafe: false, timeoutMs: 5000, profile },
    { stdout: new Collector(), stderr, cwd: shared.ws.dir, colors: false, signal, env: toolEnv(shared.ws.dir) },
    { regexWorker },
  );
  return { code: outcome.kind, workers, stops, stderr: stderr.text };
}

describe('the regex worker of a run', () => {
  it('is created by a run whose criteria test a regex, once, and stopped when the run ends', async () => {
    const result = await run('v2-criteria.arazzo.yaml', { 'GET /a': READY, 'GET /b': SHIPPED });
    expect(result.code).toBe('succeeded');
    expect(result.workers).toHaveLength(1);
    expect(result.stops).toBe(1);
    expect(result.workers[0]!.running).toBe(false);
  });

  it('is stopped when the run is interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run('v2-criteria.arazzo.yaml', { 'GET /a': READY, 'GET /b': SHIPPED }, V2_PROFILE, controller.signal);
    expect(result.code).toBe('interrupted');
    expect(result.workers).toHaveLength(1);
    expect(result.stops).toBe(1);
  });

  it('is stopped when the run fails on a regex that was stopped by its time limit', async () => {
    const result = await run('v2-regex-backtracking.arazzo.yaml', { 'GET /a': { body: { text: 'a'.repeat(40) } }, 'GET /b': {} });
    expect(result.code).toBe('failed');
    expect(result.stderr).toContain('was stopped');
    expect(result.workers).toHaveLength(1);
    expect(result.stops).toBe(1);
    expect(result.workers[0]!.running).toBe(false);
  });

  it('is not shared: two runs at once each have their own', async () => {
    const [first, second] = await Promise.all([
      run('v2-criteria.arazzo.yaml', { 'GET /a': READY, 'GET /b': SHIPPED }),
      run('v2-criteria.arazzo.yaml', { 'GET /a': READY, 'GET /b': SHIPPED }),
    ]);
    expect(first.workers).toHaveLength(1);
    expect(second.workers).toHaveLength(1);
    expect(first.workers[0]).not.toBe(second.workers[0]);
    expect([first.workers[0]!.running, second.workers[0]!.running]).toEqual([false, false]);
  });

  it('is not created for a run without regex or jsonpath criteria, nor for a v1 run', async () => {
    const plain = await run('state-success-end.arazzo.yaml', { 'GET /a': { body: { found: true } } });
    expect(plain.code).toBe('succeeded');
    expect(plain.workers).toEqual([]);
    expect((await run('v2-criteria.arazzo.yaml', { 'GET /a': READY, 'GET /b': SHIPPED }, V1_PROFILE)).workers).toEqual([]);
  });
});
