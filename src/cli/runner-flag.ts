import { RUNNER_VERSIONS, type RunnerVersion } from '../arazzo/runner-version.js';
import { CommandUsageError } from '../errors/tool-error.js';

/** The description of `--tool-runner`, the same on run, validate and graph. */
export const RUNNER_FLAG_DESCRIPTION = 'Runner contract: v1 (default) or v2; the TOOL_RUNNER environment variable sets the default';

/**
 * The runner a command follows: `--tool-runner` when given, else `TOOL_RUNNER`, else v1. Throws
 * CommandUsageError (exit 2) for any other value, naming where it came from.
 */
export function resolveRunner(flag: string | undefined, env: Record<string, string | undefined>): RunnerVersion {
  const fromEnv = env.TOOL_RUNNER === undefined || env.TOOL_RUNNER === '' ? undefined : env.TOOL_RUNNER;
  const value = flag ?? fromEnv ?? 'v1';
  if ((RUNNER_VERSIONS as readonly string[]).includes(value)) return value as RunnerVersion;
  const where = flag !== undefined ? '--tool-runner' : 'the TOOL_RUNNER environment variable';
  throw new CommandUsageError(`${where} must be v1 or v2, got ${JSON.stringify(value)}`, `Use --tool-runner v1 (the default) or --tool-runner v2.`);
}

/** `--tool-bind` is not implemented yet by either runner: throws a usage error (exit 2) with the fix. */
export function refuseBind(runner: RunnerVersion): never {
  const why = runner === 'v2' ? 'is not yet supported by the v2 runner in this version' : 'is not supported by the v1 runner (runs with --tool-runner v2, in a later version)';
  throw new CommandUsageError(`--tool-bind ${why}`, 'Bind the source with x-tool-api: <api-name> on its sourceDescriptions entry.');
}
