import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { Finding } from '../arazzo/finding.js';
import type { LoadedDocument } from '../arazzo/model.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import { ToolError } from '../errors/tool-error.js';
import { styleFor } from '../output/style.js';
import { EXIT } from './exit-codes.js';
import { resolveRunner, RUNNER_FLAG_DESCRIPTION } from './runner-flag.js';
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
    `,
    examples: [
      ['Validate a workflow document', '$0 arazzo validate flow.arazzo.yaml'],
      ['Print the findings as JSON', '$0 arazzo validate flow.arazzo.yaml --output json'],
      ['Fail on warnings too (for CI)', '$0 arazzo validate flow.arazzo.yaml --strict'],
      ['Check the document for the v2 runner', '$0 arazzo validate flow.arazzo.yaml --tool-runner v2'],
    ],
  });

  file = Option.String({ name: 'file', required: true });

  output = Option.String('--output', 'text', {
    description: 'Output format: text (compiler-style lines) or json',
    validator: t.isEnum(['text', 'json'] as const),
  });

  strict = Option.Boolean('--strict', false, { description: 'Treat warnings as failures: exit 10 when there is any finding' });

  runner = Option.String('--tool-runner', { description: RUNNER_FLAG_DESCRIPTION });

  allowRead = Option.Array('--tool-allow-read', [], { description: "A folder the document's descriptions and their file $refs may also read (repeatable); see docs/security.md" });

  async execute(): Promise<number> {
    const profile = resolveRunner(this.runner, this.context.env);
    const { resolve } = await import('node:path');
    const { prepareDocument } = await import('../plan/prepare-document.js');
    const formatting = await import('../arazzo/format-finding.js');
    const refused: Error[] = [];
    const prepared = await prepareDocument({
      file: this.file,
      cwd: this.context.cwd,
      env: this.context.env,
      profile,
      // Operation ids and parameters are checked against local descriptions only; remote ones are not fetched.
      descriptions: async (doc) => {
        const { localOperationsLoader } = await import('./source-operations.js');
        const denied = await toolFolders(this.context.env);
        const allowRead = (await (await import('./allow-read-folders.js')).checkAllowReadFolders(this.allowRead, this.context.cwd)).map((folder) => resolve(this.context.cwd, folder));
        const loadOperations = localOperationsLoader(doc.absolutePath, { denied, allowRead, cwd: this.context.cwd, onRefused: (error) => refused.push(error) });
        const loadSourceWorkflows = profile.runsNestedWorkflows ? (await import('./source-workflows.js')).localWorkflowsLoader(doc.absolutePath, { denied, allowRead, cwd: this.context.cwd, onRefused: (error) => refused.push(error) }) : undefined;
        return {
          loadOperations,
          loadPathOperations: loadOperations.paths,
          ...(loadSourceWorkflows ? { loadSourceWorkflows } : {}),
          // A description that breaks a read rule stops `validate` as it stops `run`: same message, exit 2.
          afterValidation: () => {
            if (refused[0] !== undefined) throw new ToolError('DESCRIPTION_REFUSED', refused[0].message);
          },
        };
      },
      findings: (findings, doc) => this.printFindings(findings, doc, profile, formatting),
      upTo: 'findings',
    });
    return prepared.valid ? EXIT.OK : EXIT.INVALID_DOCUMENT;
  }

  /** Findings are this command's data: every one goes to stdout. Returns whether the document is valid: no error, or no finding at all with --strict. */
  private printFindings(findings: Finding[], doc: LoadedDocument, profile: RunnerProfile, { formatFinding, formatSummary }: typeof import('../arazzo/format-finding.js')): boolean {
    const valid = !findings.some((finding) => finding.severity === 'error' || this.strict);
    if (this.output === 'json') {
      const record = { file: doc.file, valid, strict: this.strict, workflows: doc.model.workflows.length, sources: doc.model.sourceDescriptions.length, findings };
      this.context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
    } else {
      // Coloured only when stdout is a terminal.
      const style = styleFor(this.context.stdoutIsTTY && this.context.colors);
      const lines = findings.map((finding) => formatFinding(finding, doc.file, style));
      lines.push(formatSummary(doc, findings, { strict: this.strict, profile }));
      this.context.stdout.write(`${lines.join('\n')}\n`);
    }
    return valid;
  }
}

/** tool's config and cache folders, which descriptions may never read; none when HOME is unusable. */
async function toolFolders(env: Record<string, string | undefined>): Promise<string[]> {
  const { configPaths } = await import('../config/paths.js');
  try {
    const paths = configPaths(env);
    return [paths.configDir, paths.cacheDir];
  } catch {
    return [];
  }
}
