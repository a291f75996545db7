import type { Writable } from 'node:stream';
import { compileWorkflow, DEFAULT_MAX_DEPTH } from '../../machines/compile-workflow.js';
import type { Judge, WorkflowContext, WorkflowPlan } from '../../machines/types.js';
import type { ArazzoDocument, LoadedDocument } from '../arazzo/model.js';
import type { Report } from '../arazzo/finding.js';
import type { Outcome } from '../errors/outcome.js';
import { styleFor, type Style } from '../output/style.js';
import { createPipeline, type Pipeline } from '../http/create-pipeline.js';
import { printableLine } from '../output/printable.js';
import { redactUrl, secretNames } from '../output/redact.js';
import { allOperations } from '../openapi/all-operations.js';
import { documentDescriptionLoader, withinOneRun, type DescriptionLoader } from '../plan/description-loader.js';
import type { RunDocuments } from '../plan/run-documents.js';
import type { CriteriaOptions } from '../plan/evaluate-criteria.js';
import { formatFinding } from '../arazzo/format-finding.js';
import { refuseDependencies } from '../plan/gate-document.js';
import { prepareDocument } from '../plan/prepare-document.js';
import { runMachine } from './run-machine.js';
import { immediateClock } from './immediate-clock.js';
import type { PreparedRun } from '../plan/prepare-run.js';
import { bindSources, refuseUnusedIncludedBinds, type ApiLookup, type BoundSource } from '../plan/bind-sources.js';
import type { StepProgram } from '../plan/compile-steps.js';
import { createStepExecutor, type StepExecutor } from '../execute/execute-step.js';
import { compileRunMachines, runWorkflows, type RunWorkflowsOptions, type WorkflowsRun } from './run-workflows.js';
import { createActionJudge } from '../execute/judge.js';
import { createActionNarrator } from '../observe/narrate-actions.js';
import { executorEvents, inspectionDecoder } from '../observe/decode-run.js';
import { createRunEvents, type RunEvents } from '../observe/run-events.js';
import { prepareWorkflow } from '../plan/prepare-workflow.js';
import { createReporter, narrateOnStderr, type Reporter } from '../observe/reporter.js';
import { formatRecord, type RecordFailure, type RunRecord } from './run-record.js';
import { failureMessage } from '../observe/failure-message.js';
import { createTracer, openTraceFile, type Tracer } from '../observe/trace.js';
import type { LiveInspector } from '../observe/inspect.js';
import { holdsLiveView } from '../observe/live-view-hold.js';
import type { ReportTargets, RunReports } from '../observe/report/run-reports.js';
import type { RunStop } from '../observe/report/run-report.js';
import { runnerFindings } from '../plan/gate-document.js';
import { stopOfError, stopOfInvalidDocument } from './run-stop.js';
import { inGitHubActions } from '../observe/github/workflow-commands.js';
import { startGitHub, stepPositions } from './github-output.js';
import type { GitHubSuite } from '../observe/github/github-run.js';
import type { Position } from '../arazzo/model.js';
import { DEFAULT_PROFILE, type RunnerProfile } from '../arazzo/runner-profile.js';
import { criteriaOptionsFor } from '../plan/criteria-options.js';
import type { RegexWorker } from '../execute/regex-worker.js';
import type { ChecksMode } from '../execute/check-response.js';
import type { AsyncSource } from '../plan/async-sources.js';
import type { AsyncSession } from '../execute/async-session.js';
import { refuseBinds } from '../plan/gate-document.js';
import type { RunMemo } from '../plan/run-memo.js';
import { CommandUsageError } from '../errors/tool-error.js';

export interface RunOptions {
  file: string;
  inputs: Record<string, unknown>;
  /** Values of the inputs given with --input-env: shown as `***` on stderr and in the trace (not in the record on stdout). */
  secretInputs?: readonly string[];
  workflowId?: string;
  dryRun: boolean;
  output: 'json' | 'yaml';
  /** Also prints every step's full exchange (see bodyLimit). */
  verbose: boolean;
  quiet: boolean;
  /** --tool-body-limit: bytes of each body --verbose shows (default 4096). */
  bodyLimit?: number;
  maxSteps: number;
  retry: number;
  retryUnsafe: boolean;
  timeoutMs: number;
  /** --trace: path of the NDJSON trace to write. */
  trace?: string;
  /** --inspect: serve a live view of the run on 127.0.0.1 (port 0 = any free one). */
  inspect?: boolean;
  inspectPort?: number;
  /** --inspect-hold: keep the live view up after the run until Ctrl-C even without a terminal. */
  inspectHold?: boolean;
  /** --tool-allow-ref-host (and the project's allowRefHosts): hosts a remote description's $refs may reach besides its own origin. */
  allowRefHosts?: string[];
  /** Of those, the ones $refs may reach on a loopback or private address too (--tool-allow-ref-host only). */
  addressRefHosts?: string[];
  /** The project's `silence`: warnings of the document left unsaid. */
  silence?: (finding: { code: string; severity: string; line?: number }, file: string) => boolean;
  /** --tool-allow-read: folders (relative to the working directory) descriptions and their file $refs may also read. */
  allowRead?: string[];
  /** Of those, the ones given as flags (the rest come from tool.config.yaml, which validate reads itself): for the hint after an invalid document. */
  allowReadFlags?: string[];
  /** --tool-runner: the runner profile the run asks for (v1 by default); an Arazzo 1.1 document chooses the 1.1 profile. */
  profile?: RunnerProfile;
  /** Where the profile was asked for by name (`--tool-runner`, `TOOL_RUNNER`, tool.config.yaml); undefined for the default. */
  runnerFrom?: string | undefined;
  /** The inputs as a profile reads the flags: called when the document's profile types inputs (`k:=json`) and the one asked for did not. */
  retypeInputs?: (profile: RunnerProfile) => Promise<{ inputs: Record<string, unknown>; strings: readonly string[] }>;
  /** --tool-bind (v2): source name to the registered API it is bound to, before x-tool-api and name match. */
  binds?: ReadonlyMap<string, string>;
  /** --tool-max-depth (v2): how deep nested workflow calls may go (default 32). */
  maxDepth?: number;
  /** Names of inputs given as command-line strings (--input k=v, --input-env): v2 coerces them to the type the schema declares. */
  stringInputs?: readonly string[];
  /** --report, --har, --junit: files about the run, opened before anything is sent and written when it ends (src/observe/report/). */
  reports?: ReportTargets;
  /** --checks: compare each step's response with its operation's declared responses (default warn; a dry run checks nothing). */
  checks?: ChecksMode;
  /** Whether a failed run explains its failure on stderr (default true); `arazzo test` words it in its own line from the record's `failure`. */
  explainFailure?: boolean;
}

export interface RunIO {
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  colors: boolean;
  signal: AbortSignal;
  /** Environment: where the API registry and credentials live (XDG_CONFIG_HOME, HOME), env-var secrets. */
  env: Record<string, string | undefined>;
  /** stdin and stderr are terminals: someone can press Ctrl-C to end a held --inspect live view (false when absent). */
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
}

export interface RunDeps {
  /** Configured APIs for binding; the user's registry (apis.json) by default. */
  registry?: ApiLookup;
  /** Sends the steps' requests instead of the run's pipeline (`arazzo replay` answers them from a HAR file); descriptions still load through the pipeline. */
  sender?: Pipeline;
  /**
   * The responses come from a recording (`arazzo replay`): nothing is sent, so retry waits
   * (`retryAfter`, Retry-After) are skipped and no source is warned to be sent without credentials.
   */
  recorded?: boolean;
  /** Creates the run's regex worker (createRegexWorker of src/execute/regex-worker.ts by default): a test watches it. */
  regexWorker?: () => RegexWorker;
  /**
   * The pipeline the run sends and loads descriptions through, shared with other runs (`arazzo
   * test --concurrency`: one pool of keep-alive connections); the caller closes it. By default the
   * run makes its own from opts.timeoutMs and opts.retry, and closes it when it ends.
   */
  pipeline?: Pipeline;
  /**
   * What earlier runs of the process loaded (`arazzo test`): the document is read and validated,
   * and its descriptions read, once for all the runs that share the memo.
   */
  memo?: RunMemo;
  /** GitHub Actions: the run is one of `arazzo test`'s (github-run.ts GitHubSuite): the suite's command-processing token, one summary for the suite, a cap on annotations. */
  githubSuite?: GitHubSuite;
  /** Subscribes to the run's events before its machine starts (`arazzo test`'s latency figures, `tool mcp serve`'s progress notifications): a listener must not throw. */
  observe?: (events: RunEvents) => void;
}

/**
 * `tool arazzo run`: load and validate the document (exit 10 before any request), bind sources,
 * compile the workflow to a machine, run it, and print the run record on stdout. Returns how the
 * run ended (the command maps it to an exit code); throws ToolError for usage and configuration problems.
 */
export async function runWorkflowFile(opts: RunOptions, io: RunIO, deps: RunDeps = {}): Promise<Outcome> {
  const style = styleFor(io.colors);
  const reporter = createReporter(io.stderr, style, { quiet: opts.quiet, secrets: opts.secretInputs ?? [], verbose: opts.verbose, bodyLimit: opts.bodyLimit });
  // GitHub Actions: the run's secrets are registered with ::add-mask:: before anything is printed (docs/cli.md#ci).
  const github = inGitHubActions(io.env) ? await startGitHub({ file: opts.file, secretInputs: opts.secretInputs, replay: deps.sender !== undefined, suite: deps.githubSuite }, io, reporter) : undefined;
  const pipeline = deps.pipeline ?? createPipeline({ timeoutMs: opts.timeoutMs, retry: opts.retry, retryUnsafe: opts.retryUnsafe });
  let tracer: Tracer | undefined;
  let live: LiveInspector | undefined;
  let holdLiveView = false;
  let reports: RunReports | undefined;
  // The run's regex worker: created when a document of the run has criteria that test a regex
  // (its thread starts at the first test), stopped when the run ends, however it ends.
  let regexWorker: Promise<RegexWorker> | undefined;
  const regex = () => (regexWorker ??= deps.regexWorker ? Promise.resolve(deps.regexWorker()) : import('../execute/regex-worker.js').then((m) => m.createRegexWorker()));
  // Arazzo 1.1: the run's broker connections, made with its first asynchronous step and closed when it ends, however it ends.
  let asyncSession: AsyncSession | undefined;
  let sessionModule: typeof import('../execute/async-session.js') | undefined;
  // The workflow the run selected, once known: a run that stops before its first request names it in its reports.
  const selected: { workflowId?: string } = opts.workflowId === undefined ? {} : { workflowId: opts.workflowId };
  // Whether the run got as far as its record: an error before that is an early stop, which the reports still record.
  let recorded = false;
  // The profile the run follows once its document chose it (an Arazzo 1.1 document chooses the 1.1 profile): the reports name it.
  const chosen = { profile: opts.profile ?? DEFAULT_PROFILE };
  try {
    // Report files are opened before anything is sent: an unwritable path is a usage error (and writes nothing).
    if (opts.reports) reports = await (await import('../observe/report/run-reports.js')).openRunReports({ ...opts, get profile() { return chosen.profile; } }, io.cwd);
    const compiled = await compileRun(opts, io, deps, pipeline, reporter, style, regex, selected, chosen);
    if ('stop' in compiled) {
      await reports?.stopped(compiled.stop).catch((error: Error) => reporter.warn(error.message));
      await github?.stopped(compiled.stop);
      return { kind: 'invalid-document' };
    }
    const { plan } = compiled;

    if (opts.trace !== undefined) tracer = createTracer(await openTraceFile(opts.trace, io.cwd), plan, { maxSteps: opts.maxSteps, path: opts.trace, secrets: opts.secretInputs ?? [], workflows: compiled.run?.workflows });
    if (opts.inspect) {
      live = await (await import('../observe/inspect.js')).startInspector({ port: opts.inspectPort ?? 0, workflowId: plan.workflowId, secrets: opts.secretInputs ?? [] });
      // The chart `arazzo graph` draws of the selected workflow (drawing needs no executor).
      live.showChart(plan, compiled.run && { entry: compiled.run.entry, plans: new Map([...compiled.run.workflows].map(([key, w]) => [key, w.plan])) });
      live.announce(io.stderr);
    }
    // One stream of events for the run: the decoder (decode-run.ts) turns the machine's inspection
    // and the executor's callbacks into it; stderr, the trace, the live view and the reports listen.
    const events = createRunEvents();
    github?.subscribe(events);
    narrateOnStderr(events, reporter);
    // Action lines are progress: a quiet run does not pay for inspecting the machine to word them.
    if (!opts.quiet) events.on('action.fired', createActionNarrator(plan, compiled.programs, reporter, compiled.run?.workflows));
    tracer?.subscribe(events);
    live?.subscribe(events);
    reports?.subscribe(events, plan, compiled.programs, compiled.run?.workflows);
    deps.observe?.(events);
    // What the bound APIs' auth sent: the record masks it (a server may echo it into an output).
    const credentials = new Set<string>();
    events.on('step.response', ({ request }) => request.auth?.secretValues?.().forEach((value) => credentials.add(value)));
    const inspect = inspectionDecoder(events);
    const { reporter: stepReporter, onExchange } = executorEvents(events);
    // Response checks (loaded here, as the run starts; Ajv only for the first schema a response meets).
    const mode = opts.checks ?? 'warn';
    const checkResponse = mode === 'off' || opts.dryRun ? undefined : await (await import('../execute/check-response.js')).createResponseChecker(mode, deps.memo);
    if (programsOf(compiled).some((program) => program.async)) {
      // A replay sends nothing, and a HAR holds no messages: a workflow with message steps cannot be replayed.
      if (deps.recorded) throw new CommandUsageError(`workflow "${plan.workflowId}" has asynchronous steps (AsyncAPI send or receive), which a HAR file does not record; nothing was sent`, 'Replay answers HTTP steps only: run the workflow against its broker instead (tool arazzo run).');
      sessionModule = await import('../execute/async-session.js');
    }
    const session = () => (asyncSession ??= sessionModule!.createAsyncSession({ connectTimeoutMs: opts.timeoutMs }));
    const executorFor = (programs: StepProgram[]) =>
      createStepExecutor({ programs, pipeline: deps.sender ?? pipeline, dryRun: opts.dryRun, verbose: opts.verbose, reporter: stepReporter, ...(onExchange ? { onExchange } : {}), ...(checkResponse ? { checkResponse } : {}), ...(sessionModule ? { asyncSession: session } : {}) });
    const clock = immediateClock({ waits: deps.recorded !== true });
    const ran = compiled.run
      ? await runV2(compiled.run, executorFor, { inputs: compiled.inputs, maxSteps: opts.maxSteps, maxDepth: opts.maxDepth ?? DEFAULT_MAX_DEPTH, signal: io.signal, inspect, clock })
      : asWorkflowsRun(await runMachine(compileWorkflow(plan, compiled.judge, executorFor(compiled.programs)), { inputs: compiled.inputs, maxSteps: opts.maxSteps }, io.signal, inspect, clock));
    const { context, interrupted } = ran;
    await tracer?.finish(context, interrupted).catch((error: Error) => reporter.warn(error.message));
    const failed = interrupted || context.failure !== undefined;
    const record: RunRecord = { workflowId: plan.workflowId, status: failed ? 'failed' : 'succeeded', outputs: failed ? {} : context.outputs, steps: ran.records };
    if (interrupted) record.failure = { code: 'INTERRUPTED', message: 'interrupted (Ctrl-C or a signal); nothing more was sent' };
    else if (ran.failure) record.failure = recordFailure(plan.workflowId, ran.failure);
    if (ran.transfers.length > 0) record.transfers = ran.transfers;
    if (ran.dependencies.length > 0) record.dependencies = ran.dependencies;
    recorded = true;
    await reports?.finish(record, ran.failure?.failure, interrupted).catch((error: Error) => reporter.warn(error.message));
    io.stdout.write(await formatRecord(record, opts.output, credentials));
    await github?.finished(plan.workflowId, ran.failure?.failure, interrupted, compiled.stepPositions);
    holdLiveView = live !== undefined;
    if (interrupted) {
      reporter.warn(`interrupted: workflow "${plan.workflowId}" stopped after ${ran.runs} step runs; nothing more was sent`);
      return { kind: 'interrupted' };
    }
    if (ran.failure) {
      const dependency = ran.failure.dependency;
      if (dependency) reporter.warn(`workflow "${dependency.dependent}" did not run: its dependency "${dependency.workflowId}" failed`);
      if (opts.explainFailure !== false) reporter.workflowFailed(ran.failure.workflowId, ran.failure.failure);
      return { kind: 'failed' };
    }
    return { kind: 'succeeded' };
  } catch (error) {
    // Every exit writes the requested reports, early ones included (an unknown API, a missing input, an unreadable description).
    if (!recorded) {
      const stop = stopOfError(error, selected.workflowId);
      await reports?.stopped(stop).catch((failure: Error) => reporter.warn(failure.message));
      await github?.stopped(stop);
    }
    throw error;
  } finally {
    if (deps.pipeline === undefined) pipeline.close();
    await asyncSession?.close();
    if (regexWorker) (await regexWorker).stop();
    await tracer?.finish(undefined, false).catch(() => undefined);
    await reports?.close();
    // The live view outlives a finished run (it is usually over before a browser connects) until
    // Ctrl-C, when someone is at a terminal to press it or --inspect-hold asks for it.
    if (holdLiveView && live) {
      if (holdsLiveView(opts.inspectHold, io)) await live.holdUntil(io.signal, io.stderr);
      else live.release(io.signal, io.stderr);
    }
    await live?.close();
  }
}

/** What a run needs of its document once it is checked and bound. */
interface CompiledRun {
  plan: WorkflowPlan;
  judge: Judge;
  programs: StepProgram[];
  /** The run's inputs: as given, or in v2 checked against the workflow's inputs schema (typed, defaulted). */
  inputs: Record<string, unknown>;
  /** v2: every workflow the run can reach, `plan` and `programs` being the selected one's. */
  run?: PreparedRun;
  /** Where each step of the selected workflow is in the document: a GitHub annotation of its failure points there. */
  stepPositions: ReadonlyMap<string, Position>;
}

/**
 * Loads, validates and binds the document and compiles the selected workflow; returns the
 * stop of an invalid document instead (its findings are printed); notes the selected workflow in `selected`. A function of its own so that the loaded document
 * (its text, parsed tree, model and findings: ~3.6 MiB at 1000 steps) is garbage once the run
 * starts; a suspended async function keeps all its locals alive.
 */
async function compileRun(
  opts: RunOptions,
  io: RunIO,
  deps: RunDeps,
  pipeline: Pipeline,
  reporter: Reporter,
  style: Style,
  regex: () => Promise<RegexWorker>,
  selected: { workflowId?: string },
  chosen: { profile: RunnerProfile },
): Promise<CompiledRun | { stop: RunStop }> {
  // Arazzo 1.1: each AsyncAPI source is read once, for validation and for binding.
  const asyncTexts = new Map<string, Promise<{ text: string; location: string }>>();
  const readAsyncText = (loader: DescriptionLoader, base: string) => (url: string) => {
    let pending = asyncTexts.get(url);
    if (!pending) asyncTexts.set(url, (pending = loader.readDocument(url, base, 'the AsyncAPI description')));
    return pending;
  };
  const prepared = await prepareDocument({
    file: opts.file,
    cwd: io.cwd,
    env: io.env,
    profile: chosen.profile,
    runnerFrom: opts.runnerFrom,
    workflowId: opts.workflowId,
    ...(deps.memo ? { memo: deps.memo } : {}),
    // The run reads its descriptions through the pipeline, once: validation checks them, binding binds them.
    descriptions: (doc) => {
      const newLoader = (shared: boolean) => documentDescriptionLoader(pipeline, doc, opts, io, (message) => reporter.warn(message), shared);
      // Runs that share a memo share the loader, and with it each description it has read (the first run's warnings said once);
      // a description that could not be read is read again by the next run, not failed for the rest of the suite.
      const loaderKey = `descriptions ${doc.absolutePath} ${JSON.stringify([opts.allowRefHosts, opts.addressRefHosts, opts.allowRead, opts.timeoutMs, opts.retry])}`;
      const loadDescription = deps.memo ? withinOneRun(deps.memo.get(loaderKey, () => newLoader(true))) : newLoader(false);
      // Validation skips the operation checks of a description it could not read (binding then says why).
      let unread = false;
      return {
        loadDescription,
        allRead: () => !unread,
        loadOperations: async (url: string) => {
          try {
            return (await loadDescription(url)).operations;
          } catch {
            unread = true;
            return undefined;
          }
        },
        loadPathOperations: async (url: string) => allOperations(await loadDescription(url)),
        checkAsyncSteps: async (model: ArazzoDocument, report: Report) => {
          const [{ checkAsyncSteps }, { parseAsyncApi }] = await Promise.all([import('../plan/check-async-steps.js'), import('../plan/async-sources.js')]);
          const read = readAsyncText(loadDescription, doc.absolutePath);
          await checkAsyncSteps(model, async (url) => {
            const { text, location } = await read(url);
            return parseAsyncApi(text, location, url);
          }, report);
        },
      };
    },
    findings: { stderr: io.stderr, style, consequence: 'nothing was sent', showWarnings: true, validateFlags: validateFlagsOf(opts) },
    ...(opts.silence ? { silence: opts.silence } : {}),
    upTo: 'workflow',
  });
  // The reports name the profile the document chose, an invalid document's too.
  chosen.profile = prepared.profile;
  if (!prepared.valid) {
    const only = prepared.doc.model.workflows.length === 1 ? prepared.doc.model.workflows[0]!.workflowId : undefined;
    const workflowId = opts.workflowId ?? only;
    return { stop: stopOfInvalidDocument(prepared.doc.file, runnerFindings(prepared.findings, prepared.doc.model, opts.workflowId), workflowId) };
  }
  const { doc, workflow, profile, descriptions: { loadDescription } } = prepared;
  if (workflow.workflowId !== undefined) selected.workflowId = workflow.workflowId;
  refuseBinds(opts.binds, profile);
  if (!profile.runsDependencies) refuseDependencies(doc, workflow, profile);
  const given = profile.typesInputs ? await typedInputs(opts, profile) : undefined;
  const inputs = given ? await (await import('../plan/input-schema.js')).applyInputSchema(doc, workflow, given.inputs, { strings: new Set(given.strings), secrets: opts.secretInputs ?? [] }) : opts.inputs;
  const registry = deps.registry ?? (await (await import('../plan/api-lookup.js')).loadApiLookup({ env: io.env, pipeline }));
  const { sources, warnings } = await bindSources(doc, registry, loadDescription, { binds: opts.binds, sends: deps.recorded !== true });
  // Arazzo 1.1: AsyncAPI sources, read and bound to brokers as OpenAPI sources are to APIs.
  const asyncBound = profile.featureSet === '1.1' ? await (await import('../plan/async-sources.js')).bindAsyncSources(doc, registry, readAsyncText(loadDescription, doc.absolutePath), { binds: opts.binds, sends: deps.recorded !== true }) : undefined;
  for (const warning of [...warnings, ...(asyncBound?.warnings ?? [])]) reporter.warn(warning);
  if (opts.verbose) printBanner(sources, io.stderr, style, opts.secretInputs ?? []);
  if (opts.verbose && asyncBound) printAsyncBanner(asyncBound.sources, io.stderr);

  const templateWarnings: Array<{ pointer: string; source: string; message: string }> = [];
  const criteria = await criteriaOptionsFor(doc.model, profile, { warn: (message) => reporter.warn(message), regex });
  // A profile that runs nested workflows prepares every workflow the run can reach (dependencies, nested calls, transfers) once.
  const prepareRunModule = profile.runsNestedWorkflows ? await import('../plan/prepare-run.js') : undefined;
  const documents = prepareRunModule ? await runDocuments(doc, sources, asyncBound?.sources, criteria, loadDescription, registry, opts, io, reporter, style, regex, deps.recorded !== true) : undefined;
  const run = prepareRunModule ? await prepareRunModule.prepareRun(documents!, workflow, templateWarnings) : undefined;
  if (documents && opts.binds) refuseUnusedIncludedBinds(opts.binds, documents.openedSources());
  if (run) await prepareRunModule!.attachCallInputChecks(doc, run);
  const { plan, programs, outputs } = run ? run.workflows.get(run.entry)! : prepareWorkflow(doc.model, workflow, sources, templateWarnings, criteria, { text: doc.text, location: doc.absolutePath });
  for (const w of templateWarnings) reporter.warn(`${doc.file}${where(doc, w.pointer)}: ${w.message} (kept as a literal string)`);
  const compiled: CompiledRun = { plan, judge: createActionJudge(programs, outputs), programs, inputs, stepPositions: inGitHubActions(io.env) ? stepPositions(doc, workflow) : NO_POSITIONS };
  return run ? { ...compiled, run } : compiled;
}

/** The run's inputs as a profile that types them reads the flags (`k:=json`): read again when the profile asked for did not. */
async function typedInputs(opts: RunOptions, profile: RunnerProfile): Promise<{ inputs: Record<string, unknown>; strings: readonly string[] }> {
  if (opts.retypeInputs === undefined || (opts.profile ?? DEFAULT_PROFILE).typesInputs) return { inputs: opts.inputs, strings: opts.stringInputs ?? [] };
  return opts.retypeInputs(profile);
}

/** v2: the run's document, and the Arazzo sources its references reach, opened by the run's rules (run-documents.ts). */
async function runDocuments(doc: LoadedDocument, sources: BoundSource[], asyncSources: AsyncSource[] | undefined, criteria: CriteriaOptions, loader: DescriptionLoader, registry: ApiLookup, opts: RunOptions, io: RunIO, reporter: Reporter, style: Style, regex: () => Promise<RegexWorker>, sends: boolean): Promise<RunDocuments> {
  const { createRunDocuments } = await import('../plan/run-documents.js');
  return createRunDocuments(
    { prefix: '', loaded: doc, location: doc.absolutePath, sources, criteria, ...(asyncSources ? { asyncSources } : {}) },
    {
      loader,
      registry,
      allowRefHosts: opts.allowRefHosts ?? [],
      cwd: io.cwd,
      warn: (message) => reporter.warn(message),
      regex,
      ...(opts.binds ? { binds: opts.binds } : {}),
      ...(sends ? {} : { sends: false }),
      printFindings: (findings, file) => findings.forEach((finding) => io.stderr.write(`${formatFinding(finding, file, style)}\n`)),
      ...(opts.verbose ? { bound: (bound: BoundSource[], file: string) => printBanner(bound, io.stderr, style, opts.secretInputs ?? [], `sources of ${file}:`) } : {}),
    },
  );
}

// URLs here come from the document, the registry and the descriptions: secrets masked, escapes stripped.
function printBanner(sources: BoundSource[], stderr: Writable, style: Style, secrets: readonly string[], title = 'sources:'): void {
  stderr.write(`${style.bold(printableLine(title))}\n`);
  for (const s of sources) {
    const known = { names: secretNames(s.auth), values: [...secrets, ...(s.auth?.secretValues?.() ?? [])] };
    const shown = (url: string) => printableLine(redactUrl(url, known.names), known);
    const bound = s.api ? `bound to API "${s.api.name}" (${s.reason})` : 'synthetic (no configured API)';
    const base = s.baseUrl ?? s.description.servers[0];
    const auth = s.auth ? s.auth.describe() : 'none';
    stderr.write(`  ${printableLine(s.name)}: ${bound}; base URL ${base === undefined ? '(none)' : shown(base)}; auth ${auth}; description ${shown(s.description.location)}\n`);
  }
}

// Arazzo 1.1: how each AsyncAPI source is bound (the broker's URL never carries credentials: they stay in the registry).
function printAsyncBanner(sources: readonly AsyncSource[], stderr: Writable): void {
  for (const s of sources) {
    const bound = s.api ? `bound to broker API "${s.api.name}" (${s.reason}); broker ${s.baseUrl ?? '(none)'}` : "unbound: each operation's own AsyncAPI server";
    stderr.write(`  ${printableLine(s.name)}: ${printableLine(bound)}; auth ${s.auth ? s.auth.describe() : 'none'}; AsyncAPI description ${printableLine(s.location)}\n`);
  }
}

function where(doc: LoadedDocument, pointer: string): string {
  const pos = doc.locate(pointer);
  return pos ? `:${pos.line}:${pos.col}` : '';
}

/** A v2 run: every workflow compiled once (each with its own step executor), then run from the dependencies to the last transfer. */
async function runV2(prepared: PreparedRun, executorFor: (programs: StepProgram[]) => StepExecutor, options: RunWorkflowsOptions): Promise<WorkflowsRun> {
  const machines = compileRunMachines(prepared, (workflow) => executorFor(workflow.programs));
  return runWorkflows(prepared, machines, options);
}

/** Every step program of the run: the selected workflow's, and each workflow's it can reach. */
function programsOf(compiled: CompiledRun): StepProgram[] {
  return compiled.run ? [...compiled.run.workflows.values()].flatMap((workflow) => workflow.programs) : compiled.programs;
}

/** A v1 run (one machine) in the shape of a v2 one. */
function asWorkflowsRun({ context, interrupted }: { context: WorkflowContext; interrupted: boolean }): WorkflowsRun {
  const ran: WorkflowsRun = { context, interrupted, records: context.records, transfers: [], dependencies: [], runs: context.runs };
  if (context.failure) ran.failure = { workflowId: context.workflowId, failure: context.failure };
  return ran;
}

/** The record's account of a failed run: the workflow (when another than the record's), the step, the code and stderr's message. */
function recordFailure(workflowId: string, failed: NonNullable<WorkflowsRun['failure']>): RecordFailure {
  const { failure } = failed;
  const out: RecordFailure = { code: failure.code, message: printableLine(failureMessage(failure)) };
  if (failure.stepId !== undefined) out.stepId = failure.stepId;
  if (failed.workflowId !== workflowId) out.workflowId = failed.workflowId;
  return out;
}

/** The flags of this run that `validate` needs to see the document as the run does: the runner and the read folders. */
function validateFlagsOf(opts: RunOptions): string[] {
  // An Arazzo 1.1 document chooses its profile itself: only a runner asked for by name is repeated.
  const flags = opts.profile !== undefined && opts.profile !== DEFAULT_PROFILE && opts.runnerFrom !== undefined ? ['--tool-runner', opts.profile.name] : [];
  for (const folder of opts.allowReadFlags ?? opts.allowRead ?? []) flags.push('--tool-allow-read', folder);
  return flags;
}

/** Outside GitHub Actions no annotation needs a step's line: finding them re-reads the whole document (~200 ms at 1000 steps). */
const NO_POSITIONS: ReadonlyMap<string, Position> = new Map();
