/**
 * What `arazzo test` will run, worked out before anything is sent: for each document, its
 * workflows (those `--workflow` selects) in document order, each with the run options `arazzo run`
 * would use for it (the project's tool.config.yaml of that document, its flags) and, when the
 * workflow requires inputs the command did not give, why it is skipped.
 */
import { documentRunOptions } from '../document-run-options.js';
import { DEFAULT_PROFILE } from '../../arazzo/runner-profile.js';
import { prepareDocument } from '../../plan/prepare-document.js';
import type { Workflow, ArazzoDocument, LoadedDocument } from '../../arazzo/model.js';
import type { RunnerProfile } from '../../arazzo/runner-profile.js';
import { ToolError } from '../../errors/tool-error.js';
import type { ProjectSettings } from '../project-settings.js';
import type { SharedRunFlags } from '../workflow-options.js';
import { componentRefs, isObject, propertiesOf, requiredOf } from '../../plan/schema-lookup.js';
import type { RunOptions } from '../../run/run-workflow.js';
import type { RunMemo } from '../../plan/run-memo.js';

/** The flags of `arazzo test` that shape each run. */
export interface SuiteFlags {
  /** Every flag `arazzo run` shares with it, `--workflow` aside (here a filter, not a choice). */
  shared: Omit<SharedRunFlags, 'workflow'>;
  /** --workflow: a workflowId, or a glob of them with `*` and `?`. */
  workflow: string | undefined;
  retry: string | undefined;
  timeout: string | undefined;
  /** --data: each workflow runs once per row, so none is skipped for inputs the rows may give, and each entry keeps its document to check the rows with. */
  data?: string | undefined;
}

/** One run of the suite: a workflow of a document, with the options it runs with. */
export interface SuiteEntry {
  file: string;
  /** Undefined for a document that could not be read or parsed (`loadError` says why) and for a workflow without an id. */
  workflowId: string | undefined;
  options: RunOptions;
  /** Why the workflow is not run: the required inputs it was not given. */
  skip?: string;
  loadError?: ToolError;
  /** With --data: the workflow as its document declares it, and the profile the document runs with (rows are checked against its inputs schema). */
  source?: { doc: LoadedDocument; workflow: Workflow; profile: RunnerProfile };
  /** With --data: the 1-based row this entry runs. */
  row?: number;
}

/**
 * The entries of `files`, in file order then workflow order. Throws ToolError for a bad flag or
 * project setting (a usage error: nothing has run), and CommandUsageError when `--workflow`
 * selects no workflow of any document.
 */
export async function planSuite(files: readonly string[], flags: SuiteFlags, context: { env: Record<string, string | undefined>; cwd: string }, memo?: RunMemo): Promise<SuiteEntry[]> {
  const settingsRead = new Map<string, Promise<ProjectSettings>>();
  const selects = workflowMatcher(flags.workflow);
  const entries: SuiteEntry[] = [];
  for (const file of files) {
    const options: RunOptions = { ...(await documentRunOptions(file, flags, context, settingsRead)), explainFailure: false };
    let prepared: { doc: LoadedDocument; profile: RunnerProfile };
    try {
      // Its workflows only: each run validates the document again, and prints its findings, as `run` does.
      prepared = await prepareDocument({ file, cwd: context.cwd, env: context.env, profile: options.profile ?? DEFAULT_PROFILE, runnerFrom: options.runnerFrom, findings: () => true, upTo: 'findings', memo });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      entries.push({ file, workflowId: undefined, options, loadError: error });
      continue;
    }
    for (const workflow of prepared.doc.model.workflows) {
      if (flags.workflow !== undefined && (workflow.workflowId === undefined || !selects(workflow.workflowId))) continue;
      const entry = entryFor(file, workflow, prepared.doc.model, options);
      if (flags.data !== undefined) {
        delete entry.skip;
        entry.source = { doc: prepared.doc, workflow, profile: prepared.profile };
      }
      entries.push(entry);
    }
  }
  if (flags.workflow !== undefined && !entries.some((entry) => entry.workflowId !== undefined)) {
    throw new ToolError('USAGE', `--workflow ${JSON.stringify(flags.workflow)} selects no workflow of the ${files.length} document${files.length === 1 ? '' : 's'}`, 'Give a workflowId, or a glob of them (* and ?).');
  }
  return entries;
}

/** The workflow's entry: the inputs given that it declares, and the skip reason when a required one is missing. */
function entryFor(file: string, workflow: Workflow, model: ArazzoDocument, options: RunOptions): SuiteEntry {
  const refs = componentRefs(isObject(model.components?.inputs) ? model.components.inputs : {});
  const properties = propertiesOf(workflow.inputs, refs, 0);
  const declared = new Set(Object.keys(properties));
  // A workflow that declares its inputs gets only those (a schema may refuse others); one that declares none gets them all.
  const pick = (inputs: Record<string, unknown>) => (declared.size === 0 ? inputs : Object.fromEntries(Object.entries(inputs).filter(([name]) => declared.has(name))));
  const retype = options.retypeInputs;
  const run: RunOptions = {
    ...options,
    workflowId: workflow.workflowId,
    inputs: pick(options.inputs),
    ...(retype ? { retypeInputs: async (profile) => { const typed = await retype(profile); return { ...typed, inputs: pick(typed.inputs) }; } } : {}),
  };
  const given = new Set(Object.keys(options.inputs));
  const missing = requiredOf(workflow.inputs, refs).filter((name) => !given.has(name) && !hasDefault(properties[name]));
  const entry: SuiteEntry = { file, workflowId: workflow.workflowId, options: run };
  if (missing.length > 0) entry.skip = `required input${missing.length === 1 ? '' : 's'} ${missing.map((name) => JSON.stringify(name)).join(', ')} not given (--input, --inputs-file)`;
  return entry;
}

function hasDefault(property: unknown): boolean {
  return isObject(property) && 'default' in property;
}

/** A predicate on workflowIds: equal to `pattern`, where `*` is any run of characters and `?` one. */
export function workflowMatcher(pattern: string | undefined): (workflowId: string) => boolean {
  if (pattern === undefined) return () => true;
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  const regex = new RegExp(`^${source}$`, 's');
  return (workflowId) => regex.test(workflowId);
}
