import { RUNS_WITH_V2 } from '../arazzo/finding.js';
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

const BIND = /^([^=]+)=(.+)$/s;

/**
 * The `--tool-bind <source>=<api>` flags as a map from source name to API name (v2). The v1 runner
 * does not bind: any flag is refused with the v2 hint. Throws CommandUsageError (exit 2) for that,
 * for a flag without `=` or with an empty side, and for a source bound to two different APIs.
 */
export function parseBindFlags(values: readonly string[], runner: RunnerVersion): ReadonlyMap<string, string> {
  const binds = new Map<string, string>();
  if (values.length === 0) return binds;
  if (runner === 'v1') {
    throw new CommandUsageError(`--tool-bind is not supported by the v1 runner ${RUNS_WITH_V2}`, 'Bind the source with x-tool-api: <api-name> on its sourceDescriptions entry, or run with --tool-runner v2.');
  }
  for (const value of values) {
    const match = BIND.exec(value);
    const source = match?.[1]?.trim() ?? '';
    const api = match?.[2]?.trim() ?? '';
    if (source === '' || api === '') throw new CommandUsageError(`--tool-bind ${JSON.stringify(value)} is not <source>=<api>`, 'Write it as --tool-bind <source-name>=<api-name>, e.g. --tool-bind petstore=petstore-staging.');
    const earlier = binds.get(source);
    if (earlier !== undefined && earlier !== api) throw new CommandUsageError(`--tool-bind binds source "${source}" to both "${earlier}" and "${api}"`, 'Give one --tool-bind per source.');
    binds.set(source, api);
  }
  return binds;
}
