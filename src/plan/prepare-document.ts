import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { WorkflowPlan } from '../../machines/types.js';
import type { Finding } from '../arazzo/finding.js';
import { loadDocument } from '../arazzo/load-document.js';
import type { LoadedDocument, Workflow } from '../arazzo/model.js';
import { documentProfile, type RunnerProfile } from '../arazzo/runner-profile.js';
import { CommandUsageError } from '../errors/tool-error.js';
import { validateDocument, type ValidateOptions } from '../arazzo/validate-document.js';
import { openDocumentStore } from '../cache/document-store.js';
import type { Style } from '../output/style.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { reportFindings, selectWorkflow } from './gate-document.js';
import { orderStepsByDependencies } from './step-order.js';
import type { RunMemo } from './run-memo.js';

/**
 * What validation reads beside the document: the loaders of its source descriptions (`run` reads
 * them through the pipeline, `validate` reads local files only). `afterValidation` runs once the
 * findings are in, before they are reported, and may throw to stop the command (`validate`: a
 * description that broke a read rule).
 */
export type DescriptionChecks = Omit<ValidateOptions, 'profile'> & {
  afterValidation?: () => void;
  /** Whether every description validation asked for could be read (a memo keeps the findings only then: one that could not be read skipped its checks). */
  allRead?: () => boolean;
};

/** The findings printed on stderr as a run of the selected workflow sees them (gate-document.ts reportFindings), ending in `consequence`. */
export interface StderrGate {
  stderr: Writable;
  style: Style;
  /** Ends the error line: "nothing was sent", "nothing was drawn". */
  consequence: string;
  /** Warnings are printed too (`run`), or only the errors (`graph`). */
  showWarnings: boolean;
  /** The command's flags `validate` needs to see the document as it does (`--tool-runner v2`, `--tool-allow-read …`), for the hint. */
  validateFlags?: readonly string[];
}

/** A command's own report of the findings (`validate` prints every one on stdout); returns false when the document is invalid for it. */
export type ReportFindings = (findings: Finding[], doc: LoadedDocument, profile: RunnerProfile) => boolean;

/** How far preparation goes: the findings only (`validate`), the selected workflow too (`run`, which binds and prepares it itself), or its plan too (`graph`). */
export type PrepareStage = 'findings' | 'workflow' | 'plan';

export interface PrepareDocumentOptions<U extends PrepareStage, D extends DescriptionChecks | undefined> {
  file: string;
  cwd: string;
  /** Environment: where the parsed-document store lives (XDG_CACHE_HOME, HOME). */
  env: Record<string, string | undefined>;
  /** The runner profile the command asked for; an Arazzo 1.1 document chooses the 1.1 profile (documentProfile). */
  profile: RunnerProfile;
  /** Where the profile was asked for by name (`--tool-runner`...), undefined for the default: v1 asked for by name refuses a 1.1 document. */
  runnerFrom?: string | undefined;
  /** --workflow: the workflow the findings are seen by and that is selected (the only one when absent). */
  workflowId?: string | undefined;
  /** Made from the loaded document; without it (`graph`) no source description is read or fetched. */
  descriptions?: (doc: LoadedDocument, profile: RunnerProfile) => D | Promise<D>;
  /** How the findings are reported and whether they stop the command. */
  findings: StderrGate | ReportFindings;
  /** Warnings the project's settings silence (`silence` in tool.config.yaml): left out before they are reported. */
  silence?: (finding: Finding, file: string) => boolean;
  upTo: U;
  /** What earlier runs of the process loaded and validated (`arazzo test`): the document is read and validated once. */
  memo?: RunMemo | undefined;
}

/** The document's findings stopped the command (exit 10); they have been reported. */
export interface InvalidDocument {
  valid: false;
  doc: LoadedDocument;
  /** The profile the document was validated for. */
  profile: RunnerProfile;
  findings: Finding[];
}

export interface CheckedDocument<D> {
  valid: true;
  doc: LoadedDocument;
  /** The profile the document was validated for, and that the command follows: the one asked for, or the 1.1 profile for an Arazzo 1.1 document. */
  profile: RunnerProfile;
  findings: Finding[];
  /** What `descriptions` made (undefined without it), for a command that reads the descriptions again (run binds through the same loader). */
  descriptions: D;
}

export interface SelectedWorkflow<D> extends CheckedDocument<D> {
  workflow: Workflow;
}

export interface PlannedWorkflow<D> extends SelectedWorkflow<D> {
  /** The profile's criteria options (v2: the criterion libraries the document uses, loaded). */
  criteria: CriteriaOptions;
  plan: WorkflowPlan;
}

interface Stages<D> {
  findings: CheckedDocument<D>;
  workflow: SelectedWorkflow<D>;
  plan: PlannedWorkflow<D>;
}

/** How to stop asking for v1, by where it was asked for (runner-flag.ts resolveRunner). */
const WITHOUT_V1: Record<string, string> = {
  '--tool-runner': 'Drop --tool-runner v1 (or pass --tool-runner v2)',
  'the TOOL_RUNNER environment variable': 'Unset TOOL_RUNNER (or set it to v2)',
  'tool.config.yaml (runner)': 'Set runner: v2 in tool.config.yaml, or remove the key',
};

/**
 * Load, validate, plan: the one preparation of an Arazzo document that `run`, `replay`, `validate`
 * and `graph` share. Loads the document (through the parsed-document store), validates it for the
 * profile with the descriptions the command reads, reports the findings as the command does, and
 * goes on `upTo` the selected workflow or its plan. Returns `valid: false` when the findings stop
 * the command. Throws what loading throws (ToolError), a usage error for a missing or ambiguous
 * workflow, and what `afterValidation` throws.
 */
export async function prepareDocument<U extends PrepareStage, D extends DescriptionChecks | undefined = undefined>(
  options: PrepareDocumentOptions<U, D>,
): Promise<Stages<D>[U] | InvalidDocument> {
  const { workflowId } = options;
  const memo = options.memo;
  const load = () => {
    const store = openDocumentStore(options.env);
    return loadDocument(options.file, { cwd: options.cwd, ...(store ? { store } : {}) });
  };
  const doc = await (memo ? memo.get(`document ${resolve(options.cwd, options.file)}`, load) : load());
  const chosen = documentProfile(options.profile, doc.model.arazzo, options.runnerFrom);
  if ('refused' in chosen) throw new CommandUsageError(`${doc.file}: ${chosen.refused}`, `${WITHOUT_V1[options.runnerFrom!] ?? 'Ask for v2 instead'}: an Arazzo 1.1 document runs with the Arazzo 1.1 profile (docs/arazzo-coverage.md).`);
  const { profile } = chosen;
  const descriptions = options.descriptions ? await options.descriptions(doc, profile) : (undefined as D);
  const { afterValidation, allRead, ...loaders } = descriptions ?? {};
  // The same document, profile and descriptions give the same findings: a memo keeps them.
  const validate = () => validateDocument(doc, { ...loaders, profile });
  // Keyed by whether the descriptions were read: findings made without them lack theirs.
  const findingsKey = `findings ${doc.absolutePath} ${profile.name} ${options.descriptions ? 'with' : 'without'} descriptions`;
  const all = await (memo ? memo.get(findingsKey, validate) : validate());
  // Findings made while a description could not be read lack its checks: the next run validates again.
  if (memo && allRead?.() === false) memo.forget(findingsKey);
  const silence = options.silence;
  const findings = silence ? all.filter((finding) => !silence(finding, doc.absolutePath)) : all;
  afterValidation?.();
  const gate = options.findings;
  const valid = typeof gate === 'function' ? gate(findings, doc, profile) : reportFindings(findings, doc, gate.stderr, gate.style, gate.consequence, gate.showWarnings, workflowId, gate.validateFlags);
  if (!valid) return { valid: false, doc, profile, findings };
  orderStepsByDependencies(doc.model, profile);
  const checked: CheckedDocument<D> = { valid: true, doc, profile, findings, descriptions };
  if (options.upTo === 'findings') return checked as Stages<D>[U];

  const workflow = selectWorkflow(doc, workflowId);
  if (options.upTo === 'workflow') return { ...checked, workflow } as Stages<D>[U];

  // Only `graph` plans here (a run plans as it binds, prepare-workflow.ts): loaded when asked for.
  const { criteriaOptionsFor } = await import('./criteria-options.js');
  const { planWorkflow } = await import('./plan-workflow.js');
  const criteria = await criteriaOptionsFor(doc.model, profile);
  const { plan } = planWorkflow(doc.model, workflow, criteria);
  return { ...checked, workflow, criteria, plan } as Stages<D>[U];
}
