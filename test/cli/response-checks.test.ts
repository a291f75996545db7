/**
 * `arazzo run --checks off|warn|fail`: each step's response compared with its operation in the
 * description (status, content type, body schema), against a real scripted server, for an
 * OpenAPI 3.0 and a 3.1 description; and what the reports keep of it.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import type { Routes } from '../e2e/helpers/scripted-server.js';
import { useScriptedWorkspace } from '../e2e/helpers/scripted-workspace.js';
import { runInWorkspace } from './run-in-workspace.js';

const shared = useScriptedWorkspace();

/** The pet answered by `pet`; the other calls answer 200 with no content. */
const routes = (pet: Routes[string]): Routes => ({ 'GET /pets/{id}': pet, 'GET /other': {}, 'GET /cleanup': {} });

const WRONG_STATUS = routes({ status: 202, body: { id: 7, name: 'Rex' } });
const WRONG_TYPE = routes({ status: 200, body: '<p>Rex</p>', headers: { 'content-type': 'text/html; charset=utf-8' } });
const WRONG_BODY = routes({ status: 200, body: { id: 'seven', name: 'Rex', tag: null, secret: 'hunter2-Secret' } });
const RIGHT = routes({ status: 200, body: { id: 7, name: 'Rex', tag: null } });

for (const spec of ['checks-30.openapi.yaml', 'checks-31.openapi.yaml']) {
  describe(`response checks against ${spec}`, () => {
    const run = async (args: string[], answer: Routes) => {
      shared.ws.fixture(spec, { BASE_URL: shared.server.url });
      const file = shared.prepare('checks.arazzo.yaml', answer, { SPEC: spec });
      return runInWorkspace(['arazzo', 'run', file, '--tool-retry', '0', ...args], { cwd: shared.ws.dir });
    };

    it('warns by default about a status the operation does not declare, and exits as before', async () => {
      const r = await run(['--workflow', 'fetchPet'], WRONG_STATUS);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('warning: step "getPet": response status 202 is not declared (declared: 200, 404) — GET /pets/{id}');
      expect(recordOf(r).steps.map((s) => s.stepId)).toEqual(['getPet', 'other', 'cleanup']);
    });

    it('warns about a content type the response does not declare', async () => {
      const r = await run(['--workflow', 'fetchPet', '--checks', 'warn'], WRONG_TYPE);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('warning: step "getPet": response content type text/html is not declared (declared: application/json) — GET /pets/{id} 200');
    });

    it('warns about a body its schema rejects, with the pointer and keyword, never the value', async () => {
      const r = await run(['--workflow', 'fetchPet'], WRONG_BODY);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('warning: step "getPet": response body /id must be integer (type) — GET /pets/{id} 200 application/json');
      expect(r.stderr).not.toContain('seven');
      expect(r.stderr).not.toContain('hunter2');
      // `tag: null` is what nullable (3.0) and type [string, null] (3.1) allow; the writeOnly password is not required.
      expect(r.stderr.match(/warning: step/g)).toHaveLength(1);
    });

    it('says nothing about a response that matches, or about undeclared content on a response that declares none', async () => {
      const r = await run(['--workflow', 'fetchPet', '--checks', 'fail'], { ...RIGHT, 'GET /other': { body: { anything: true } } });
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain("warning: step");
    });

    it('checks nothing with --checks off', async () => {
      for (const answer of [WRONG_STATUS, WRONG_TYPE, WRONG_BODY]) {
        const r = await run(['--workflow', 'fetchPet', '--checks', 'off'], answer);
        expect(r.code).toBe(0);
        expect(r.stderr).not.toContain("warning: step");
        expect(r.stderr).not.toContain('declared');
      }
    });

    it('fails the step on each kind of mismatch with --checks fail, naming it', async () => {
      const wanted: Array<[Routes, string]> = [
        [WRONG_STATUS, 'response status 202 is not declared (declared: 200, 404) — GET /pets/{id}'],
        [WRONG_TYPE, 'response content type text/html is not declared (declared: application/json) — GET /pets/{id} 200'],
        [WRONG_BODY, 'response body /id must be integer (type) — GET /pets/{id} 200 application/json'],
      ];
      for (const [answer, mismatch] of wanted) {
        const r = await run(['--workflow', 'fetchPet', '--checks', 'fail'], answer);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`error: workflow "fetchPet" failed at step "getPet": ${mismatch}`);
        expect(r.stderr).toContain(`✗ check: ${mismatch}`);
        expect(r.stderr).not.toContain('warning: step "getPet"');
        expect(recordOf(r).steps.map((s) => s.stepId)).toEqual(['getPet']);
      }
    });

    it('lets a failure under --checks fail take the onFailure chain', async () => {
      const r = await run(['--workflow', 'fetchOrCleanUp', '--checks', 'fail'], WRONG_BODY);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('→ goto cleanup (action "tidy")');
      const steps = recordOf(r).steps;
      expect(steps.map((s) => s.stepId)).toEqual(['getPet', 'cleanup']);
      expect(steps[0]).toMatchObject({ status: 200, failedVia: 'on-failure-goto' });
      expect(shared.server.count('GET /other')).toBe(0);
      // warn does not change the path.
      const warned = await run(['--workflow', 'fetchOrCleanUp'], WRONG_BODY);
      expect(recordOf(warned).steps.map((s) => s.stepId)).toEqual(['getPet', 'other', 'cleanup']);
    });

    it('lists five mismatches of a response, then how many more', async () => {
      const r = await run(['--workflow', 'listPets'], { 'GET /pets': { body: [{}, {}, {}, {}, {}, {}, {}] } });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`warning: step "list": response body /0 must have required property 'id' (required) — GET /pets 200 application/json`);
      expect(r.stderr.match(/warning: step "list": response body/g)).toHaveLength(5);
      expect(r.stderr).toContain('warning: step "list": and 9 more mismatches — GET /pets 200 application/json');
      const whole = await run(['--workflow', 'fetchPet'], routes({ status: 200, body: [1, 2] }));
      expect(whole.stderr).toContain('warning: step "getPet": response body must be object (type) — GET /pets/{id} 200 application/json');
    });

    it('prints the warnings with --quiet too, without the progress lines', async () => {
      const r = await run(['--workflow', 'fetchPet', '--quiet'], WRONG_BODY);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('warning: step "getPet": response body /id must be integer (type) — GET /pets/{id} 200 application/json');
      expect(r.stderr).not.toContain('✓');
    });

    it('checks nothing in a dry run', async () => {
      const r = await run(['--workflow', 'fetchPet', '--dry-run', '--checks', 'fail'], WRONG_BODY);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('declared');
      expect(shared.server.hits).toHaveLength(0);
    });

    it('keeps the results in --report, --har and --junit', async () => {
      const warned = await run(['--workflow', 'fetchPet', '--report', 'checks.json', '--har', 'checks.har', '--junit', 'checks.xml'], WRONG_BODY);
      expect(warned.code).toBe(0);
      const read = (name: string) => readFileSync(join(shared.ws.dir, name), 'utf8');
      const report = JSON.parse(read('checks.json')) as { steps: Array<{ stepId: string; ok: boolean; checks?: { mode: string; against: string; mismatches: Array<Record<string, unknown>>; more: number } }> };
      expect(report.steps[0]!.checks).toEqual({
        mode: 'warn',
        against: 'GET /pets/{id} 200 application/json',
        mismatches: [{ check: 'schema', pointer: '/id', keyword: 'type', message: 'response body /id must be integer (type)', line: 'response body /id must be integer (type) — GET /pets/{id} 200 application/json' }],
        more: 0,
      });
      expect(report.steps[0]!.ok).toBe(true);
      const har = JSON.parse(read('checks.har')) as { log: { entries: Array<{ comment?: string }> } };
      expect(har.log.entries[0]!.comment).toBe('check warning: response body /id must be integer (type) — GET /pets/{id} 200 application/json');
      expect(har.log.entries[1]!.comment).toBeUndefined();
      expect(read('checks.xml')).toContain('<system-out>warning: response body /id must be integer (type) — GET /pets/{id} 200 application/json</system-out>');

      const failed = await run(['--workflow', 'fetchPet', '--checks', 'fail', '--report', 'checks.json', '--junit', 'checks.xml'], WRONG_STATUS);
      expect(failed.code).toBe(1);
      const failedReport = JSON.parse(read('checks.json')) as { steps: Array<{ ok: boolean; reason?: string; checks?: { mode: string; mismatches: Array<{ check: string }> } }> };
      expect(failedReport.steps[0]).toMatchObject({ ok: false, reason: 'response status 202 is not declared (declared: 200, 404) — GET /pets/{id}', checks: { mode: 'fail', mismatches: [{ check: 'status' }] } });
      expect(read('checks.xml')).toContain('<failure message="response status 202 is not declared (declared: 200, 404) — GET /pets/{id}" type="STEP_FAILED">');
    });
  });
}

describe('the --checks flag', () => {
  const prepare = (answer: Routes) => {
    shared.ws.fixture('checks-30.openapi.yaml', { BASE_URL: shared.server.url });
    return shared.prepare('checks.arazzo.yaml', answer, { SPEC: 'checks-30.openapi.yaml' });
  };

  it('refuses a value other than off, warn and fail (exit 2), sending nothing', async () => {
    const file = prepare(WRONG_BODY);
    const r = await runInWorkspace(['arazzo', 'run', file, '--workflow', 'fetchPet', '--checks', 'strict'], { cwd: shared.ws.dir });
    expect(r.code).toBe(2);
    expect(shared.server.hits).toHaveLength(0);
  });

  it('applies to arazzo replay: the recorded responses are checked again', async () => {
    const file = prepare(WRONG_BODY);
    const recorded = await runInWorkspace(['arazzo', 'run', file, '--workflow', 'fetchPet', '--checks', 'off', '--har', 'recorded.har'], { cwd: shared.ws.dir });
    expect(recorded.code).toBe(0);
    const replayed = await runInWorkspace(['arazzo', 'replay', file, '--workflow', 'fetchPet', '--from', 'recorded.har', '--checks', 'fail'], { cwd: shared.ws.dir });
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain('error: workflow "fetchPet" failed at step "getPet": response body /id must be integer (type) — GET /pets/{id} 200 application/json');
  });

  it('notes a body over 1 MiB as not checked against its schema, and still checks its status', async () => {
    const file = prepare(routes({ status: 200, body: { id: 7, name: 'x'.repeat(1024 * 1024 + 10) } }));
    const r = await runInWorkspace(['arazzo', 'run', file, '--workflow', 'fetchPet', '--checks', 'fail'], { cwd: shared.ws.dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/note: step "getPet": response body not checked against its schema: \d+ bytes is over the 1 MiB limit — GET \/pets\/\{id\} 200 application\/json/);
  });
});
