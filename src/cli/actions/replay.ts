import { CommandUsageError } from '../../errors/tool-error.js';
import { exitCodeFor } from '../exit-codes.js';
import { reportTargets } from '../report-flags.js';
import { reportingFlagErrors } from '../early-reports.js';
import { readProjectSettings } from '../project-settings.js';
import { resolveSharedRunFlags, type SharedRunFlags } from '../workflow-options.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool arazzo replay`. */
export interface ReplayOptions extends SharedRunFlags {
  file: string;
  from: string | undefined;
  report: string | undefined;
  junit: string | undefined;
}

/** `tool arazzo replay <file> --from <file.har>`: runs the workflow against the recorded responses; returns the run's exit code. Throws CommandUsageError without --from. */
export async function replay(flags: ReplayOptions, { context }: CommandIo): Promise<number> {
  // Checked here rather than by clipanion, whose message for a missing required option is "Command not found".
  if (flags.from === undefined) throw new CommandUsageError('arazzo replay needs --from <file.har>', 'Record a run with tool arazzo run <file> --har run.har, then replay it with --from run.har.');
  const from = flags.from;
  const targets = () => reportTargets({ report: flags.report, junit: flags.junit }, context.cwd, from);
  // A flag's value that stops the replay before it starts (an unset --input-env variable, a bad --from) still writes the reports asked for.
  const { options, sender } = await reportingFlagErrors(targets, { file: flags.file, workflowId: flags.workflow }, context.cwd, async () => {
    // The project's settings apply as to run, but for its report paths: a replay does not overwrite the run's reports.
    const shared = await resolveSharedRunFlags(flags, context, await readProjectSettings(flags.file, context.cwd));
    const options = {
      ...shared,
      file: flags.file,
      dryRun: false,
      // Descriptions may still be fetched (a remote source): with run's defaults.
      retry: 2,
      retryUnsafe: false,
      timeoutMs: 30_000,
      reports: targets(),
    };
    // The report folder is loaded only with import() (test/unit/observe/report-lazy.test.ts); the
    // run machinery only once the flags are known good.
    const { loadReplayPipeline } = await import('../../observe/report/replay-pipeline.js');
    return { options, sender: await loadReplayPipeline(from, context.cwd, shared.secretInputs) };
  });
  const { runWorkflowFile } = await import('../../run/run-workflow.js');
  return exitCodeFor((await runWorkflowFile(options, context, { sender, recorded: true })).kind);
}
