import type { Writable } from 'node:stream';
import type { Finding } from '../arazzo/finding.js';
import { formatFinding } from '../arazzo/format-finding.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import type { ActionOrReference, ArazzoDocument, LoadedDocument, Workflow } from '../arazzo/model.js';
import { isReference } from '../arazzo/model.js';
import { CommandUsageError, ToolError } from '../errors/tool-error.js';
import type { Style } from '../output/style.js';

const IN_WORKFLOW = /^\/workflows\/(\d+)(?:\/|$)/;

/**
 * Findings as a run of `selected` (a workflowId, or undefined for "the only one") sees them.
 * An error inside a workflow the run cannot reach (not the selected one, nor one it names through
 * a step's or an action's workflowId or through dependsOn) does not block it: it becomes a warning
 * that says so; a warning there is not shown (it says nothing about this run). SOURCE_NOT_CHECKED is dropped: the run reads every source itself, and stops on one
 * it cannot read. With several workflows and none selected, every workflow counts as reachable.
 */
export function runnerFindings(findings: Finding[], doc: ArazzoDocument, selected?: string): Finding[] {
  const reachable = reachableWorkflows(doc, selected);
  return findings.flatMap((f) => {
    if (f.code === 'SOURCE_NOT_CHECKED') return [];
    const index = IN_WORKFLOW.exec(f.pointer)?.[1];
    if (index === undefined || reachable.has(Number(index)) || f.code === 'DUPLICATE_WORKFLOW_ID') return [f];
    // A warning about a workflow this run does not reach says nothing about this run (validate shows it).
    if (f.severity !== 'error') return [];
    const id = doc.workflows[Number(index)]?.workflowId ?? '';
    return [{ ...f, severity: 'warning' as const, message: `${f.message} (in workflow "${id}", which this run does not reach)` }];
  });
}

/** Indexes of the workflows a run of `selected` can reach; all of them when it cannot be told which runs. */
export function reachableWorkflows(doc: ArazzoDocument, selected?: string): Set<number> {
  const all = new Set(doc.workflows.keys());
  const start = selected === undefined ? (doc.workflows.length === 1 ? 0 : -1) : doc.workflows.findIndex((w) => w.workflowId === selected);
  if (start === -1) return all;
  const reached = new Set<number>();
  const pending = [start];
  for (let index = pending.pop(); index !== undefined; index = pending.pop()) {
    if (reached.has(index)) continue;
    reached.add(index);
    for (const id of namedWorkflows(doc, doc.workflows[index]!)) {
      doc.workflows.forEach((w, i) => {
        if (w.workflowId === id && !reached.has(i)) pending.push(i);
      });
    }
  }
  return reached;
}

// Every workflowId a workflow names: dependsOn, nested workflow steps, and action targets (also through references).
function namedWorkflows(doc: ArazzoDocument, workflow: Workflow): string[] {
  const ids = [...workflow.dependsOn];
  const actionTargets = (chain: ActionOrReference[] | undefined) => {
    for (const entry of chain ?? []) {
      const action = isReference(entry) ? componentAction(doc, entry.reference) : entry;
      if (action?.workflowId !== undefined) ids.push(action.workflowId);
    }
  };
  actionTargets(workflow.successActions);
  actionTargets(workflow.failureActions);
  for (const step of workflow.steps) {
    if (step.workflowId !== undefined) ids.push(step.workflowId);
    actionTargets(step.onSuccess);
    actionTargets(step.onFailure);
  }
  return ids;
}

function componentAction(doc: ArazzoDocument, reference: string) {
  const match = /^\$components\.(successActions|failureActions)\.(.+)$/.exec(reference);
  const section = match ? doc.components?.[match[1] as 'successActions' | 'failureActions'] : undefined;
  return section && Object.hasOwn(section, match![2]!) ? section[match![2]!] : undefined;
}

/**
 * Prints validation findings on stderr (warnings only with `showWarnings`), as a run of the
 * `selected` workflow sees them (see runnerFindings); returns false when any blocks the run.
 * `consequence` ends the error line ("nothing was sent").
 */
export function reportFindings(findings: Finding[], doc: LoadedDocument, stderr: Writable, style: Style, consequence: string, showWarnings = true, selected?: string, validateFlags: readonly string[] = []): boolean {
  const shown = runnerFindings(findings, doc.model, selected);
  const errors = shown.filter((f) => f.severity === 'error');
  for (const finding of showWarnings ? shown : errors) stderr.write(`${formatFinding(finding, doc.file, style)}\n`);
  if (errors.length > 0) {
    stderr.write(
      `${style.red('error:')} ${doc.file} is not a valid workflow document (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}); ${consequence}.\n` +
        `  Run \`${['tool', 'arazzo', 'validate', doc.file, ...validateFlags].map(shellWord).join(' ')}\` for details.\n`,
    );
    return false;
  }
  return true;
}

/** The workflow to run: the one named by --workflow, or the only one. Throws a usage error listing the ids otherwise. */
export function selectWorkflow(doc: LoadedDocument, workflowId: string | undefined): Workflow {
  const workflows = doc.model.workflows;
  const ids = workflows.map((w) => w.workflowId ?? '?').join(', ');
  if (workflowId !== undefined) {
    const found = workflows.find((w) => w.workflowId === workflowId);
    if (!found) throw new CommandUsageError(`${doc.file} has no workflow "${workflowId}"`, `Its workflows: ${ids}`);
    return found;
  }
  if (workflows.length === 1) return workflows[0]!;
  throw new CommandUsageError(`${doc.file} has ${workflows.length} workflows; choose one with --workflow <id>`, `Its workflows: ${ids}`);
}

/**
 * Throws (exit 1, before any request) when the workflow declares dependsOn in a run whose profile
 * does not run dependencies (v1): it runs only the selected workflow, and running it without what
 * it depends on would not be the workflow the document describes.
 */
export function refuseDependencies(doc: LoadedDocument, workflow: Workflow, profile: RunnerProfile): void {
  if (workflow.dependsOn.length === 0) return;
  const position = doc.locate(`${workflow.pointer}/dependsOn`);
  const where = position ? `${doc.file}:${position.line}:${position.col}` : doc.file;
  const names = workflow.dependsOn.map((id) => `"${id}"`).join(', ');
  const first = workflow.dependsOn.find((id) => !id.startsWith('$')) ?? workflow.dependsOn[0];
  throw new ToolError(
    'DEPENDS_ON_UNSUPPORTED',
    profile.refusals.dependsOn(where, workflow.workflowId ?? '', names),
    `Run the workflows it depends on first (tool arazzo run ${doc.file} --workflow ${first}), then run it without dependsOn.`,
  );
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but safe characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A profile that does not bind refuses any `--tool-bind` flag in its own words (CommandUsageError, exit 2). */
export function refuseBinds(binds: ReadonlyMap<string, string> | undefined, profile: RunnerProfile): void {
  if (binds !== undefined && binds.size > 0 && !profile.allowsBind) throw new CommandUsageError(profile.refusals.bind.message, profile.refusals.bind.hint);
}
