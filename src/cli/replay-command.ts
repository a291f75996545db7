import { Command, Option } from 'clipanion';
import { REPORT_FLAG_DESCRIPTIONS } from './report-flags.js';
import { ToolCommand } from './tool-command.js';
import { workflowRunOptions } from './workflow-options.js';

/** `tool arazzo replay <file> --from <file.har>`: runs a workflow again against the responses a `--har` file recorded, sending nothing. */
export class ReplayCommand extends ToolCommand {
  static override paths = [['arazzo', 'replay']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'run a workflow again against the responses of a recorded run, sending nothing',
    details: `
      Runs the workflow as \`tool arazzo run\` does, but each step's request is answered from the HAR file that \`tool arazzo run --har\` wrote, matched by method, URL and order (the second \`GET /items/1\` gets the second recorded response). No step request is sent, so you can change a criterion or an action in the document and see which path the run takes now.

      A request the recording has no response for (the run took another path, or asks more often) fails its step with a message that names the request. Values that the recording masked as *** are replayed as ***.

      stdout carries the run record, as for \`arazzo run\`. Exit codes: 0 success, 1 the workflow failed, 2 usage error (an unreadable or invalid --from file), 10 invalid document.
    `,
    examples: [
      ['Record a run, then replay it', '$0 arazzo run flow.arazzo.yaml --har run.har && $0 arazzo replay flow.arazzo.yaml --from run.har'],
      ['Replay one workflow with its inputs, and write JUnit XML', '$0 arazzo replay flow.arazzo.yaml --from run.har --workflow buyPet --input petId=42 --junit junit.xml'],
    ],
  });

  file = Option.String({ name: 'file', required: true });

  from = Option.String('--from', { description: 'The HAR file of the recorded run, written by tool arazzo run --har (required)' });

  inputs = Option.Array('--input', [], { description: 'An input as key=value (repeatable); give the ones the recorded run had' });

  inputEnv = workflowRunOptions.inputEnv();

  inputsFile = workflowRunOptions.inputsFile();

  workflow = workflowRunOptions.workflow();

  output = workflowRunOptions.output();

  verbose = Option.Boolean('--verbose', false, { description: "Print every step's replayed request and response (secrets as ***)" });

  quiet = workflowRunOptions.quiet();
  checks = workflowRunOptions.checks();

  maxSteps = Option.String('--tool-max-steps', { description: 'Cap on step runs, retries and goto revisits included (default 10000)' });

  maxDepth = Option.String('--tool-max-depth', '32', { description: 'v2: how deep nested workflow calls may go (default 32)' });

  bind = Option.Array('--tool-bind', [], { description: 'Bind a source to a registered API, as source=api or arazzo-source.source=api (repeatable; v2 only): give the ones the recorded run had' });

  bodyLimit = Option.String('--tool-body-limit', '4096', { description: 'Bytes of each body that --verbose prints and --report keeps (default 4096)' });

  report = Option.String('--report', { description: REPORT_FLAG_DESCRIPTIONS.report });

  junit = Option.String('--junit', { description: REPORT_FLAG_DESCRIPTIONS.junit });

  allowRefHosts = workflowRunOptions.allowRefHosts();

  allowRead = workflowRunOptions.allowRead();

  runner = workflowRunOptions.runner();

  async execute(): Promise<number> {
    const { replay } = await import('./actions/replay.js');
    return replay(this, this.io);
  }
}
