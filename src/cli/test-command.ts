import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';
import { quietRunFlags, workflowRunOptions } from './workflow-options.js';

/** `tool arazzo test [files…]`: runs every workflow of every document as a test, and reports each run and a summary. */
export class TestCommand extends ToolCommand {
  static override paths = [['arazzo', 'test']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'run every workflow of Arazzo documents as tests and summarise',
    details: `
      Takes files, folders and globs (\`*\`, \`?\`, \`**\`); without any, every \`*.arazzo.yaml\`, \`*.arazzo.yml\` and \`*.arazzo.json\` under the working directory (hidden folders and node_modules left out). Each workflow of each document (file order, then workflow order) runs as \`arazzo run\` would run it: the same engine and request pipeline, the document's profile (an Arazzo 1.1 document runs under the 1.1 profile) and its project's tool.config.yaml.

      A workflow whose inputs schema requires inputs that were not given is skipped, with the reason. \`--input\`, \`--input-env\` and \`--inputs-file\` apply to every workflow: each gets the inputs it declares.

      \`--data\` runs the one selected workflow (pick it with \`--workflow\`) once per row of a CSV file (a header row names the inputs; values are coerced to the types the inputs schema declares), a JSON Lines file or a JSON array of objects. Each row, over the \`--input\` values, is checked against the inputs schema before anything is sent for it; a row that does not fit fails with its row number (1-based, the CSV header not counted) and the others still run (docs/test.md#data-rows).

      stderr: a line per run as it finishes (✓, ✗ with the failed step and the reason, - for a skip), then a summary. stdout: only the suite's JSON summary. \`--results\` writes a JSON line per run as it finishes (docs/test.md).

      \`--concurrency N\` runs up to N at once (one pool of connections, one registry and OAuth token refresh for all). \`--repeat N\`, \`--duration 60s\` and \`--rate 20/s\` make a load run: per workflow and per step, count, errors, p50/p95/p99/max latency (HDR histograms) and rate, on stderr and in the summary's \`stats\`; \`--threshold 'p95<300ms'\` fails the suite when the figures miss it (docs/test.md#load).

      \`--report suite.json\`, \`--junit junit.xml\` and \`--html report.html\` write the suite's JSON report (counts, figures, latency histograms, the failed runs), JUnit XML (a testcase per run) and a self-contained HTML page when it ends, also after --bail and Ctrl-C; \`tool arazzo merge-reports\` merges shards' files (docs/test.md#reports).

      \`--shard i/n\` (or JOB_COMPLETION_INDEX with TOOL_SHARD_TOTAL=n) runs one of n deterministic slices, so that n processes cover every run once; \`--resume results.jsonl\` leaves out the runs that file records as finished (docs/test.md#shards).

      Exit codes: 0 all passed (skips allowed), 1 a workflow failed or a threshold did not hold, 2 usage or configuration error (no document matched, a bad flag, an unreadable --data file or more than one workflow selected with it, an unwritable --results, --report, --junit or --html file), 10 a document is invalid (the others still run), 130 interrupted (the summary and results so far are written).
    `,
    examples: [
      ['Run every workflow of every document under the working directory', '$0 arazzo test'],
      ['Run the documents of a folder, stopping at the first failure', '$0 arazzo test workflows/ --bail'],
      ['Run the workflows whose id starts with smoke, with an input', "$0 arazzo test 'apis/**/*.arazzo.yaml' --workflow 'smoke*' --input env=staging"],
      ['Keep every run (outputs and steps) as JSON Lines', '$0 arazzo test --results results.jsonl'],
      ['Run one workflow once per row of a CSV file', '$0 arazzo test orders.arazzo.yaml --workflow placeOrder --data orders.csv'],
      ['Load: 20 runs a second for a minute, failing when p95 is 300 ms or more', "$0 arazzo test smoke.arazzo.yaml --duration 60s --rate 20/s --threshold 'p95<300ms' --threshold 'errors<1%'"],
      ['Shard 2 of 4 of a suite, and go on with a run that was stopped', '$0 arazzo test flows/ --shard 2/4 --results shard-2.jsonl --resume shard-2.jsonl'],
      ['Write the JSON report, JUnit XML and an HTML page of the suite', '$0 arazzo test flows/ --report suite.json --junit junit.xml --html report.html'],
    ],
  });

  files = Option.Rest({ name: 'files' });

  workflow = Option.String('--workflow', { description: 'Run only the workflows whose id matches: an id, or a glob with * and ?' });

  inputs = Option.Array('--input', [], { description: 'An input as key=value (repeatable), given to every workflow that declares it' });

  inputEnv = workflowRunOptions.inputEnv();

  inputsFile = workflowRunOptions.inputsFile();

  bail = Option.Boolean('--bail', false, { description: 'Stop at the first failure: the remaining runs are not started' });

  data = Option.String('--data', { description: 'Run the one selected workflow once per row of this .csv (header row of input names), .jsonl or .json (array of objects) file' });

  results = Option.String('--results', { description: 'Write each finished run (verdict, timing, outputs, steps) as one JSON line to this file, created or emptied first' });

  resume = Option.String('--resume', { description: 'Skip the runs this --results file records as finished, and append the new ones to it (unless --results names another file)' });

  report = Option.String('--report', { description: "Write the suite's JSON report (counts, figures, latency histograms, failed runs) to this file when it ends" });

  junit = Option.String('--junit', { description: 'Write JUnit XML (a testsuite per document, a testcase per run) to this file when the suite ends' });

  html = Option.String('--html', { description: 'Write a self-contained HTML page of the summary, figures and failures to this file when the suite ends' });

  concurrency = Option.String('--concurrency', { description: 'Runs in flight at once, 1 to 1000 (default 1; 100 with --rate)' });

  repeat = Option.String('--repeat', { description: 'Run the suite this many times over (a load run: latency figures, failures only on stderr)' });

  duration = Option.String('--duration', { description: 'Keep starting passes over the suite for this long (60s, 5m, 500ms)' });

  rate = Option.String('--rate', { description: 'Start this many runs per second, whether or not earlier ones finished (20/s, 600/m)' });

  threshold = Option.Array('--threshold', [], { description: "Fail (exit 1) unless the figures meet this: 'p95<300ms', 'errors<1%', 'wf.step:p99<1s', 'rps>=20' (repeatable)" });

  shard = Option.String('--shard', { description: 'Run only shard i of n (i/n, 1-based) of the runs; JOB_COMPLETION_INDEX with TOOL_SHARD_TOTAL=n does the same' });

  checks = workflowRunOptions.checks();

  maxSteps = workflowRunOptions.maxSteps('workflow run');

  retry = workflowRunOptions.retry();

  timeout = workflowRunOptions.timeout();

  allowRefHosts = workflowRunOptions.allowRefHosts();

  allowRead = workflowRunOptions.allowRead();

  runner = workflowRunOptions.runner();

  async execute(): Promise<number> {
    const { runSuite } = await import('./suite/run-suite.js');
    const shared = quietRunFlags({ runner: this.runner, inputs: this.inputs, inputEnv: this.inputEnv, inputsFile: this.inputsFile, checks: this.checks, maxSteps: this.maxSteps, allowRefHosts: this.allowRefHosts, allowRead: this.allowRead });
    return runSuite(
      {
        files: this.files,
        workflow: this.workflow,
        shared,
        retry: this.retry,
        timeout: this.timeout,
        bail: this.bail,
        results: this.results,
        data: this.data,
        resume: this.resume,
        thresholds: this.threshold,
        reports: { report: this.report, junit: this.junit, html: this.html },
        load: { concurrency: this.concurrency, repeat: this.repeat, duration: this.duration, rate: this.rate, shard: this.shard },
      },
      this.context,
    );
  }
}
