/**
 * v2 input errors show what was given (quoted, cut to 40 characters, `***` for a secret) and name
 * every missing required input at once.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();

const run = (args: string[], env: Record<string, string> = {}) =>
  runInWorkspace(['arazzo', 'run', h.ws.fixture('v2-inputs-messages.arazzo.yaml'), '--tool-runner', 'v2', ...args], { cwd: h.ws.dir, env });

describe('arazzo run --tool-runner v2: input errors', () => {
  it('names every missing required input in one message', async () => {
    const result = await run(['--input', 'petId=1']);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('error: inputs "owner", "apiToken" are required by workflow "main"; nothing was sent');
    expect(result.stderr).toContain('--input owner=<value> --input apiToken=<value>');
    const none = await run([]);
    expect(none.stderr).toContain('error: inputs "owner", "petId", "apiToken" are required by workflow "main"');
  });

  it('shows the value given, quoted and cut to 40 characters', async () => {
    const long = 'abcdefghij'.repeat(6);
    const result = await run(['--input', `owner=${long}`, '--input', 'petId=1', '--input', 'apiToken=tok-1']);
    expectNoRun(result, 2);
    expect(result.stderr).toContain(`input "owner" must NOT have more than 5 characters (given: "${long.slice(0, 40)}…"); nothing was sent`);
    const typed = await run(['--input', 'owner=al', '--input', 'petId=abc', '--input', 'apiToken=tok-1']);
    expect(typed.stderr).toContain('input "petId" must be integer (given: "abc")');
  });

  it('shows *** for an --input-env value and for an input with a secret-like name', async () => {
    const fromEnv = await run(['--input-env', 'owner=OWNER_VALUE', '--input', 'petId=1', '--input', 'apiToken=tok-1'], { OWNER_VALUE: 'env-Secret-9c' });
    expectNoRun(fromEnv, 2);
    expect(fromEnv.stderr).toContain('input "owner" must NOT have more than 5 characters (given: ***)');
    expect(fromEnv.stderr).not.toContain('env-Secret-9c');
    const named = await run(['--input', 'owner=al', '--input', 'petId=1', '--input', 'apiToken=bad-Secret-77']);
    expect(named.stderr).toContain('input "apiToken" must match pattern "^tok-" (given: ***)');
    expect(named.stderr).not.toContain('bad-Secret-77');
  });
});
