import type { Writable } from 'node:stream';
import type { WorkflowPlan } from '../../machines/types.js';
import type { Finding } from '../arazzo/finding.js';
import { loadDocument } from '../arazzo/load-document.js';
import type { LoadedDocument, Workflow } from '../arazzo/model.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import { validateDocument, type ValidateOptions } from '../arazzo/validate-document.js';
import { openDocumentStore } from '../cache/document-store.js';
import type { Style } from '../output/style.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { reportFindings, selectWorkflow } from './gate-document.js';

/**
 * What validation reads beside the document: the loaders of its source descriptions (`run` reads
 * them through the pipeline, `validate` reads local files only). `afterValidation` runs once the
 * findings are in, before they are reported, and may throw to stop the command (`validate`: a
 * description that broke a read rule).
 */
export type DescriptionChecks = Omit<ValidateOptions, 'profile'> & { afterValidation?: () => void };

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
export type ReportFindings = (findings: Finding[], doc: LoadedDocument) => boolean;

/** How far preparation goes: the findings only (`validate`), the selected workflow too (`run`, which binds and prepares it itself), or its plan too (`graph`). */
export type PrepareStage = 'findings' | 'workflow' | 'plan';

export interface PrepareDocumentOptions<U extends PrepareStage, D extends DescriptionChecks | undefined> {
  file: string;
  cwd: string;
  /** Environment: where the parsed-document store lives (XDG_CACHE_HOME, HOME). */
  env: Record<string, string | undefined>;
  /** The runner profile the document is validated and planned for. */
  profile: RunnerProfile;
  /** --workflow: the workflow the findings are seen by and that is selected (the only one when absent). */
  workflowId?: string | undefined;
  /** Made from the loaded document; without it (`graph`) no source description is read or fetched. */
  descriptions?: (doc: LoadedDocument) => D | Promise<D>;
  /** How the findings are reported and whether they stop the command. */
  findings: StderrGate | ReportFindings;
  /** Warnings the project's settings silence (`silence` in tool.config.yaml): left out before they are reported. */
  silence?: (finding: Finding, file: string) => boolean;
  upTo: U;
}

/** The document's findings stopped the command (exit 10); they have been reported. */
export interface InvalidDocument {
  valid: false;
  doc: LoadedDocument;
  findings: Finding[];
}

export interface CheckedDocument<D> {
  valid: true;
  doc: LoadedDocument;
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
  const { profile, workflowId } = options;
  const store = openDocumentStore(options.env);
  const doc = await loadDocument(options.file, { cwd: options.cwd, ...(store ? { store } : {}) });
  const descriptions = options.descriptions ? await options.descriptions(doc) : (undefined as D);
  const { afterValidation, ...loaders } = descriptions ?? {};
  const all = await validateDocument(doc, { ...loaders, profile });
  const silence = options.silence;
  const findings = silence ? all.filter((finding) => !silence(finding, doc.absolutePath)) : all;
  afterValidation?.();
  const gate = options.findings;
  const valid = typeof gate === 'function' ? gate(findings, doc) : reportFindings(findings, doc, gate.stderr, gate.style, gate.consequence, gate.showWarnings, workflowId, gate.validateFlags);
  if (!valid) return { valid: false, doc, findings };
  const checked: CheckedDocument<D> = { valid: true, doc, findings, descriptions };
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
