import { Command, Option } from 'clipanion';
import { exitCodeFor } from './exit-codes.js';
import { parseCount, parseSeconds } from './input-flags.js';
import { reportingFlagErrors } from './early-reports.js';
import { readProjectSettings } from './project-settings.js';
import { ToolCommand } from './tool-command.js';
import { resolveSharedRunFlags, workflowRunOptions } from './workflow-options.js';
import { REPORT_FLAG_DESCRIPTIONS, reportTargets } from './report-flags.js';

/** `tool arazzo run <file>`: executes one workflow of an Arazzo document and prints its run record. */
export class RunCommand extends ToolCommand {
  static override paths = [['arazzo', 'run']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'run an Arazzo workflow and print its run record',
    details: `
      Loads and validates the document (an invalid one exits 10 before any request), binds each source description to a configured API (\`x-tool-api\`, then a registered API of the same name, else unauthenticated), and executes the workflow's steps in order through the request pipeline.

      stdout carries only the run record (JSON, or YAML with \`--output yaml\`), printed for every run that started, even a failed one. Progress, warnings, dry-run requests and the failure explanation go to stderr.

      Exit codes: 0 success, 1 the workflow failed, 2 usage or configuration error, 10 invalid document, 130 interrupted (143 on SIGTERM, 129 on SIGHUP).
    `,
    examples: [
      ['Run the only workflow of a document', '$0 arazzo run flow.arazzo.yaml'],
      ['Pick a workflow and give inputs', '$0 arazzo run flow.arazzo.yaml --workflow buyPet --input petId=42 --input qty=2'],
      ['Take inputs from a file, and a secret from the environment (shown as *** on stderr)', '$0 arazzo run flow.arazzo.yaml --inputs-file inputs.yaml --input-env token=API_TOKEN'],
      ['Show each request without sending anything', '$0 arazzo run flow.arazzo.yaml --dry-run'],
      ['Record every state change of the run', '$0 arazzo run flow.arazzo.yaml --trace run.ndjson'],
      ['Write a JSON report, a HAR file and JUnit XML (for CI, and for arazzo replay)', '$0 arazzo run flow.arazzo.yaml --report run.json --har run.har --junit junit.xml'],
      ['Watch the run in a browser (served on 127.0.0.1 only)', '$0 arazzo run flow.arazzo.yaml --inspect'],
      ['Run with the v2 runner: typed inputs (k:=json for objects), regex/jsonpath/xpath criteria', '$0 arazzo run flow.arazzo.yaml --tool-runner v2 --input qty=2 --input "tags:=[1,2]"'],
      ['Bind a source to a registered API for this run (v2)', '$0 arazzo run flow.arazzo.yaml --tool-runner v2 --tool-bind petstore=petstore-staging'],
    ],
  });

  file = Option.String({ name: 'file', required: true });

  inputs = Option.Array('--input', [], { description: 'An input as key=value (repeatable); values are strings' });

  inputEnv = workflowRunOptions.inputEnv();

  inputsFile = workflowRunOptions.inputsFile();

  workflow = workflowRunOptions.workflow();

  dryRun = Option.Boolean('--dry-run', false, { description: 'Print each resolved request on stderr; send nothing' });

  output = workflowRunOptions.output();

  verbose = Option.Boolean('--verbose', false, { description: "Print how each source is bound (API, base URL, auth) before running, and every step's request and response (secrets as ***)" });

  quiet = workflowRunOptions.quiet();
  checks = workflowRunOptions.checks();

  maxSteps = Option.String('--tool-max-steps', { description: 'Cap on step runs, retries and goto revisits included (default 10000); in v2, across nested, dependency and transferred workflows' });

  maxDepth = Option.String('--tool-max-depth', '32', { description: 'v2: how deep nested workflow calls may go (default 32); deeper fails the run with WorkflowDepthExceeded' });

  retry = Option.String('--tool-retry', { description: 'Transport retries per request for connection errors and 408/429/5xx (default 2)' });

  retryUnsafe = Option.Boolean('--tool-retry-unsafe', false, { description: 'Let transport retries repeat non-idempotent requests (POST, PATCH)' });

  timeout = Option.String('--tool-timeout', { description: 'Per-request timeout in seconds (default 30)' });

  bodyLimit = Option.String('--tool-body-limit', '4096', { description: 'Bytes of each request and response body that --verbose prints and --report keeps (default 4096)' });

  trace = Option.String('--trace', { description: 'Write one JSON line per state change, action and request to this file (see docs/state-machine.md)' });

  report = Option.String('--report', { description: REPORT_FLAG_DESCRIPTIONS.report });

  har = Option.String('--har', { description: REPORT_FLAG_DESCRIPTIONS.har });

  junit = Option.String('--junit', { description: REPORT_FLAG_DESCRIPTIONS.junit });

  inspect = Option.Boolean('--inspect', false, { description: 'Serve a live view of the run on 127.0.0.1; after the run it stays up until Ctrl-C on a terminal, and ends with the run otherwise (CI)' });

  inspectHold = Option.Boolean('--inspect-hold', false, { description: 'Keep the --inspect live view up after the run until Ctrl-C even when stdin or stderr is not a terminal; implies --inspect' });

  inspectPort = Option.String('--inspect-port', { description: 'Port of the --inspect server, which it implies (default: any free port)' });

  allowRefHosts = workflowRunOptions.allowRefHosts();

  allowRead = workflowRunOptions.allowRead();

  runner = workflowRunOptions.runner();

  bind = Option.Array('--tool-bind', [], { description: 'Bind a source to a registered API, as source=api (arazzo-source.source=api for a source of an Arazzo source), before x-tool-api and name match (repeatable; v2 only)' });

  async execute(): Promise<number> {
    // The project's tool.config.yaml gives the defaults of the flags not given (flags win).
    const settings = await readProjectSettings(this.file, this.context.cwd);
    const reports = settings.reports?.value ?? {};
    const targets = () => reportTargets({ report: this.report ?? reports.report, har: this.har ?? reports.har, junit: this.junit ?? reports.junit }, this.context.cwd);
    // A flag's value that stops the run before it starts (an unset --input-env variable) still writes the reports asked for.
    const options = await reportingFlagErrors(targets, { file: this.file, workflowId: this.workflow }, this.context.cwd, async () => ({
      ...(await resolveSharedRunFlags(this, this.context, settings)),
      file: this.file,
      dryRun: this.dryRun,
      retry: this.retry !== undefined ? parseCount('--tool-retry', this.retry, 0, 20) : (settings.retry?.value ?? 2),
      retryUnsafe: this.retryUnsafe,
      timeoutMs: this.timeout !== undefined ? parseSeconds('--tool-timeout', this.timeout, 3600) : (settings.timeout?.value ?? 30) * 1000,
      trace: this.trace,
      reports: targets(),
      inspect: this.inspect || this.inspectHold || this.inspectPort !== undefined,
      inspectHold: this.inspectHold,
      inspectPort: this.inspectPort === undefined ? 0 : parseCount('--inspect-port', this.inspectPort, 0, 65535),
    }));
    const { runWorkflowFile } = await import('../run/run-workflow.js');
    return exitCodeFor((await runWorkflowFile(options, this.context)).kind);
  }
}
