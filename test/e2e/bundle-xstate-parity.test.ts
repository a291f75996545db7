/**
 * A differential test of the XState patches in scripts/bundle.js (plugins `xstateTransitions` and
 * `xstateStateNodes`: each transition's domain kept on the transition, a node's candidate
 * transitions in a Map by event type, `getStateNodeById('#id.key')` reading the child directly,
 * memoised values on the node, `machine.events` a lazy getter). Only the bundle that the real
 * binary loads has them; the in-process runner of test/cli (runCli through ts-jest) uses the stock
 * xstate of node_modules. Each scenario runs the same document twice, once through each, against
 * scripted servers that answer alike, and the two runs must agree exactly: exit code, the run
 * record on stdout, stderr (step durations aside), the requests the server received, and every
 * line of the `--trace` (its `t` and a request's `durationMs` aside; the server's port, which the
 * OS picks per server, reads `{{BASE_URL}}` everywhere). The trace's `state` lines are XState's
 * microsteps (`state`, `from`, `event`, the transition's named actions), its `action` lines the
 * `meta` of the transitions taken, and the counters on every line (`runs`, `retries`) come from
 * entry actions, so a transition that picked another candidate, another target or another
 * domain (a step's entry run again, or not) shows up as a different line.
 *
 * The scenarios exercise what the patches touch: gotos to the same step (a re-entering
 * transition whose source is its target), to an earlier and to a later step, `end`, chains with
 * criteria on both sides, retries (compound steps: `calling` → `backoff` → `calling` inside the
 * step, a goto from outside resetting the retry counter), a retry at its limit, a failure no
 * action handles, the step budget (a root-level transition), and with `--tool-runner v2` nested
 * workflows (child machines; `#workflow.sN_x.invoking` targets, three segments, take XState's
 * general lookup), transfers (`invoking` → `invoking_1`, re-entering), retries with a `stepId` or
 * `workflowId`, a retry falling through to the next action, and a budget spent inside a call.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInWorkspace } from '../cli/run-in-workspace.js';
import { ensureBuilt, REPO_ROOT } from './helpers/build.js';
import { runTool } from './helpers/run-tool.js';
import { startScriptedServer, type Hit, type Routes } from './helpers/scripted-server.js';
import { fillTemplate, makeWorkspace, RUN_FIXTURES, type Workspace } from './helpers/workspace.js';

const V1_DOC = `arazzo: 1.0.1
info: { title: bundle parity (v1), version: 1.0.0 }
sourceDescriptions:
  - { name: api, url: ./api.openapi.yaml, type: openapi }
workflows:
  - workflowId: loops
    steps:
      - stepId: init
        operationId: getA
      - stepId: poll
        operationId: getItem
        parameters:
          - { name: id, in: path, value: poll }
        onSuccess:
          - { name: stillPending, type: goto, stepId: poll, criteria: [{ condition: "$response.body#/state == 'pending'" }] }
      - stepId: check
        operationId: getB
        onSuccess:
          - { name: again, type: goto, stepId: init, criteria: [{ condition: $response.body#/again == true }] }
      - stepId: skipper
        operationId: getC
        onSuccess:
          - { name: skipAhead, type: goto, stepId: last }
      - stepId: skipped
        operationId: getD
      - stepId: last
        operationId: cleanup
        outputs: { n: $response.body#/n }
    outputs:
      n: $steps.last.outputs.n

  - workflowId: chains
    steps:
      - stepId: probe
        operationId: getA
        successCriteria:
          - condition: $statusCode == 200
        onSuccess:
          - { name: doneEarly, type: end, criteria: [{ condition: $response.body#/done == true }] }
          - { name: toFinish, type: goto, stepId: finish, criteria: [{ condition: $response.body#/skip == true }] }
        onFailure:
          - { name: missing, type: goto, stepId: recover, criteria: [{ condition: $statusCode == 404 }] }
          - { name: conflict, type: end, criteria: [{ condition: $statusCode == 409 }] }
        outputs: { done: $response.body#/done }
      - stepId: middle
        operationId: getB
      - stepId: recover
        operationId: getC
      - stepId: finish
        operationId: getD
        outputs: { d: $response.body#/d }
    outputs:
      done: $steps.probe.outputs.done
      d: $steps.finish.outputs.d

  - workflowId: retries
    steps:
      - stepId: flaky
        operationId: getA
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: busy, type: retry, retryAfter: 0, retryLimit: 3, criteria: [{ condition: $statusCode == 503 }] }
        outputs: { attempt: $response.body#/attempt }
      - stepId: second
        operationId: getB
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: busyToo, type: retry, retryAfter: 0, retryLimit: 2 }
      - stepId: loopBack
        operationId: getC
        onSuccess:
          - { name: oneMore, type: goto, stepId: flaky, criteria: [{ condition: $response.body#/again == true }] }
    outputs:
      attempt: $steps.flaky.outputs.attempt

  - workflowId: budget
    steps:
      - stepId: ping
        operationId: getA
        onSuccess:
          - { name: toPong, type: goto, stepId: pong }
      - stepId: pong
        operationId: getB
        onSuccess:
          - { name: toPing, type: goto, stepId: ping }
`;

const V2_DOC = `arazzo: 1.0.1
info: { title: bundle parity (v2), version: 1.0.0 }
sourceDescriptions:
  - { name: api, url: ./api.openapi.yaml, type: openapi }
workflows:
  - workflowId: main
    steps:
      - stepId: first
        operationId: getA
        outputs: { id: $response.body#/id }
      - stepId: callChild
        workflowId: child
        parameters:
          - { name: itemId, value: $steps.first.outputs.id }
        outputs: { status: $outputs.status }
      - stepId: after
        operationId: getC
        onSuccess:
          - { name: callAgain, type: goto, stepId: callChild, criteria: [{ condition: $response.body#/again == true }] }
    outputs:
      status: $steps.callChild.outputs.status
      itemId: $workflows.child.inputs.itemId
  - workflowId: child
    steps:
      - stepId: fetch
        operationId: getItem
        parameters:
          - { name: id, in: path, value: $inputs.itemId }
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: busy, type: retry, retryAfter: 0, retryLimit: 2, criteria: [{ condition: $statusCode == 503 }] }
        outputs: { status: $response.body#/status }
      - stepId: poll
        operationId: getB
        onSuccess:
          - { name: pending, type: goto, stepId: poll, criteria: [{ condition: "$response.body#/state == 'pending'" }] }
    outputs:
      status: $steps.fetch.outputs.status

  - workflowId: absorbs
    steps:
      - stepId: callFailing
        workflowId: exhausts
        onFailure:
          - { name: recover, type: goto, stepId: recover }
      - stepId: skipped
        operationId: getC
      - stepId: recover
        operationId: getD
  - workflowId: exhausts
    steps:
      - stepId: breaks
        operationId: getB
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: again, type: retry, retryAfter: 0, retryLimit: 2 }

  - workflowId: transfers
    steps:
      - stepId: first
        operationId: getA
        onSuccess:
          - { name: moveOn, type: goto, workflowId: target }
      - stepId: never
        operationId: getB
  - workflowId: transfersOnFailure
    steps:
      - stepId: breaks
        operationId: getB
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: rescue, type: goto, workflowId: target }
  - workflowId: target
    steps:
      - stepId: last
        operationId: getC
        outputs: { c: $response.body#/c }
    outputs:
      c: $steps.last.outputs.c
  - workflowId: nestedTransfer
    steps:
      - stepId: callTransfers
        workflowId: transfers
        outputs: { c: $outputs.c }
      - stepId: after
        operationId: getD
    outputs:
      c: $steps.callTransfers.outputs.c

  - workflowId: retryStep
    steps:
      - stepId: refresh
        operationId: getD
      - stepId: flaky
        operationId: getA
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: refreshFirst, type: retry, stepId: refresh, retryAfter: 0, retryLimit: 2, criteria: [{ condition: $statusCode == 409 }] }
  - workflowId: retryWorkflow
    steps:
      - stepId: flaky
        operationId: getA
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: loginFirst, type: retry, workflowId: login, retryAfter: 0, retryLimit: 2, criteria: [{ condition: $statusCode == 401 }] }
  - workflowId: login
    steps:
      - stepId: doLogin
        operationId: getD
  - workflowId: fallThrough
    steps:
      - stepId: flaky
        operationId: getA
        successCriteria:
          - condition: $statusCode == 200
        onFailure:
          - { name: again, type: retry, retryAfter: 0, retryLimit: 1, criteria: [{ condition: $statusCode == 503 }] }
          - { name: giveUp, type: goto, stepId: cleanup, criteria: [{ condition: $statusCode == 503 }] }
      - stepId: skipped
        operationId: getB
      - stepId: cleanup
        operationId: cleanup
`;

const DOCS = { v1: 'parity-v1.arazzo.yaml', v2: 'parity-v2.arazzo.yaml' } as const;

/** `status` on the listed hits of a route (1 is the first), else 200 with `body(n)`. */
const failsOn = (status: number, hits: number[], body: (n: number) => unknown = () => ({})) => (_hit: Hit, n: number) =>
  hits.includes(n) ? { status } : { body: body(n) };

interface Scenario {
  name: string;
  doc: keyof typeof DOCS;
  workflow: string;
  args?: string[];
  routes: Routes;
  /** The exit code (checked on the stock run, which the bundle's must then equal, as everything below). */
  code: number;
  /** `stepId:status[:failedVia]`, nested calls in brackets. */
  trail: string[];
  /** At least this many `state` lines (XState microsteps and first states) in the trace. */
  minStates: number;
  /** Transitions the trace must show, as `from -> state` (v2: `actor: from -> state`). */
  transitions: string[];
}

const SCENARIOS: Scenario[] = [
  {
    name: 'v1: goto to the same step, to an earlier step and to a later one',
    doc: 'v1',
    workflow: 'loops',
    routes: {
      'GET /a': {},
      'GET /items/{id}': (_hit, n) => ({ body: { state: [1, 2, 4].includes(n) ? 'pending' : 'ready' } }),
      'GET /b': (_hit, n) => ({ body: { again: n === 1 } }),
      'GET /c': {},
      'GET /d': {},
      'GET /cleanup': { body: { n: 11 } },
    },
    code: 0,
    trail: ['init:200', 'poll:200', 'poll:200', 'poll:200', 'check:200', 'init:200', 'poll:200', 'poll:200', 'check:200', 'skipper:200', 'last:200'],
    minStates: 12,
    transitions: ['s1_poll -> s1_poll', 's2_check -> s0_init', 's3_skipper -> s5_last', 's5_last -> succeeded'],
  },
  {
    name: 'v1: a success-side end with criteria (exit 0)',
    doc: 'v1',
    workflow: 'chains',
    routes: { 'GET /a': { body: { done: true } }, 'GET /b': {}, 'GET /c': {}, 'GET /d': {} },
    code: 0,
    trail: ['probe:200'],
    minStates: 2,
    transitions: ['s0_probe -> succeeded'],
  },
  {
    name: 'v1: a success-side goto to a later step with criteria (the first action does not match)',
    doc: 'v1',
    workflow: 'chains',
    routes: { 'GET /a': { body: { skip: true } }, 'GET /b': {}, 'GET /c': {}, 'GET /d': { body: { d: 4 } } },
    code: 0,
    trail: ['probe:200', 'finish:200'],
    minStates: 3,
    transitions: ['s0_probe -> s3_finish', 's3_finish -> succeeded'],
  },
  {
    name: 'v1: a failure-side goto with criteria',
    doc: 'v1',
    workflow: 'chains',
    routes: { 'GET /a': { status: 404 }, 'GET /b': {}, 'GET /c': {}, 'GET /d': { body: { d: 5 } } },
    code: 0,
    trail: ['probe:404:on-failure-goto', 'recover:200', 'finish:200'],
    minStates: 4,
    transitions: ['s0_probe -> s2_recover', 's2_recover -> s3_finish'],
  },
  {
    name: 'v1: a failure-side end (the second action of the chain, exit 1)',
    doc: 'v1',
    workflow: 'chains',
    routes: { 'GET /a': { status: 409 }, 'GET /b': {}, 'GET /c': {}, 'GET /d': {} },
    code: 1,
    trail: ['probe:409:on-failure-end'],
    minStates: 2,
    transitions: ['s0_probe -> failed'],
  },
  {
    name: 'v1: a failing step no action matches fails the workflow (exit 1)',
    doc: 'v1',
    workflow: 'chains',
    routes: { 'GET /a': { status: 500 }, 'GET /b': {}, 'GET /c': {}, 'GET /d': {} },
    code: 1,
    trail: ['probe:500'],
    minStates: 2,
    transitions: ['s0_probe -> failed'],
  },
  {
    name: 'v1: retries with retryAfter 0 that succeed, and a goto back that resets the retry counter',
    doc: 'v1',
    workflow: 'retries',
    routes: {
      'GET /a': failsOn(503, [1, 2, 4], (n) => ({ attempt: n })),
      'GET /b': failsOn(500, [1]),
      'GET /c': (_hit, n) => ({ body: { again: n === 1 } }),
    },
    code: 0,
    trail: ['flaky:503', 'flaky:503', 'flaky:200', 'second:500', 'second:200', 'loopBack:200', 'flaky:503', 'flaky:200', 'second:200', 'loopBack:200'],
    minStates: 15,
    transitions: ['s0_flaky.calling -> s0_flaky.backoff', 's0_flaky.backoff -> s0_flaky.calling', 's1_second.calling -> s1_second.backoff', 's2_loopBack -> s0_flaky.calling'],
  },
  {
    name: 'v1: a retry that reaches its limit (exit 1)',
    doc: 'v1',
    workflow: 'retries',
    routes: { 'GET /a': { status: 503 }, 'GET /b': {}, 'GET /c': {} },
    code: 1,
    trail: ['flaky:503', 'flaky:503', 'flaky:503', 'flaky:503'],
    minStates: 8,
    transitions: ['s0_flaky.backoff -> s0_flaky.calling', 's0_flaky.calling -> failed'],
  },
  {
    name: 'v1: a goto loop stopped by --tool-max-steps (exit 1)',
    doc: 'v1',
    workflow: 'budget',
    args: ['--tool-max-steps', '7'],
    routes: { 'GET /a': {}, 'GET /b': {} },
    code: 1,
    trail: ['ping:200', 'pong:200', 'ping:200', 'pong:200', 'ping:200', 'pong:200', 'ping:200'],
    minStates: 8,
    transitions: ['s0_ping -> s1_pong', 's1_pong -> s0_ping', 's1_pong -> failed'],
  },
  {
    name: 'v2: a nested call with a retry and a self-goto inside, made again by a goto',
    doc: 'v2',
    workflow: 'main',
    routes: {
      'GET /a': { body: { id: 7 } },
      'GET /items/{id}': failsOn(503, [1], () => ({ status: 'ready' })),
      'GET /b': (_hit, n) => ({ body: { state: [1, 2, 4].includes(n) ? 'pending' : 'done' } }),
      'GET /c': (_hit, n) => ({ body: { again: n === 1 } }),
    },
    code: 0,
    trail: [
      'main.first:200',
      'main.callChild:0[child.fetch:503 child.fetch:200 child.poll:200 child.poll:200 child.poll:200]',
      'main.after:200',
      'main.callChild:0[child.fetch:200 child.poll:200 child.poll:200]',
      'main.after:200',
    ],
    minStates: 21,
    transitions: [
      'main: s1_callChild.calling -> s1_callChild.invoking',
      'main: s1_callChild.invoking -> s1_callChild.judging',
      'main: s1_callChild -> s2_after',
      'main: s2_after -> s1_callChild.calling',
      'main/callChild/child: s0_fetch.calling -> s0_fetch.backoff',
      'main/callChild/child: s1_poll -> s1_poll',
    ],
  },
  {
    name: 'v2: a nested call whose retry runs out fails the step; the caller\'s onFailure goto absorbs it',
    doc: 'v2',
    workflow: 'absorbs',
    routes: { 'GET /b': { status: 500 }, 'GET /c': {}, 'GET /d': {} },
    code: 0,
    trail: ['absorbs.callFailing:0:on-failure-goto[exhausts.breaks:500 exhausts.breaks:500 exhausts.breaks:500]', 'absorbs.recover:200'],
    minStates: 10,
    transitions: ['absorbs/callFailing/exhausts: s0_breaks.calling -> failed', 'absorbs: s0_callFailing -> s2_recover'],
  },
  {
    name: 'v2: a success-side goto to another workflow (a transfer)',
    doc: 'v2',
    workflow: 'transfers',
    routes: { 'GET /a': {}, 'GET /b': {}, 'GET /c': { body: { c: 3 } } },
    code: 0,
    trail: ['transfers.first:200', 'target.last:200'],
    minStates: 4,
    transitions: ['transfers: s0_first -> transferred'],
  },
  {
    name: 'v2: a failure-side goto to another workflow',
    doc: 'v2',
    workflow: 'transfersOnFailure',
    routes: { 'GET /b': { status: 400 }, 'GET /c': { body: { c: 4 } } },
    code: 0,
    trail: ['transfersOnFailure.breaks:400:on-failure-goto', 'target.last:200'],
    minStates: 4,
    transitions: ['transfersOnFailure: s0_breaks -> transferred'],
  },
  {
    name: 'v2: a transfer inside a nested call (the call moves to invoking_1)',
    doc: 'v2',
    workflow: 'nestedTransfer',
    routes: { 'GET /a': {}, 'GET /c': { body: { c: 5 } }, 'GET /d': {} },
    code: 0,
    trail: ['nestedTransfer.callTransfers:0[transfers.first:200 target.last:200]', 'nestedTransfer.after:200'],
    minStates: 8,
    transitions: ['nestedTransfer: s0_callTransfers.invoking -> s0_callTransfers.invoking_1', 'nestedTransfer: s0_callTransfers.invoking_1 -> s0_callTransfers.judging'],
  },
  {
    name: 'v2: a retry with stepId runs that step, then retries',
    doc: 'v2',
    workflow: 'retryStep',
    routes: { 'GET /d': {}, 'GET /a': failsOn(409, [1, 2]) },
    code: 0,
    trail: ['retryStep.refresh:200', 'retryStep.flaky:409', 'retryStep.refresh:200', 'retryStep.flaky:409', 'retryStep.refresh:200', 'retryStep.flaky:200'],
    minStates: 8,
    transitions: ['retryStep: s1_flaky.backoff -> s1_flaky.calling'],
  },
  {
    name: 'v2: a retry with workflowId that reaches its limit (exit 1)',
    doc: 'v2',
    workflow: 'retryWorkflow',
    routes: { 'GET /a': { status: 401 }, 'GET /d': {} },
    code: 1,
    trail: ['retryWorkflow.flaky:401[login.doLogin:200]', 'retryWorkflow.flaky:401[login.doLogin:200]', 'retryWorkflow.flaky:401'],
    minStates: 8,
    transitions: ['retryWorkflow: s0_flaky.backoff -> s0_flaky.calling'],
  },
  {
    name: 'v2: a retry at its limit goes on to the next action (a goto)',
    doc: 'v2',
    workflow: 'fallThrough',
    routes: { 'GET /a': { status: 503 }, 'GET /b': {}, 'GET /cleanup': {} },
    code: 0,
    trail: ['fallThrough.flaky:503', 'fallThrough.flaky:503:on-failure-goto', 'fallThrough.cleanup:200'],
    minStates: 5,
    transitions: ['fallThrough: s0_flaky.calling -> s2_cleanup'],
  },
  {
    name: 'v2: --tool-max-steps spent inside a nested call (exit 1)',
    doc: 'v2',
    workflow: 'main',
    args: ['--tool-max-steps', '5'],
    routes: {
      'GET /a': { body: { id: 7 } },
      'GET /items/{id}': { body: { status: 'ready' } },
      'GET /b': { body: { state: 'pending' } },
      'GET /c': {},
    },
    code: 1,
    trail: ['main.first:200', 'main.callChild:0[child.fetch:200 child.poll:200 child.poll:200]'],
    minStates: 6,
    transitions: ['main/callChild/child: s1_poll -> s1_poll'],
  },
];

interface Line {
  type: string;
  [field: string]: unknown;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The trace, each line without what differs between any two runs. */
  trace: Line[];
  /** What the server received, in order. */
  requests: string[];
}

type Settled = { outcome: Outcome } | { error: unknown };

interface RecordStep {
  stepId: string;
  status: number;
  workflowId?: string;
  failedVia?: string;
  steps?: RecordStep[];
}

/** Where a run's own server is, as `{{BASE_URL}}`: each run has a server of its own, on a port the OS picked. */
function withoutPort(text: string, url: string): string {
  return text.split(url).join('{{BASE_URL}}');
}

/** `t` is a clock reading and a request's `durationMs` is measured: they go. Nothing else is taken out. */
function comparable(trace: string): Line[] {
  return trace
    .trimEnd()
    .split('\n')
    .map((text) => {
      const { t, ...line } = JSON.parse(text) as Line & { t?: unknown };
      if (typeof t !== 'number') throw new Error(`a trace line without its clock reading: ${text}`);
      if (line.type === 'step' && 'durationMs' in line) {
        if (typeof line.durationMs !== 'number') throw new Error(`a step line whose durationMs is not a number: ${text}`);
        delete line.durationMs;
      }
      return line;
    });
}

/** A step's progress line ends its request with the duration (`… 200 1.3ms`, docs/run.md#stderr): that number only. */
function stderrComparable(stderr: string): string {
  return stderr.replace(/^([✓✗] \S+ [A-Z]+ \S+ \d{3}) \d+(?:\.\d+)?m?s\b/gmu, '$1 <duration>');
}

/** `stepId:status[:failedVia]` (v2: `workflowId.stepId…`), nested calls in brackets. */
function trailOf(steps: RecordStep[], v2: boolean): string[] {
  return steps.map((s) => {
    const own = [v2 ? `${s.workflowId}.${s.stepId}` : s.stepId, s.status, s.failedVia].filter((x) => x !== undefined).join(':');
    return s.steps ? `${own}[${trailOf(s.steps, v2).join(' ')}]` : own;
  });
}

/** `actor: from -> state` of a trace's `state` line (`from -> state` in v1). */
function transitionOf(line: Line): string {
  return `${line.actor === undefined ? '' : `${String(line.actor)}: `}${String(line.from)} -> ${String(line.state)}`;
}

let ws: Workspace;
/** The chunks of the bundle that hold XState, as built. */
let bundledXState = '';
const outcomes = { bundle: new Map<Scenario, Settled>(), stock: new Map<Scenario, Settled>() };

/**
 * Runs one scenario through `runner` in a folder of its own, against a server of its own (so runs
 * can overlap): the binary, or runCli in this process. Each runner keeps one config/cache home
 * for all its runs (the bundle's code cache stays warm), apart from the other's.
 */
async function runOnce(scenario: Scenario, index: number, runner: 'bundle' | 'stock'): Promise<Outcome> {
  const server = await startScriptedServer(scenario.routes);
  try {
    const dir = join(ws.dir, `${runner}-${index}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'api.openapi.yaml'), fillTemplate(readFileSync(join(RUN_FIXTURES, 'api.openapi.yaml'), 'utf8'), { BASE_URL: server.url }));
    writeFileSync(join(dir, DOCS[scenario.doc]), scenario.doc === 'v1' ? V1_DOC : V2_DOC);
    const args = [
      'arazzo', 'run', DOCS[scenario.doc],
      '--workflow', scenario.workflow,
      // No transport retries: a 5xx goes straight to the workflow's actions.
      '--tool-retry', '0',
      ...(scenario.doc === 'v2' ? ['--tool-runner', 'v2'] : []),
      ...(scenario.args ?? []),
      '--trace', 'run.ndjson',
    ];
    const options = { cwd: dir, home: join(ws.dir, `home-${runner}`), timeoutMs: 30_000 };
    const result = runner === 'bundle' ? await runTool(args, options) : await runInWorkspace(args, options);
    return {
      code: result.code,
      stdout: withoutPort(result.stdout, server.url),
      stderr: withoutPort(result.stderr, server.url),
      trace: comparable(withoutPort(readFileSync(join(dir, 'run.ndjson'), 'utf8'), server.url)),
      requests: server.hits.map((hit) => `${hit.method} ${hit.path}`),
    };
  } finally {
    await server.close();
  }
}

/** Runs `fn` on every item, at most `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

beforeAll(async () => {
  await ensureBuilt();
  ws = makeWorkspace('tool-parity-');
  // bin/tool.js runs dist/src/ (and so node_modules' stock XState) when there is no bundle or it is
  // older than dist/src/bin.js: this test would then compare stock XState with itself.
  const bundle = statSync(join(REPO_ROOT, 'dist', 'bundle', 'tool.js'), { throwIfNoEntry: false });
  if (bundle === undefined || bundle.mtimeMs < statSync(join(REPO_ROOT, 'dist', 'src', 'bin.js')).mtimeMs) {
    throw new Error('dist/bundle/ is missing or older than dist/src/bin.js, so bin/tool.js would not load it (`npm run build` says why)');
  }
  const chunks = join(REPO_ROOT, 'dist', 'bundle', 'chunks');
  bundledXState = readdirSync(chunks)
    .map((name) => readFileSync(join(chunks, name), 'utf8'))
    .filter((text) => text.includes('getStateNodeById'))
    .join('\n');
  const settle = (run: Promise<Outcome>): Promise<Settled> => run.then((outcome) => ({ outcome }), (error: unknown) => ({ error }));
  // The binaries run side by side (each is a process of its own); runCli one run at a time, as it
  // shares this process's modules; both queues at once.
  await Promise.all([
    inPool(SCENARIOS, 2, async (s, i) => void outcomes.bundle.set(s, await settle(runOnce(s, i, 'bundle')))),
    inPool(SCENARIOS, 1, async (s, i) => void outcomes.stock.set(s, await settle(runOnce(s, i, 'stock')))),
  ]);
}, 180_000);

afterAll(() => {
  ws?.remove();
});

function outcomeOf(runner: 'bundle' | 'stock', scenario: Scenario): Outcome {
  const settled = outcomes[runner].get(scenario);
  if (settled === undefined) throw new Error(`the ${runner} run of "${scenario.name}" never ran`);
  if ('error' in settled) throw settled.error;
  return settled.outcome;
}

describe('the bundle (patched XState) runs every chart exactly as stock XState does', () => {
  it('spawns the bundle, built from the current sources, with every XState patch in it; in-process XState has none', () => {
    // bin/tool.js loads dist/bundle/tool.js only when it is at least as new as dist/src/bin.js.
    const bundle = statSync(join(REPO_ROOT, 'dist', 'bundle', 'tool.js'));
    expect(bundle.mtimeMs).toBeGreaterThanOrEqual(statSync(join(REPO_ROOT, 'dist', 'src', 'bin.js')).mtimeMs);
    const patches = {
      domainKeptOnTransition: /Symbol\(["']domain["']\)/,
      domainNotKeptForHistoryTargets: /some\(isHistoryNode\)/,
      candidatesByEventType: /function candidatesFor\(/,
      directChildLookup: /stateId\.charCodeAt\(0\) === 35/,
      memoOnNode: /Symbol\(["']memo["']\)/,
      lazyMachineEvents: /get events\(\) \{\s*return this\.root\.events;/,
      sharedTransitionToJSON: /function transitionToJSON\(/,
    };
    for (const [name, pattern] of Object.entries(patches)) expect({ [name]: pattern.test(bundledXState) }).toEqual({ [name]: true });
    const xstateDist = join(REPO_ROOT, 'node_modules', 'xstate', 'dist');
    const stock = readdirSync(xstateDist)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(xstateDist, name), 'utf8'))
      .join('\n');
    expect(stock).toContain('getStateNodeById');
    for (const pattern of [patches.domainKeptOnTransition, patches.candidatesByEventType, patches.directChildLookup, patches.memoOnNode]) expect(stock).not.toMatch(pattern);
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', (_name, scenario) => {
    const stock = outcomeOf('stock', scenario);
    const bundled = outcomeOf('bundle', scenario);

    // Under stock XState the scenario does what it is meant to exercise, so that agreeing is not agreeing on nothing.
    expect(stock.code).toBe(scenario.code);
    const record = JSON.parse(stock.stdout) as { workflowId: string; steps: RecordStep[] };
    expect(trailOf(record.steps, scenario.doc === 'v2')).toEqual(scenario.trail);
    const states = stock.trace.filter((line) => line.type === 'state');
    expect(states.length).toBeGreaterThanOrEqual(scenario.minStates);
    const seen = new Set(states.map(transitionOf));
    for (const transition of scenario.transitions) expect({ transition, seen: seen.has(transition) }).toEqual({ transition, seen: true });
    expect(stock.trace[0]).toMatchObject({ type: 'start' });
    expect(stock.trace.at(-1)).toMatchObject({ type: 'end', status: scenario.code === 0 ? 'succeeded' : 'failed' });
    expect(stock.requests.length).toBeGreaterThan(0);

    // The bundle agrees on everything but clock readings and the port of its server: first the
    // transitions, exit code and requests (the shortest diff), then every byte of stdout, every
    // field of every trace line, and stderr.
    const summary = (o: Outcome) => ({ transitions: o.trace.filter((line) => line.type === 'state').map(transitionOf), code: o.code, requests: o.requests });
    expect(summary(bundled)).toEqual(summary(stock));
    expect(bundled.stdout).toBe(stock.stdout);
    expect(bundled.trace).toEqual(stock.trace);
    expect(stderrComparable(bundled.stderr)).toBe(stderrComparable(stock.stderr));
  });
});
