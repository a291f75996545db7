import { resolve } from 'node:path';
import type { Finding, Report } from '../../arazzo/finding.js';
import { formatFinding, formatSummary } from '../../arazzo/format-finding.js';
import type { ArazzoDocument, LoadedDocument } from '../../arazzo/model.js';
import type { RunnerProfile } from '../../arazzo/runner-profile.js';
import { configPaths } from '../../config/paths.js';
import { ToolError } from '../../errors/tool-error.js';
import { styleFor } from '../../output/style.js';
import { printableLine } from '../../output/printable.js';
import { prepareDocument } from '../../plan/prepare-document.js';
import { annotation, annotationFile, inGitHubActions } from '../../observe/github/workflow-commands.js';
import { expandFileArguments } from '../file-globs.js';
import { checkAllowReadFolders } from '../allow-read-folders.js';
import { EXIT } from '../exit-codes.js';
import { readProjectSettings, silencer, type ProjectSettings } from '../project-settings.js';
import { resolveRunner } from '../runner-flag.js';
import { localOperationsLoader } from '../source-operations.js';
import type { ToolContext } from '../context.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool arazzo validate`. */
export interface ValidateOptions {
  files: string[];
  output: 'text' | 'json';
  strict: boolean;
  runner: string | undefined;
  allowRead: string[];
}

/**
 * `tool arazzo validate <file>...`: prints each document's findings on stdout; returns 0 when every
 * one is valid, 10 when one is not, 2 when one could not be read (its error on stderr; the others
 * are still validated). One file throws its ToolError as it always has.
 */
export async function validate(options: ValidateOptions, io: CommandIo): Promise<number> {
  const { context } = io;
  const files = await expandFileArguments(options.files, context.cwd);
  const settingsRead = new Map<string, Promise<ProjectSettings>>();
  if (files.length === 1) return validateOne(files[0]!, options, context, settingsRead, (record) => context.stdout.write(`${JSON.stringify(record, null, 2)}\n`));
  const records: unknown[] = [];
  let valid = 0;
  let invalid = 0;
  let unreadable = 0;
  for (const file of files) {
    try {
      const code = await validateOne(file, options, context, settingsRead, (record) => records.push(record));
      if (code === EXIT.OK) valid++;
      else invalid++;
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      unreadable++;
      context.stderr.write(`error: ${printableLine(error.message)}\n${error.hint ? `  ${printableLine(error.hint)}\n` : ''}`);
      records.push({ file, valid: false, error: { code: error.code, message: error.message } });
    }
  }
  if (options.output === 'json') context.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  else context.stdout.write(`${files.length} files: ${valid} valid, ${invalid} invalid${unreadable > 0 ? `, ${unreadable} not read (see stderr)` : ''}\n`);
  return unreadable > 0 ? EXIT.USAGE : invalid > 0 ? EXIT.INVALID_DOCUMENT : EXIT.OK;
}

/** Validates one document; `json` receives its JSON record (--output json). */
async function validateOne(file: string, options: ValidateOptions, context: ToolContext, settingsRead: Map<string, Promise<ProjectSettings>>, json: (record: unknown) => void): Promise<number> {
  // The project's tool.config.yaml (read once per project): its runner, allowRead folders and silenced warnings (flags win).
  const settings = await readProjectSettings(file, context.cwd, settingsRead);
  const runner = resolveRunner(options.runner, context.env, settings.runner?.value);
  const refused: Error[] = [];
  const prepared = await prepareDocument({
    file,
    cwd: context.cwd,
    env: context.env,
    profile: runner.profile,
    runnerFrom: runner.from,
    // Operation ids and parameters are checked against local descriptions only; remote ones are not fetched.
    descriptions: async (doc, profile) => {
      const denied = toolFolders(context.env);
      const allowRead = [...(await checkAllowReadFolders(options.allowRead, context.cwd)).map((folder) => resolve(context.cwd, folder)), ...(settings.allowRead?.value ?? [])];
      const loadOperations = localOperationsLoader(doc.absolutePath, { denied, allowRead, cwd: context.cwd, onRefused: (error) => refused.push(error) });
      // Only a profile that runs nested workflows reads the sources' workflows.
      const loadSourceWorkflows = profile.runsNestedWorkflows ? (await import('../source-workflows.js')).localWorkflowsLoader(doc.absolutePath, { denied, allowRead, cwd: context.cwd, onRefused: (error) => refused.push(error) }) : undefined;
      // Arazzo 1.1: message steps are checked against their local AsyncAPI sources.
      const readAsyncApi = profile.featureSet === '1.1' ? (await import('../source-workflows.js')).localAsyncApiReader(doc.absolutePath, { denied, allowRead, cwd: context.cwd, onRefused: (error) => refused.push(error) }) : undefined;
      const { checkAsyncSteps } = readAsyncApi ? await import('../../plan/check-async-steps.js') : { checkAsyncSteps: undefined };
      return {
        loadOperations,
        loadPathOperations: loadOperations.paths,
        ...(readAsyncApi && checkAsyncSteps ? { checkAsyncSteps: (model: ArazzoDocument, report: Report) => checkAsyncSteps(model, readAsyncApi, report) } : {}),
        ...(loadSourceWorkflows ? { loadSourceWorkflows } : {}),
        // A description that breaks a read rule stops `validate` as it stops `run`: same message, exit 2.
        afterValidation: () => {
          if (refused[0] !== undefined) throw new ToolError('DESCRIPTION_REFUSED', refused[0].message);
        },
      };
    },
    findings: (findings, doc, profile) => printFindings(findings, doc, profile, options, context, json),
    ...(settings.silence ? { silence: silencer(settings) } : {}),
    upTo: 'findings',
  });
  return prepared.valid ? EXIT.OK : EXIT.INVALID_DOCUMENT;
}

/** Findings are this command's data: every one goes to stdout. Returns whether the document is valid: no error, or no finding at all with --strict. */
function printFindings(findings: Finding[], doc: LoadedDocument, profile: RunnerProfile, options: ValidateOptions, context: ToolContext, json: (record: unknown) => void): boolean {
  const valid = !findings.some((finding) => finding.severity === 'error' || options.strict);
  if (options.output === 'json') {
    json({ file: doc.file, valid, strict: options.strict, workflows: doc.model.workflows.length, sources: doc.model.sourceDescriptions.length, findings });
  } else {
    // Coloured only when stdout is a terminal.
    const style = styleFor(context.stdoutIsTTY && context.colors);
    const lines = findings.map((finding) => formatFinding(finding, doc.file, style));
    lines.push(formatSummary(doc, findings, { strict: options.strict, profile }));
    context.stdout.write(`${lines.join('\n')}\n`);
  }
  // GitHub Actions: each finding is also an annotation, on stderr so that stdout stays the findings (docs/cli.md#ci).
  if (inGitHubActions(context.env)) {
    const file = annotationFile(doc.file, context.cwd, context.env);
    for (const finding of findings) {
      const level = finding.severity === 'error' || options.strict ? 'error' : 'warning';
      context.stderr.write(annotation(level, finding.message, { file, line: finding.line, col: finding.col, title: finding.code }));
    }
  }
  return valid;
}

/** tool's config and cache folders, which descriptions may never read; none when HOME is unusable. */
function toolFolders(env: Record<string, string | undefined>): string[] {
  try {
    const paths = configPaths(env);
    return [paths.configDir, paths.cacheDir];
  } catch {
    return [];
  }
}
