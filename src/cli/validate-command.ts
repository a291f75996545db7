import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { RUNNER_FLAG_DESCRIPTION } from './runner-flag.js';
import { ToolCommand } from './tool-command.js';

/** `tool arazzo validate <file>`: parses an Arazzo document and reports what the v1 runner would reject or skip. */
export class ValidateCommand extends ToolCommand {
  static override paths = [['arazzo', 'validate']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'check an Arazzo 1.0.x document against what the v1 runner supports',
    details: `
      Parses the document (YAML or JSON) and reports each finding on stdout as \`file:line:col severity CODE message\`, then a summary line.

      Errors make the document unrunnable (exit 10). Warnings name constructs the v1 runner skips or fails at runtime (operationPath, nested workflows, dependsOn, replacements, regex/jsonpath success criteria) and sources that could not be checked; a document with warnings only is valid (exit 0), unless \`--strict\` makes warnings failures too (exit 10).

      With \`--tool-runner v2\` (or TOOL_RUNNER=v2), the document is checked for the v2 runner: regex, jsonpath and xpath criteria are compiled (a syntax error is an error), and constructs v2 will run but this version does not yet are warnings that say so (docs/arazzo-coverage.md).

      Operation ids and step parameters are checked against source descriptions that are local files; remote sources are not fetched. The finding codes are listed in docs/cli.md.

      Several files (or globs, with \`*\`, \`?\` and \`**\`, expanded by tool when the shell did not) are validated one after the other, each with its findings and summary line, then a line counting them; the exit code is 10 if any is invalid, 2 if any could not be read. With \`--output json\`, several files print a JSON array of the records.
    `,
    examples: [
      ['Validate a workflow document', '$0 arazzo validate flow.arazzo.yaml'],
      ['Validate every document of a folder (a summary line per file)', "$0 arazzo validate 'workflows/**/*.arazzo.yaml'"],
      ['Print the findings as JSON', '$0 arazzo validate flow.arazzo.yaml --output json'],
      ['Fail on warnings too (for CI)', '$0 arazzo validate flow.arazzo.yaml --strict'],
      ['Check the document for the v2 runner', '$0 arazzo validate flow.arazzo.yaml --tool-runner v2'],
    ],
  });

  files = Option.Rest({ name: 'file', required: 1 });

  output = Option.String('--output', 'text', {
    description: 'Output format: text (compiler-style lines) or json',
    validator: t.isEnum(['text', 'json'] as const),
  });

  strict = Option.Boolean('--strict', false, { description: 'Treat warnings as failures: exit 10 when there is any finding' });

  runner = Option.String('--tool-runner', { description: RUNNER_FLAG_DESCRIPTION });

  allowRead = Option.Array('--tool-allow-read', [], { description: "A folder the document's descriptions and their file $refs may also read (repeatable); see docs/security.md" });

  // Accepted so that the flags of run and replay work here too; validate fetches nothing.
  allowRefHost = Option.Array('--tool-allow-ref-host', [], { description: 'Accepted for the same flags as run; validate fetches nothing' });

  async execute(): Promise<number> {
    const { validate } = await import('./actions/validate.js');
    return validate(this, this.io);
  }
}
