import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';
import { workflowRunOptions } from './workflow-options.js';

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

      Exit codes: 0 all passed (skips allowed), 1 a workflow failed, 2 usage or configuration error (no document matched, a bad flag, an unreadable --data file or more than one workflow selected with it, an unwritable --results file), 10 a document is invalid (the others still run), 130 interrupted (the summary and results so far are written).
    `,
    examples: [
      ['Run every workflow of every document under the working directory', '$0 arazzo test'],
      ['Run the documents of a folder, stopping at the first failure', '$0 arazzo test workflows/ --bail'],
      ['Run the workflows whose id starts with smoke, with an input', "$0 arazzo test 'apis/**/*.arazzo.yaml' --workflow 'smoke*' --input env=staging"],
      ['Keep every run (outputs and steps) as JSON Lines', '$0 arazzo test --results results.jsonl'],
      ['Run one workflow once per row of a CSV file', '$0 arazzo test orders.arazzo.yaml --workflow placeOrder --data orders.csv'],
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

  checks = workflowRunOptions.checks();

  maxSteps = Option.String('--tool-max-steps', { description: 'Cap on step runs per workflow run, retries and goto revisits included (default 10000)' });

  retry = Option.String('--tool-retry', { description: 'Transport retries per request for connection errors and 408/429/5xx (default 2)' });

  timeout = Option.String('--tool-timeout', { description: 'Per-request timeout in seconds (default 30)' });

  allowRefHosts = workflowRunOptions.allowRefHosts();

  allowRead = workflowRunOptions.allowRead();

  runner = workflowRunOptions.runner();

  async execute(): Promise<number> {
    const { runSuite } = await import('./suite/run-suite.js');
    const shared = {
      ...(this.runner !== undefined ? { runner: this.runner } : {}),
      inputs: this.inputs,
      inputEnv: this.inputEnv,
      ...(this.inputsFile !== undefined ? { inputsFile: this.inputsFile } : {}),
      output: 'json' as const,
      verbose: false,
      quiet: true,
      checks: this.checks,
      maxSteps: this.maxSteps,
      maxDepth: '32',
      bodyLimit: '4096',
      bind: [],
      allowRefHosts: this.allowRefHosts,
      allowRead: this.allowRead,
    };
    return runSuite({ files: this.files, workflow: this.workflow, shared, retry: this.retry, timeout: this.timeout, bail: this.bail, results: this.results, data: this.data }, this.context);
  }
}
