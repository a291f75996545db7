/**
 * The `--junit` file: JUnit XML as CI servers read it. The workflow is a `<testsuite>`, each step
 * run a `<testcase>`, a failed step run a `<failure>` whose text is the explanation stderr gives
 * it; a failure no step run explains (the step budget, Ctrl-C) gets a testcase of the workflow's.
 * Pure: text in, XML text out, every value escaped and stripped of what XML 1.0 cannot carry.
 */
import type { RunFailure } from '../../../machines/types.js';
import type { KnownSecrets } from '../../output/redact.js';
import { xmlAttr as attr, xmlText as text } from '../../output/xml-text.js';
import type { StepRun } from './capture-runs.js';
import { errorView, failureView, type RunSummary } from './run-report.js';

interface TestCase {
  name: string;
  time: number;
  /** `failure` for a failed step, `error` for an interrupted run, `skipped` for a dry run. */
  outcome?: { kind: 'failure' | 'error' | 'skipped'; type?: string; message: string; text?: string };
  out?: string;
}

/** The JUnit XML of one run. */
export function buildJunit(summary: RunSummary, steps: readonly StepRun[], known: KnownSecrets): string {
  const seen = new Map<string, number>();
  // Only the step run that failed the run is a <failure>; a failure the run absorbed (a retry that
  // then passed, an onFailure goto or end) is the step's output, so a run that passed is green.
  const failing = summary.failure !== undefined && explainedByStep(summary.failure, steps) ? steps.findLastIndex((step) => step.stepId === summary.failure!.stepId) : -1;
  const cases: TestCase[] = steps.map((step, index) => {
    const n = (seen.get(step.stepId) ?? 0) + 1;
    seen.set(step.stepId, n);
    const testCase: TestCase = { name: n === 1 ? step.stepId : `${step.stepId} #${n}`, time: (step.durationMs ?? 0) / 1000 };
    const actions = step.actions.map((action) => action.line);
    if (step.dryRun) testCase.outcome = { kind: 'skipped', message: 'dry run: nothing was sent' };
    else if (!step.ok) {
      const reason = step.reason ?? (step.status === 0 ? 'the step did not run to a response' : `HTTP ${step.status}`);
      const text = [reason, ...(step.explanation ?? []), ...actions.map((line) => `  ${line}`)].join('\n');
      if (index === failing) testCase.outcome = { kind: 'failure', type: 'STEP_FAILED', message: reason, text };
      else testCase.out = `failed, and the run went on (an Arazzo action absorbed it): ${text}`;
    } else if (actions.length > 0) testCase.out = actions.join('\n');
    // --checks warn: the mismatches are the step's output, not its failure (fail: they are in the failure's text).
    const checks = step.checks;
    if (checks?.mode === 'warn' && checks.mismatches.length > 0) {
      const lines = [...checks.mismatches.map((mismatch) => `warning: ${mismatch.line}`), ...(checks.more > 0 ? [`warning: and ${checks.more} more — ${checks.against}`] : [])];
      testCase.out = [...(testCase.out === undefined ? [] : [testCase.out]), ...lines].join('\n');
    }
    return testCase;
  });
  const workflowCase = unexplained(summary, steps, known);
  if (workflowCase) cases.push(workflowCase);

  const count = (kind: string) => cases.filter((c) => c.outcome?.kind === kind).length;
  const time = seconds(summary.durationMs / 1000);
  const totals = `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`tool arazzo ${summary.command}`)}" ${totals}>`,
    `  <testsuite name="${attr(summary.workflowId === '' ? summary.document : summary.workflowId)}" ${totals} timestamp="${new Date(summary.startedAt).toISOString()}" file="${attr(summary.document)}">`,
    '    <properties>',
    `      <property name="document" value="${attr(summary.document)}"/>`,
    `      <property name="runner" value="${attr(summary.runner)}"/>`,
    `      <property name="status" value="${summary.status}"/>`,
    ...(summary.replayOf === undefined ? [] : [`      <property name="replayOf" value="${attr(summary.replayOf)}"/>`]),
    '    </properties>',
    ...cases.flatMap((c) => caseLines(c, summary.workflowId === '' ? summary.document : summary.workflowId)),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function caseLines(c: TestCase, classname: string): string[] {
  const open = `    <testcase name="${attr(c.name)}" classname="${attr(classname)}" time="${seconds(c.time)}"`;
  if (c.outcome === undefined && c.out === undefined) return [`${open}/>`];
  const lines = [`${open}>`];
  const o = c.outcome;
  if (o !== undefined) {
    const type = o.type === undefined ? '' : ` type="${attr(o.type)}"`;
    lines.push(o.text === undefined ? `      <${o.kind} message="${attr(o.message)}"${type}/>` : `      <${o.kind} message="${attr(o.message)}"${type}>${text(o.text)}</${o.kind}>`);
  }
  if (c.out !== undefined) lines.push(`      <system-out>${text(c.out)}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

/** The testcase of a failure that no failed step run shows (the budget, an unsupported step, broken action criteria, a crash, Ctrl-C), if any. */
function unexplained(summary: RunSummary, steps: readonly StepRun[], known: KnownSecrets): TestCase | undefined {
  const name = `workflow ${summary.workflowId === '' ? summary.document : summary.workflowId}`;
  const time = summary.durationMs / 1000;
  if (summary.error !== undefined) {
    // A run that stopped before its first request: the error stderr printed, with an invalid document's findings.
    const view = errorView(summary.error, known);
    const findings = (view.findings ?? []).map((f) => `${f.file}${f.line === undefined ? '' : `:${f.line}:${f.col ?? 1}`}: ${f.severity} ${f.code}: ${f.message}`);
    const text = [view.message, ...(view.hint === undefined ? [] : [view.hint]), ...findings].join('\n');
    return { name, time, outcome: { kind: 'error', type: view.code, message: view.message, text } };
  }
  if (summary.status === 'interrupted') return { name, time, outcome: { kind: 'error', type: 'INTERRUPTED', message: 'interrupted: the run was stopped (Ctrl-C or a signal); nothing more was sent' } };
  const failure = summary.failure;
  if (failure === undefined || explainedByStep(failure, steps)) return undefined;
  const view = failureView(failure, known);
  return { name, time, outcome: { kind: 'failure', type: view.code, message: view.message, text: view.message } };
}

function explainedByStep(failure: RunFailure, steps: readonly StepRun[]): boolean {
  if (failure.crashed || failure.stepId === undefined) return false;
  const byStep = failure.code === 'END_ACTION' || failure.code === 'RETRIES_EXHAUSTED' || (failure.code === 'STEP_FAILED' && failure.action === undefined);
  const last = steps.findLast((step) => step.stepId === failure.stepId);
  return byStep && last !== undefined && !last.ok && last.reason !== undefined;
}

function seconds(value: number): string {
  return (Math.round(value * 1000) / 1000).toFixed(3);
}
