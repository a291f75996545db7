import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';

/** `tool arazzo merge-reports <folders or files…>`: the files of the shards of `arazzo test` merged into one summary and report. */
export class MergeReportsCommand extends ToolCommand {
  static override paths = [['arazzo', 'merge-reports']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'merge the report files of the shards of arazzo test into one',
    details: `
      Takes folders (each stands for its own \`*.json\`, \`*.jsonl\` and \`*.xml\` files) and files: the \`--report\` suite reports (\`.json\`), \`--results\` files (\`.jsonl\`) and \`--junit\` files (\`.xml\`) that \`tool arazzo test --shard i/n\` wrote.

      The counts and figures come from the suite reports when there are any: counts added, latency percentiles recomputed from the shards' histograms added together (not averaged), rates over the span from the first shard's start to the last one's end. Without reports, from the results files (each run counted once by its document, workflow, row and pass; figures from the runs' durations, no rates); without either, from the JUnit files. The merged \`--junit\` file takes its testcases from the JUnit files, or else from the results files. A run or testcase found in two files is counted once, with a warning; a report of a shard given twice, or shards missing, are warned about.

      stdout: the merged summary as JSON (counts, documents, shards, figures, thresholds, the first 1000 failed runs). stderr: warnings, the threshold verdicts and a summary line. \`--report\`, \`--junit\` and \`--html\` write the merged files as \`arazzo test\` writes them; a merged report merges again.

      Exit codes: 0 every run passed, 1 a run failed or a --threshold did not hold (or an output could not be written to the end), 2 usage error (no input, a file that cannot be read, a .json file that is not a suite report, a .jsonl line that is not a run other than a cut last line, a .xml file that is not arazzo test's JUnit, an unwritable output path, a bad --threshold).
    `,
    examples: [
      ['Merge the files of every shard in a folder into one report and summary', '$0 arazzo merge-reports shards/ --report suite.json --junit junit.xml --html report.html'],
      ['Merge the shards and fail unless the p95 of every run stays under 300 ms', "$0 arazzo merge-reports shard-*.json --threshold 'p95<300ms'"],
    ],
  });

  inputs = Option.Rest({ name: 'folders or files' });

  report = Option.String('--report', { description: 'Write the merged suite report (JSON, with the merged histograms) to this file' });

  junit = Option.String('--junit', { description: 'Write the merged JUnit XML (a testsuite per document) to this file' });

  html = Option.String('--html', { description: 'Write a self-contained HTML page of the merged summary, figures and failures to this file' });

  threshold = Option.Array('--threshold', [], { description: "Fail (exit 1) unless the merged figures meet this: 'p95<300ms', 'errors<1%', 'wf.step:p99<1s' (repeatable)" });

  async execute(): Promise<number> {
    const { mergeReports } = await import('./suite/merge-reports.js');
    return mergeReports({ inputs: this.inputs, reports: { report: this.report, junit: this.junit, html: this.html }, thresholds: this.threshold }, this.context);
  }
}
